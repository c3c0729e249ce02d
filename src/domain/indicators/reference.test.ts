import { describe, expect, it } from 'vitest'
import reference from '../../../test/fixtures/indicators/mytt-reference.json'
import type { DailyBars } from './bars'
import { technicalSeries } from './row'

/**
 * An independent statement of the same formulas: test/fixtures/indicators/reference.py restates
 * MyTT's indicators with pandas (ewm(adjust=False), rolling windows, the population STD) over a
 * seeded 600-bar series with flat days; every column must agree to 1e-6 at warm-up bars (null
 * where pandas has NaN) and at the last five.
 */
describe('the indicators agree with a pandas restatement of MyTT', () => {
  const b = reference.bars
  const bars: DailyBars = {
    dates: b.close.map((_, i) => String(i)),
    open: Float64Array.from(b.open), high: Float64Array.from(b.high), low: Float64Array.from(b.low), close: Float64Array.from(b.close), volume: Float64Array.from(b.volume),
  }
  const series = technicalSeries(bars)
  const expected = reference.expected as Record<string, Array<number | null>>

  it('covers every numeric column but closePrice', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(series).filter((k) => k !== 'closePrice').sort())
  })

  it.each(Object.keys(expected))('%s', (name) => {
    const ours = series[name as keyof typeof series]
    reference.at.forEach((i, j) => {
      const want = expected[name][j]
      if (want === null) expect(ours[i], `bar ${i}`).toBeNaN()
      else expect(Math.abs(ours[i] - want), `bar ${i}: ${ours[i]} vs ${want}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(want)))
    })
  })
})

import { describe, expect, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { macd } from './macd'
import { f64, line } from './testing'

describe('MACD(12, 26, 9)', () => {
  it('hand-checked: two closes 10, 11', () => {
    // EMA12 = 10, 10 + 2/13; EMA26 = 10, 10 + 2/27 → DIF = 0, 2/13 − 2/27 = 28/351
    // DEA (α = 2/10) = 0, 0.2 · 28/351 = 5.6/351; bar = 2 · (28 − 5.6)/351 = 44.8/351
    const m = macd(f64([10, 11]))
    expectSeries(m.dif, [0, 28 / 351])
    expectSeries(m.dea, [0, 5.6 / 351])
    expectSeries(m.macd, [0, 44.8 / 351])
  })

  it('a line with slope b: DIF → (26 − 12)/2 · b, DEA → DIF, bar → 0', () => {
    // EMA(n) of a line lags it by (n − 1)/2 steps: DIF = b · (12.5 − 5.5) = 7b
    const m = macd(f64(line(3000, 100, 0.5)))
    expectLast(m.dif, 3.5)
    expectLast(m.dea, 3.5)
    expectLast(m.macd, 0)
  })

  it('is defined from the first bar', () => {
    expect(macd(f64([5])).dif[0]).toBe(0)
  })
})

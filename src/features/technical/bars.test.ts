import { describe, expect, it } from 'vitest'
import type { Bar } from '../../domain/bar'
import { appendBars, emptyHistory, mergeActions } from '../../store/history'
import type { History } from '../../store/shapes'
import { joinHistory } from './bars'

/** A stored history of raw closes (open = high = low = close) from 2026-11-16 on, one per day. */
function stored(closes: number[], actions: Array<{ exDate: string; cash: number; bonus: number }> = []): History {
  const h = emptyHistory('sh600000')
  appendBars(h, closes.map((c, i) => ({ date: `2026-11-${16 + i}`, open: c, high: c, low: c, close: c, volume: 100, amount: null })))
  mergeActions(h, actions)
  return h
}

/** Channel bars (qfq to today) ending with the live bar, dated from `first` (day of November). */
const channel = (first: number, closes: number[]): Bar[] =>
  closes.map((c, i) => ({ date: `2026-11-${first + i}`, open: c, high: c, low: c, close: c, volume: 100, amount: null, turnover: null }))

const closes = (bars: Bar[] | undefined) => bars?.map((b) => [b.date.slice(8), b.close])

describe('joinHistory', () => {
  it('the stored bars, then the live bar', () => {
    expect(closes(joinHistory(stored([10, 11, 12, 13]), channel(17, [11, 12, 13, 14])))).toEqual([['16', 10], ['17', 11], ['18', 12], ['19', 13], ['20', 14]])
  })

  it('a history a day behind takes the missing day from the channel', () => {
    expect(closes(joinHistory(stored([10, 11, 12]), channel(17, [11, 12, 13, 14])))).toEqual([['16', 10], ['17', 11], ['18', 12], ['19', 13], ['20', 14]])
  })

  it('after the close, a stored bar for the live day gives way to the channel\'s', () => {
    expect(closes(joinHistory(stored([10, 11, 12, 13, 13.5]), channel(18, [12, 13, 14])))?.at(-1)).toEqual(['20', 14])
  })

  it('adjusts the stored bars for an ex-date today: P = 13, cash 1.3 → k = 0.9', () => {
    const h = stored([10, 11, 12, 13], [{ exDate: '2026-11-20', cash: 1.3, bonus: 0 }])
    expect(closes(joinHistory(h, channel(17, [9.9, 10.8, 11.7, 12])))).toEqual([['16', 9], ['17', 9.9], ['18', 10.8], ['19', 11.7], ['20', 12]])
  })

  it('refuses to join when the two disagree (an action the store lacks) or do not overlap', () => {
    expect(joinHistory(stored([10, 11, 12, 13]), channel(17, [9.9, 10.8, 11.7, 12]))).toBeUndefined()
    expect(joinHistory(stored([10, 11]), channel(19, [13, 14]))).toBeUndefined()
    expect(joinHistory(stored([]), channel(19, [13, 14]))).toBeUndefined()
    expect(joinHistory(stored([10]), [])).toBeUndefined()
  })

  it('tolerates a cent of difference (the upstream rounds its factor)', () => {
    expect(joinHistory(stored([10, 11, 12, 13]), channel(17, [11.01, 11.99, 13, 14]))).toBeDefined()
  })
})

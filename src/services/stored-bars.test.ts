import { describe, expect, it } from 'vitest'
import type { Quote } from '../domain/bar'
import { emptyHistory, appendBars } from '../store/history'
import { storedQfq } from '../store/stored-qfq'
import { joinStored } from './stored-bars'

/** A history of raw closes on the given dates (open = high = low = close). */
function historyOf(days: Array<[string, number]>, act: Array<[string, number, number]> = []) {
  const h = emptyHistory('sh600519')
  appendBars(h, days.map(([date, c]) => ({ date, open: c, high: c, low: c, close: c, volume: 100, amount: 100 * c, turnover: 0.1 })))
  h.act = act
  return h
}

const line = (date: string, preClose: number, last = preClose + 1): Quote => ({
  code: 'sh600519', name: '贵州茅台', date, time: '10:00:00', last, open: last, high: last, low: last,
  preClose, volume: 5, amount: 5, turnover: 0.1, halted: false, traded: true,
})

// 2026-11-16 (Mon) … 2026-11-20 (Fri) are trading days; 2026-11-23 is the Monday after.
const WEEK: Array<[string, number]> = [['2026-11-16', 10], ['2026-11-17', 11], ['2026-11-18', 12], ['2026-11-19', 13], ['2026-11-20', 14]]

/** What readTail keeps of a history: its last `count` bars, qfq as of its last bar. */
const tailOf = (h: ReturnType<typeof historyOf>, count: number) => storedQfq(h, h.t.length, [], count)

describe('the stored tail', () => {
  it('forward-adjusts the stored bars with the stored actions, as of the last bar', () => {
    // 1 CNY cash per share, ex-date 2026-11-19: the bars before it scale by (12 - 1) / 12.
    const bars = tailOf(historyOf(WEEK, [['2026-11-19', 1, 0]]), 3)
    expect(bars.map((b) => [b.date, b.close])).toEqual([['2026-11-18', 11], ['2026-11-19', 13], ['2026-11-20', 14]])
  })
})

describe('joinStored', () => {
  const tail = tailOf(historyOf(WEEK), 30)

  it('serves the stored bars before the line\'s day when the last is the previous session and its close is the line\'s previous close', () => {
    expect(joinStored(tail, line('2026-11-23', 14), 3)?.map((b) => b.date)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20'])
  })

  it('leaves out the stored bar of the line\'s own day (written by the evening job): the live line replaces it', () => {
    expect(joinStored(tail, line('2026-11-20', 13), 2)?.map((b) => b.date)).toEqual(['2026-11-18', '2026-11-19'])
  })

  it('refuses an ex-date the store does not hold yet: the line\'s previous close is the exchange\'s reference price', () => {
    expect(joinStored(tail, line('2026-11-23', 13.5), 3)).toBeUndefined()
  })

  it('accepts the upstream\'s rounding of its factor, no more', () => {
    expect(joinStored(tail, line('2026-11-23', 14.01), 3)).toBeDefined()
    expect(joinStored(tail, line('2026-11-23', 14.02), 3)).toBeUndefined()
  })

  it('refuses a store that is behind: its last bar is not the session before the line\'s', () => {
    expect(joinStored(tail, line('2026-11-24', 14), 3)).toBeUndefined()
  })
})

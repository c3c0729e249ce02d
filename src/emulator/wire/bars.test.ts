import { describe, expect, it } from 'vitest'
import type { RawBar } from '../market/types'
import { adjustBars, aggregateBars, dailySeries, lastInRange, qfqAsOf, spanKey, spanStart, withBase, type Span } from './bars'
import { fakeMarket } from './fake-market'
import { fixed } from './format'

const bar = (date: string, o: number, h: number, l: number, c: number, volume = 100, turnover: number | null = 1): RawBar => ({ date, open: o, high: h, low: l, close: c, preClose: o, volume, amount: volume * c, turnover })

describe('spanKey', () => {
  it('groups weeks Monday to Sunday and quarters by calendar quarter', () => {
    expect(spanKey('2025-01-05', 'week')).toBe('2024-12-30') // Sunday belongs to the week of Monday 30 Dec
    expect(spanKey('2025-01-06', 'week')).toBe('2025-01-06')
    expect(spanKey('2025-03-31', 'quarter')).toBe('2025Q1')
    expect(spanKey('2025-04-01', 'quarter')).toBe('2025Q2')
    expect(spanKey('2025-04-01', 'month')).toBe('2025-04')
    expect(spanKey('2025-04-01', 'year')).toBe('2025')
  })
})

describe('aggregateBars', () => {
  it('takes first open, last close, extremes, sums, and the last day as date', () => {
    const out = aggregateBars([bar('2025-01-02', 10, 12, 9, 11), bar('2025-01-03', 11, 13, 10, 12), bar('2025-01-06', 12, 12.5, 11, 11.5)], 'week')
    expect(out).toHaveLength(2)
    expect(out[0]).toEqual({ date: '2025-01-03', open: 10, high: 13, low: 9, close: 12, preClose: 10, volume: 200, amount: 100 * 11 + 100 * 12, turnover: 2 })
    expect(out[1].date).toBe('2025-01-06')
  })

  it('has no turnover when any day has none', () => {
    const out = aggregateBars([bar('2025-01-02', 1, 1, 1, 1, 1, null), bar('2025-01-03', 1, 1, 1, 1, 1, 2)], 'month')
    expect(out[0].turnover).toBeNull()
  })
})

describe('withBase and lastInRange', () => {
  it('pairs bars with the previous close and keeps the most recent in range', () => {
    const items = withBase([bar('2025-01-02', 10, 12, 9, 11), bar('2025-01-03', 11, 13, 10, 12), bar('2025-01-06', 12, 13, 11, 12.5)])
    expect(items.map((i) => i.base)).toEqual([10, 11, 12])
    expect(lastInRange(items, '0000', '2025-01-05', 1).map((i) => i.bar.date)).toEqual(['2025-01-03'])
    expect(lastInRange(items, '2025-01-03', '9999').map((i) => i.bar.date)).toEqual(['2025-01-03', '2025-01-06'])
  })
})

describe('adjustBars', () => {
  const maotai = fakeMarket.byCode('sh600519')!
  const now = Date.parse('2025-07-01T07:30:00Z')

  it('scales prices by the factor of each date and rounds to the decimals', () => {
    const raw = fakeMarket.dailyBars(maotai, '2024-06-18', '2024-06-19', now)
    const qfq = adjustBars(raw, maotai, fakeMarket, 'qfq', now)
    // raw ÷ the 6-decimal factor Sina publishes, so every upstream agrees to the cent.
    expect(qfq[0].close).toBe(Math.round((raw[0].close / Number(fixed(1 / (0.98 * 0.985), 6))) * 100) / 100)
    expect(qfq[1].close).toBe(Math.round((raw[1].close / Number(fixed(1 / 0.985, 6))) * 100) / 100)
    const hfq = adjustBars(raw, maotai, fakeMarket, 'hfq', now)
    expect(hfq[0].close).toBe(raw[0].close)
    expect(hfq[1].close).toBe(Math.round((raw[1].close / 0.98) * 100) / 100)
    expect(adjustBars(raw, maotai, fakeMarket, 'none', now)).toEqual(raw)
  })

  it('ignores ex-dates after the clock', () => {
    expect(qfqAsOf(fakeMarket, maotai, '2024-06-18', Date.parse('2025-01-02T07:30:00Z'))).toBeCloseTo(0.98, 12)
    expect(qfqAsOf(fakeMarket, maotai, '2024-06-18', now)).toBeCloseTo(0.98 * 0.985, 12)
  })
})

describe('dailySeries', () => {
  const maotai = fakeMarket.byCode('sh600519')!
  const now = Date.parse('2025-01-02T07:30:00Z')

  it('aligns windows to span starts', () => {
    expect(spanStart('2025-01-02', 'week')).toBe('2024-12-30')
    expect(spanStart('2025-05-17', 'quarter')).toBe('2025-04-01')
    expect(spanStart('2025-05-17', 'year')).toBe('2025-01-01')
    expect(spanStart('2025-05-17', 'month')).toBe('2025-05-01')
  })

  it('answers exactly what the whole history up to `to` would, for any range and limit', () => {
    const spans: Array<Span | 'day'> = ['day', 'week', 'month', 'quarter', 'year']
    const ranges = [
      { from: '0000-00-00', to: '9999-99-99', limit: 5 },
      { from: '0000-00-00', to: '2024-06-20', limit: 3 },
      { from: '2024-02-01', to: '2024-11-30', limit: undefined },
      { from: '2024-02-01', to: '9999-99-99', limit: 1000 },
      { from: '2023-01-03', to: '2023-01-10', limit: 2 },
    ]
    for (const span of spans) {
      for (const r of ranges) {
        // A period cut by `to` ends there (dated by its last day up to `to`), as today's period does.
        const days = adjustBars(fakeMarket.dailyBars(maotai, maotai.listDate, r.to < '2025-01-02' ? r.to : '2025-01-02', now), maotai, fakeMarket, 'qfq', now)
        const full = withBase(span === 'day' ? days : aggregateBars(days, span))
        const got = lastInRange(withBase(dailySeries(fakeMarket, maotai, span, 'qfq', r, now)), r.from, r.to, r.limit)
        expect(got, `${span} ${JSON.stringify(r)}`).toEqual(lastInRange(full, r.from, r.to, r.limit))
      }
    }
  })
})

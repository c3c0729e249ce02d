import { describe, expect, it } from 'vitest'
import type { Bar } from './bar'
import { aggregateBars } from './aggregate'

const bar = (date: string, o: number, c: number, h: number, l: number, v = 100, a: number | null = 1000, t: number | null = 1): Bar => ({
  date, open: o, close: c, high: h, low: l, volume: v, amount: a, turnover: t,
})

describe('aggregateBars', () => {
  it('merges months into seasons dated by their last month', () => {
    const months = [
      bar('2025-01-27', 10, 11, 12, 9),
      bar('2025-02-28', 11, 13, 14, 10),
      bar('2025-03-31', 13, 12, 15, 11),
      bar('2025-04-30', 12, 12.5, 13, 11.5),
    ]
    expect(aggregateBars(months, 'season')).toEqual([
      { date: '2025-03-31', open: 10, close: 12, high: 15, low: 9, volume: 300, amount: 3000, turnover: 3 },
      { date: '2025-04-30', open: 12, close: 12.5, high: 13, low: 11.5, volume: 100, amount: 1000, turnover: 1 },
    ])
  })

  it('merges months into years', () => {
    const r = aggregateBars([bar('2024-12-31', 1, 2, 3, 1), bar('2025-01-27', 2, 3, 4, 2), bar('2025-02-28', 3, 1, 5, 0.5)], 'year')
    expect(r.map((b) => [b.date, b.open, b.close, b.high, b.low])).toEqual([
      ['2024-12-31', 1, 2, 3, 1],
      ['2025-02-28', 2, 1, 5, 0.5],
    ])
  })

  it('pairs 60-minute bars within a day into 120-minute bars', () => {
    const m60 = ['10:30', '11:30', '14:00', '15:00'].map((t, i) => bar(`2025-01-02 ${t}`, i + 1, i + 1.5, i + 2, i + 0.5))
    m60.push(bar('2025-01-03 10:30', 9, 9, 9, 9))
    const r = aggregateBars(m60, 'm120')
    expect(r.map((b) => b.date)).toEqual(['2025-01-02 11:30', '2025-01-02 15:00', '2025-01-03 10:30'])
    expect(r[0]).toMatchObject({ open: 1, close: 2.5, high: 3, low: 0.5, volume: 200 })
  })

  it('keeps amount and turnover null when a part lacks them (never guesses)', () => {
    const r = aggregateBars([bar('2025-01-02', 1, 1, 1, 1, 1, null, null), bar('2025-02-03', 1, 1, 1, 1)], 'year')
    expect(r[0]).toMatchObject({ amount: null, turnover: null })
  })
})

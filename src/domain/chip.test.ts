import { describe, expect, it } from 'vitest'
import { chipDistribution, type ChipBar } from './chip'

const bar = (date: string, open: number, high: number, low: number, close: number, turnover: number): ChipBar => ({ date, open, high, low, close, turnover })

/**
 * Worked by hand with 5 buckets over [10, 12] (step 0.5: 10, 10.5, 11, 11.5, 12):
 * day 1 (avg 10.5, t 0.5, peak 2): +1 at 10.5                         → [0, 1, 0, 0, 0]
 * day 2 (avg 11.5, t 0.5): decay ×0.5, +1 at 11.5                      → [0, 0.5, 0, 1, 0]
 * day 3 one price 11 (t 0.2): decay ×0.8, +0.2·(5−1)/2 = 0.4 at 11     → [0, 0.4, 0.4, 0.8, 0]
 */
const THREE_DAYS = [
  bar('2026-11-18', 10, 11, 10, 11, 50),
  bar('2026-11-19', 11, 12, 11, 12, 50),
  bar('2026-11-20', 11, 11, 11, 11, 20),
]

describe('chipDistribution', () => {
  it('matches the hand-computed three-day example', () => {
    const r = chipDistribution(THREE_DAYS, { buckets: 5 })
    expect(r.date).toBe('2026-11-20')
    expect(r.close).toBe(11)
    expect(r.distribution.map((b) => b.price)).toEqual([10, 10.5, 11, 11.5, 12])
    r.distribution.forEach((b, k) => expect(b.share).toBeCloseTo([0, 0.25, 0.25, 0.5, 0][k], 12))
    // Chips at or below the close of 11: 0.4 + 0.4 of 1.6.
    expect(r.profitRatio).toBeCloseTo(0.5, 12)
    // Running totals 0, 0.4, 0.8, 1.6: half (0.8) is first passed at 11.5.
    expect(r.averageCost).toBe(11.5)
    expect(r.range90).toEqual([10.5, 11.5])
    expect(r.range70).toEqual([10.5, 11.5])
    expect(r.concentration90).toBeCloseTo(1 / 22, 12)
    expect(r.concentration70).toBeCloseTo(1 / 22, 12)
  })

  it('puts a day whose average is its low at full peak height', () => {
    // open = close = low = 10, high 12 → avg 10.5; with 5 buckets over [10, 12] the 10 bucket gets 0 and 10.5 the peak.
    const r = chipDistribution([bar('2026-11-20', 10, 12, 10, 10, 100)], { buckets: 5 })
    // t = 1, peak = 1: 10 → 0, 10.5 → 1, 11 → 1·(12−11)/1.5, 11.5 → 1·0.5/1.5, 12 → 0.
    const raw = [0, 1, 2 / 3, 1 / 3, 0]
    const total = raw.reduce((a, b) => a + b, 0)
    r.distribution.forEach((b, k) => expect(b.share).toBeCloseTo(raw[k] / total, 12))
  })

  it('forgets old chips as turnover replaces them: 100% turnover keeps only the last day', () => {
    const r = chipDistribution([bar('2026-11-19', 20, 21, 19, 20, 30), bar('2026-11-20', 10, 11, 9, 10, 100)])
    const held = r.distribution.filter((b) => b.share > 0)
    expect(Math.min(...held.map((b) => b.price))).toBeGreaterThanOrEqual(9)
    expect(Math.max(...held.map((b) => b.price))).toBeLessThanOrEqual(11)
  })

  it('has shares summing to 1 and costs within the price range on a longer series', () => {
    const bars: ChipBar[] = []
    let p = 30
    for (let i = 0; i < 120; i++) {
      const open = p
      const close = +(p * (1 + Math.sin(i * 0.7) * 0.03)).toFixed(2)
      const high = +(Math.max(open, close) * 1.01).toFixed(2)
      const low = +(Math.min(open, close) * 0.99).toFixed(2)
      bars.push(bar(`d${String(i).padStart(3, '0')}`, open, high, low, close, 1 + (i % 7)))
      p = close
    }
    const r = chipDistribution(bars)
    expect(r.distribution).toHaveLength(150)
    expect(r.distribution.reduce((s, b) => s + b.share, 0)).toBeCloseTo(1, 9)
    const lo = Math.min(...bars.map((b) => b.low))
    const hi = Math.max(...bars.map((b) => b.high))
    for (const v of [r.averageCost, ...r.range90, ...r.range70]) {
      expect(v).toBeGreaterThanOrEqual(lo - 0.01)
      expect(v).toBeLessThanOrEqual(hi + 0.01)
    }
    expect(r.range90[0]).toBeLessThanOrEqual(r.range70[0])
    expect(r.range90[1]).toBeGreaterThanOrEqual(r.range70[1])
    expect(r.concentration90).toBeGreaterThanOrEqual(r.concentration70)
    expect(r.profitRatio).toBeGreaterThanOrEqual(0)
    expect(r.profitRatio).toBeLessThanOrEqual(1)
  })

  it('has no chips, and says so with shares of 0, when nothing turned over', () => {
    const r = chipDistribution([bar('2026-11-19', 10, 11, 9, 10, 0), bar('2026-11-20', 10, 11, 9, 10, 0)])
    expect(r.distribution.every((b) => b.share === 0)).toBe(true)
    expect(r.profitRatio).toBe(0)
  })

  it('refuses an empty series', () => {
    expect(() => chipDistribution([])).toThrow(RangeError)
  })
})

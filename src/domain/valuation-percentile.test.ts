import { describe, expect, it } from 'vitest'
import { standing } from './valuation-percentile'

const days = (values: Array<number | null>) => values.map((value, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, value }))

describe('standing', () => {
  it('is the share of the window with a strictly lower value, the latest day included', () => {
    // Window 2..5: 20, 10, 40, 30 → two lower than 30 of four days.
    expect(standing(days([5, 20, 10, 40, 30]), '2026-01-02')).toEqual({ value: 30, percentile: 50, window: { start: '2026-01-02', end: '2026-01-05', days: 4 } })
  })

  it('is 0 at the lowest value and below 100 at the highest (the day itself is not lower)', () => {
    expect(standing(days([3, 2, 1]), '2026-01-01').percentile).toBe(0)
    expect(standing(days([1, 2, 3]), '2026-01-01').percentile).toBeCloseTo(66.67, 2)
  })

  it('leaves out missing and non-positive days, and ranks nothing when the latest is a loss', () => {
    expect(standing(days([10, null, -4, 12]), '2026-01-01')).toEqual({ value: 12, percentile: 50, window: { start: '2026-01-01', end: '2026-01-04', days: 2 } })
    expect(standing(days([10, 12, -3]), '2026-01-01')).toEqual({ value: -3, percentile: null, window: { start: '2026-01-01', end: '2026-01-02', days: 2 } })
    expect(standing([], '2026-01-01')).toEqual({ value: null, percentile: null, window: null })
  })
})

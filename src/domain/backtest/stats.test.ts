import { describe, expect, it } from 'vitest'
import { addReturn, emptyStats, maxDrawdownPct, mergeStats, summarize } from './stats'

describe('return statistics', () => {
  it('win rate, mean and median in percent, the same whether added at once or merged', () => {
    const all = emptyStats()
    for (const r of [0.05, -0.02, 0.01, 0.1]) addReturn(all, r)
    // Median of -2%, 1%, 5%, 10% is (1 + 5) / 2 = 3%; mean 3.5%; 3 of 4 won.
    expect(summarize(all)).toEqual({ samples: 4, win_rate_pct: 75, mean_return_pct: 3.5, median_return_pct: 3 })
    const a = emptyStats()
    const b = emptyStats()
    addReturn(a, 0.05)
    addReturn(a, -0.02)
    addReturn(b, 0.01)
    addReturn(b, 0.1)
    mergeStats(a, b)
    expect(summarize(a)).toEqual(summarize(all))
    expect(summarize(emptyStats())).toEqual({ samples: 0, win_rate_pct: null, mean_return_pct: null, median_return_pct: null })
  })

  it('maximum drawdown from peak to trough of the compounded curve', () => {
    // 1 → 1.1 → 0.88 → 0.968 → 1.0648: the worst is 0.88 / 1.1 − 1 = −20%.
    expect(maxDrawdownPct([0.1, -0.2, 0.1, 0.1])).toBe(-20)
    expect(maxDrawdownPct([0.01, 0.02])).toBe(0)
  })
})

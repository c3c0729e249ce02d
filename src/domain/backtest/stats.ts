/**
 * Return statistics that merge: counts, sums and a histogram at 0.01 % resolution, so the
 * backtest can add up one chunk of stocks at a time and still give the median (to the 0.01 %
 * the evidence prints). Merging in a fixed order keeps the figures deterministic.
 */
export interface ReturnStats {
  n: number
  wins: number
  /** Sum of the returns, fractions. */
  sum: number
  /** Count per return in 0.01 % units (key: Math.round(return × 10,000)). */
  bins: Record<string, number>
}

export const emptyStats = (): ReturnStats => ({ n: 0, wins: 0, sum: 0, bins: {} })

/** Adds one return (a fraction). */
export function addReturn(s: ReturnStats, ret: number): void {
  s.n++
  if (ret > 0) s.wins++
  s.sum += ret
  const key = String(Math.round(ret * 10_000))
  s.bins[key] = (s.bins[key] ?? 0) + 1
}

/** Adds `b` into `a`. */
export function mergeStats(a: ReturnStats, b: ReturnStats): void {
  a.n += b.n
  a.wins += b.wins
  a.sum += b.sum
  for (const [k, v] of Object.entries(b.bins)) a.bins[k] = (a.bins[k] ?? 0) + v
}

/** A fraction as a percentage rounded to 2 decimals. */
export const pct = (x: number) => Math.round(x * 10_000) / 100 || 0

/** The median in percent (mean of the middle two for an even count), from the histogram. */
function medianPct(s: ReturnStats): number | null {
  if (s.n === 0) return null
  const keys = Object.keys(s.bins).map(Number).sort((a, b) => a - b)
  const at = (rank: number) => {
    let seen = 0
    for (const k of keys) {
      seen += s.bins[String(k)]
      if (seen > rank) return k
    }
    return keys.at(-1)!
  }
  const mid = (at(Math.floor((s.n - 1) / 2)) + at(Math.floor(s.n / 2))) / 2
  return Math.round(mid) / 100 || 0
}

/** What the evidence prints of a set of returns. */
export interface ReturnSummary {
  samples: number
  win_rate_pct: number | null
  mean_return_pct: number | null
  median_return_pct: number | null
}

export function summarize(s: ReturnStats): ReturnSummary {
  if (s.n === 0) return { samples: 0, win_rate_pct: null, mean_return_pct: null, median_return_pct: null }
  return { samples: s.n, win_rate_pct: pct(s.wins / s.n), mean_return_pct: pct(s.sum / s.n), median_return_pct: medianPct(s) }
}

/**
 * Maximum drawdown in percent (≤ 0) of a curve compounded from daily returns in the given order;
 * 0 for a curve that never falls.
 */
export function maxDrawdownPct(daily: readonly number[]): number {
  let eq = 1
  let peak = 1
  let worst = 0
  for (const r of daily) {
    eq *= 1 + r
    if (eq > peak) peak = eq
    worst = Math.min(worst, eq / peak - 1)
  }
  return pct(worst)
}

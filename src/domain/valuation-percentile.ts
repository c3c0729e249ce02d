/**
 * Where a valuation ratio stands in its own history: the share of the window's days with a lower
 * value. Only positive values take part: a negative PE or PCF is a loss or a cash drain, not a
 * cheap price, so it neither ranks nor is ranked.
 */

/** One day of a ratio; null when the upstream had none that day. */
export interface RatioDay {
  date: string
  value: number | null
}

export interface RatioStanding {
  value: number | null
  /** 0–100: percent of the window's days (the latest included) whose value is strictly lower; null when the latest has none or is not positive. */
  percentile: number | null
  /** The days that counted: first and last date, and how many. Null when none did. */
  window: { start: string; end: string; days: number } | null
}

/**
 * The latest day's value of `series` (ascending by date) and its percentile among the positive
 * values of the days from `start` on.
 */
export function standing(series: readonly RatioDay[], start: string): RatioStanding {
  const latest = series.at(-1)
  const value = latest?.value ?? null
  const used = series.filter((d) => d.date >= start && d.value !== null && d.value > 0) as Array<{ date: string; value: number }>
  const window = used.length ? { start: used[0].date, end: used[used.length - 1].date, days: used.length } : null
  if (value === null || value <= 0 || !window) return { value, percentile: null, window }
  const lower = used.reduce((n, d) => n + (d.value < value ? 1 : 0), 0)
  return { value, percentile: Math.round((lower / used.length) * 10_000) / 100, window }
}

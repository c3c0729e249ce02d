/**
 * The market's technical breadth on one day (/v1/market-overview `technical`), counted over the
 * day's technicals table: how many stocks close above their 20-, 60- and 250-day averages, and
 * how many made a 250-session (52-week) high or low that day.
 */

/** What the count needs of a day's table (src/store/technicals.ts TechnicalsDay). */
export interface BreadthSource {
  codes(): string[]
  row(code: string): { get(column: string): number | null } | undefined
}

interface AboveAverage {
  /** Stocks with the average (history long enough). */
  stocks: number
  above: number
  /** above / stocks × 100, 2 decimals; null when no stock has the average. */
  pct: number | null
}

export interface TechnicalBreadth {
  stocks: number
  above_ma20: AboveAverage
  above_ma60: AboveAverage
  above_ma250: AboveAverage
  /** Stocks whose high was the highest of the last 250 sessions (of those with 250 sessions). */
  new_highs_52w: number
  new_lows_52w: number
}

const pct = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 100)

export function technicalBreadth(day: BreadthSource): TechnicalBreadth {
  const codes = day.codes()
  const counts = { ma_MA_20: [0, 0], ma_MA_60: [0, 0], ma_MA_250: [0, 0] }
  let highs = 0
  let lows = 0
  for (const code of codes) {
    const r = day.row(code)!
    const close = r.get('closePrice')
    for (const [ma, c] of Object.entries(counts)) {
      const v = r.get(ma)
      if (close === null || v === null) continue
      c[0]++
      if (close > v) c[1]++
    }
    if (r.get('NewHigh250') === 1) highs++
    if (r.get('NewLow250') === 1) lows++
  }
  const above = ([stocks, n]: number[]): AboveAverage => ({ stocks, above: n, pct: pct(n, stocks) })
  return {
    stocks: codes.length,
    above_ma20: above(counts.ma_MA_20),
    above_ma60: above(counts.ma_MA_60),
    above_ma250: above(counts.ma_MA_250),
    new_highs_52w: highs,
    new_lows_52w: lows,
  }
}

/**
 * Market valuation over a cross-section of stocks (/v1/market-overview?type=valuation): the
 * median PE TTM and PB, and the aggregate ("overall") ratios the indexes quote: total market cap
 * over total earnings (losses included) or total book value. Pure.
 */
import { BOARD_NAMES } from './board-turnover'
import type { Board } from './instrument'
import { boardOfCode } from './price-limit'

export interface ValuedStock {
  code: string
  /** CNY. */
  marketCap: number | null
  peTtm: number | null
  pb: number | null
}

export interface ValuationStats {
  /** Stocks with a market cap. */
  stocks: number
  /** Median PE TTM of the profitable stocks (PE > 0); null when none. */
  pe_ttm_median: number | null
  /** Total market cap / total TTM earnings of the stocks with a PE (losses included); null when earnings are not positive. */
  pe_ttm_overall: number | null
  /** Stocks with a negative PE TTM (a loss over the last four quarters). */
  loss_making: number
  /** Median PB of the stocks with a positive PB; null when none. */
  pb_median: number | null
  /** Total market cap / total book value of the stocks with a PB; null when book value is not positive. */
  pb_overall: number | null
  /** Total market cap, CNY. */
  market_cap: number
}

const round2 = (x: number) => Math.round(x * 100) / 100

function median(xs: number[]): number | null {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return round2(s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2)
}

export function valuationStats(rows: readonly ValuedStock[]): ValuationStats {
  const valued = rows.filter((r) => r.marketCap !== null && r.marketCap > 0)
  let earnings = 0
  let capWithPe = 0
  let book = 0
  let capWithPb = 0
  for (const r of valued) {
    if (r.peTtm !== null && r.peTtm !== 0) {
      earnings += r.marketCap! / r.peTtm
      capWithPe += r.marketCap!
    }
    if (r.pb !== null && r.pb !== 0) {
      book += r.marketCap! / r.pb
      capWithPb += r.marketCap!
    }
  }
  return {
    stocks: valued.length,
    pe_ttm_median: median(valued.flatMap((r) => (r.peTtm !== null && r.peTtm > 0 ? [r.peTtm] : []))),
    pe_ttm_overall: earnings > 0 ? round2(capWithPe / earnings) : null,
    loss_making: valued.filter((r) => r.peTtm !== null && r.peTtm < 0).length,
    pb_median: median(valued.flatMap((r) => (r.pb !== null && r.pb > 0 ? [r.pb] : []))),
    pb_overall: book > 0 ? round2(capWithPb / book) : null,
    market_cap: Math.round(valued.reduce((s, r) => s + r.marketCap!, 0)),
  }
}

/** The whole market and each board. */
export function valuationByBoard(rows: readonly ValuedStock[]): { all: ValuationStats; boards: Array<{ board: Board; name: string } & ValuationStats> } {
  return {
    all: valuationStats(rows),
    boards: BOARD_NAMES.map(([board, name]) => ({ board, name, ...valuationStats(rows.filter((r) => boardOfCode(r.code) === board)) })),
  }
}

/** The columns {@link valuedFromFactors} reads: a factor table as the after-close job stores it. */
export interface FactorColumns {
  codes: readonly string[]
  value(factor: string, i: number): number | null
}

const ratio2 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : round2(x))

/**
 * The stocks of a stored factor table valued as Eastmoney's list prints them: market cap = close ×
 * total shares (CNY), PE TTM and PB to two decimals, a loss-maker's PE negative (the close over its
 * negative EPS TTM, where the table's PE_TTM is null). Stored data standing in for the list when
 * it cannot be had: the figures of the table's session close.
 */
export function valuedFromFactors(t: FactorColumns): ValuedStock[] {
  return t.codes.map((code, i) => {
    const close = t.value('ClosePrice', i)
    const shares = t.value('TotalShares', i)
    const eps = t.value('EPS_TTM', i)
    const pe = t.value('PE_TTM', i) ?? (close !== null && eps !== null && eps < 0 ? close / eps : null)
    return {
      code,
      marketCap: close !== null && shares !== null ? Math.round(close * shares) : null,
      peTtm: ratio2(pe),
      pb: ratio2(t.value('PB', i)),
    }
  })
}

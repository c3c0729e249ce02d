/**
 * The session's up/down distribution over the whole A-share market (/v1/changedist): advancers,
 * decliners, unchanged, limit-ups and limit-downs by each board's rule, change-percent buckets and
 * turnover per exchange. Pure: it counts the rows it is given (the whole-market list).
 */
import { boardOfCode, limitFraction, limitPrices } from './price-limit'

/** What the count needs of one stock's session (a whole-market list row). */
export interface SessionRow {
  /** Canonical code, `sh600519`. */
  code: string
  name: string
  /** Last (or closing) price, CNY; 0 when halted. */
  close: number
  /** Previous close (ex-rights reference price after an ex-date), CNY. */
  preClose: number
  /** CNY traded today. */
  amount: number
  /** Suspended (the upstream's sign; see the list parsers). */
  halted: boolean
  /** Traded in the session counted. */
  traded: boolean
}

/**
 * Lower edges of the change-percent bands, by size of the move. Each side gets one bucket per
 * band: a move of size s (change percent, rounded to 2 decimals as quoted) falls in the band with
 * edge ≤ s < next edge, so -9.00 is in "≤-9" and 3.00 in "3~5"; exactly unchanged is its own bucket.
 */
export const CHANGE_BAND_EDGES = [0, 3, 5, 7, 9] as const

interface ChangeBucket {
  /** `≤-9`, `-9~-7`, …, `-3~0`, `0`, `0~3`, …, `≥9`. */
  label: string
  /** Lowest change percent in the bucket (inclusive on the up side, exclusive on the down side); null = no bound. */
  min_pct: number | null
  /** Highest change percent (exclusive on the up side, inclusive on the down side); null = no bound. */
  max_pct: number | null
  count: number
}

export interface ChangeDistribution {
  /** Stocks in the list. */
  total: number
  /** Stocks that traded this session (total − halted − untraded). */
  traded: number
  /** Suspended. */
  halted: number
  /** Listed, not suspended, without a trade in the session yet. */
  untraded: number
  advancers: number
  decliners: number
  unchanged: number
  limit_up: number
  limit_down: number
  buckets: ChangeBucket[]
  /** CNY traded per exchange and SH+SZ ("two markets"). */
  turnover: { sh: number; sz: number; bj: number; sh_sz: number }
}

/** Change percent as quoted: 2 decimals, half away from zero. */
export function changePct(close: number, preClose: number): number {
  const pct = ((close - preClose) / preClose) * 100
  return Math.sign(pct) * (Math.round(Math.abs(pct) * 100 + 1e-6) / 100)
}

/** The empty buckets in display order: down bands from the largest move, flat, up bands. */
function emptyBuckets(): ChangeBucket[] {
  const e = CHANGE_BAND_EDGES
  const n = e.length
  const down = e.map((lo, k): ChangeBucket => {
    const hi = k + 1 < n ? e[k + 1] : null
    return { label: hi === null ? `≤-${lo}` : `-${hi}~${lo === 0 ? '0' : `-${lo}`}`, min_pct: hi === null ? null : -hi, max_pct: lo === 0 ? 0 : -lo, count: 0 }
  })
  const up = e.map((lo, k): ChangeBucket => {
    const hi = k + 1 < n ? e[k + 1] : null
    return { label: hi === null ? `≥${lo}` : `${lo}~${hi}`, min_pct: lo, max_pct: hi, count: 0 }
  })
  return [...down.reverse(), { label: '0', min_pct: 0, max_pct: 0, count: 0 }, ...up]
}

/** Index of the band a move of `size` percent falls in. */
function band(size: number): number {
  let k = 0
  while (k + 1 < CHANGE_BAND_EDGES.length && size >= CHANGE_BAND_EDGES[k + 1]) k++
  return k
}

/** Counts the session over `rows`; limit-ups are closes at or above the board's limit price. */
export function changeDistribution(rows: readonly SessionRow[]): ChangeDistribution {
  const buckets = emptyBuckets()
  const n = CHANGE_BAND_EDGES.length
  const out: ChangeDistribution = {
    total: rows.length, traded: 0, halted: 0, untraded: 0, advancers: 0, decliners: 0, unchanged: 0, limit_up: 0, limit_down: 0,
    buckets, turnover: { sh: 0, sz: 0, bj: 0, sh_sz: 0 },
  }
  for (const r of rows) {
    if (r.halted) {
      out.halted++
      continue
    }
    if (!r.traded || r.preClose <= 0) {
      out.untraded++
      continue
    }
    out.traded++
    const exchange = r.code.slice(0, 2) as 'sh' | 'sz' | 'bj'
    out.turnover[exchange] += r.amount
    if (r.close === r.preClose) {
      out.unchanged++
      buckets[n].count++
      continue
    }
    const pct = changePct(r.close, r.preClose)
    const k = band(Math.abs(pct))
    if (r.close > r.preClose) {
      out.advancers++
      buckets[n + 1 + k].count++
    } else {
      out.decliners++
      buckets[n - 1 - k].count++
    }
    const board = boardOfCode(r.code)
    if (!board) continue
    const { down, up } = limitPrices(r.preClose, limitFraction(board, r.name))
    if (r.close >= up) out.limit_up++
    else if (r.close <= down) out.limit_down++
  }
  out.turnover.sh_sz = out.turnover.sh + out.turnover.sz
  for (const k of ['sh', 'sz', 'bj', 'sh_sz'] as const) out.turnover[k] = Math.round(out.turnover[k] * 100) / 100
  return out
}

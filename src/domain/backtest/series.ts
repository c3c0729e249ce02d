/**
 * One stock's days as the backtest sees them: the point-in-time factor rows of src/domain/stock-days.ts
 * (factors for D from the bars up to D, adjusted to D) as a factor table whose rows are days, plus
 * the prices the trades execute at and the limit flags of each open.
 *
 * Trade prices are forward-adjusted to the last bar (so a return across an ex-date counts the
 * dividend and bonus shares); that scales prices, it decides nothing, so no future leaks into a
 * signal. The limit flags compare the raw open with the session's limit prices, computed from the
 * exchange's reference price (the previous close, ex-rights on an ex-date). Not modelled: the
 * first sessions of a new listing, which have no or wider limits (they get the board's rule), and
 * a name's ST status in the past (the rule follows the name the stock has now).
 */
import { factors as adjustFactors } from '../adjust'
import { limitFraction, limitPrices } from '../price-limit'
import type { Board } from '../instrument'
import type { FactorTable } from '../screen'
import { STOCK_DAY_COLUMNS, stockDays, type RawDaily } from '../stock-days'

/** Share counts and listing of a stock (the universe's profile): [total shares, float shares, listing date]. */
export type Profile = readonly [number | null, number | null, string | null]

/** Factors a playbook may use: every stock-day column, the close, and the size factors from the share counts. */
export const BACKTEST_FACTORS: readonly string[] = ['ClosePrice', ...STOCK_DAY_COLUMNS.filter((c) => c !== 'closePrice'), 'TotalMV', 'FloatMV', 'TurnoverRate']

export interface StockSeries {
  code: string
  /** Dates `YYYY-MM-DD` of the bars in the series, ascending. */
  dates: string[]
  /** Adjusted open and close (to the last bar). */
  open: Float64Array
  close: Float64Array
  /** 1 where the raw open is at the limit-up price (cannot buy) / limit-down price (cannot sell). */
  upAtOpen: Uint8Array
  downAtOpen: Uint8Array
  /** Factor rows, one per date. */
  table: FactorTable
}

/**
 * The series of the bars from index `from` to the last. Rows before `from` are not built (the
 * factors of `from` still use every bar before it). `board` and `name` give the limit rule.
 */
export function stockSeries(code: string, h: RawDaily, from: number, board: Board, name: string, profile?: Profile): StockSeries {
  const n = h.t.length
  const start = Math.max(0, from)
  const rows = stockDays(h, start, n - 1)
  const f = adjustFactors(h, 'qfq')
  const len = n - start
  const open = new Float64Array(len)
  const close = new Float64Array(len)
  const upAtOpen = new Uint8Array(len)
  const downAtOpen = new Uint8Array(len)
  const fraction = limitFraction(board, name)
  for (let k = 0; k < len; k++) {
    const i = start + k
    open[k] = h.o[i] * f[i]
    close[k] = h.c[i] * f[i]
    if (i > 0) {
      // The exchange's reference price: the previous close, ex-rights when bar i is on or after an ex-date.
      const ref = (h.c[i - 1] * f[i - 1]) / f[i]
      const { up, down } = limitPrices(ref, fraction)
      upAtOpen[k] = h.o[i] >= up ? 1 : 0
      downAtOpen[k] = h.o[i] <= down ? 1 : 0
    }
  }
  const columns = new Map<string, Float64Array>()
  STOCK_DAY_COLUMNS.forEach((name, j) => {
    const col = new Float64Array(len)
    for (let k = 0; k < len; k++) col[k] = rows[k].values[j] ?? NaN
    columns.set(name === 'closePrice' ? 'ClosePrice' : name, col)
  })
  // Size factors: the close that traded on D times the list's share counts (a backfilled
  // day uses the list of the backfill's start, docs/api-guide.md /v1/screen; the counts change rarely).
  const px = columns.get('ClosePrice')!
  const vol = columns.get('Volume')!
  const [total, float] = profile ?? [null, null, null]
  columns.set('TotalMV', px.map((p) => (total ? (p * total) / 1e8 : NaN)))
  columns.set('FloatMV', px.map((p) => (float ? (p * float) / 1e8 : NaN)))
  columns.set('TurnoverRate', vol.map((v) => (float ? (v / float) * 100 : NaN)))
  const empty = new Float64Array(len).fill(NaN)
  return {
    code,
    dates: rows.map((r) => r.date),
    open,
    close,
    upAtOpen,
    downAtOpen,
    table: { size: len, column: (name) => columns.get(name) ?? empty },
  }
}

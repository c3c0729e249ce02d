/**
 * Point-in-time rows of one stock: for a trading day D, the technical columns
 * and the day's price factors computed from the bars up to D, forward-adjusted to D with only the
 * corporate actions that had happened by D. `closePrice` is therefore the close that traded on D,
 * and nothing after D leaks in: what the after-close job writes on D, and what a backtest needs.
 *
 * Between two ex-dates the adjustment does not change, so the series are computed once per such
 * stretch, not once per day: a month of rows costs about what one row costs.
 */
import { addDays } from './dates'
import { dateNum, numDate } from './date-num'
import { factors, roundPrice } from './adjust'
import { TECHNICAL_COLUMNS, type NumericColumn } from './indicators/columns'
import type { DailyBars } from './indicators/bars'
import { roundTo, technicalSeries } from './indicators/row'
import { stateThrough } from './indicators/step'
import type { StepState } from './indicators/step-state'

/** What the rows need of a stored history (src/store/history.ts): raw bars as columns and the actions. */
export interface RawDaily {
  /** Dates as YYYYMMDD numbers, ascending. */
  t: readonly number[]
  o: readonly number[]
  h: readonly number[]
  l: readonly number[]
  c: readonly number[]
  /** Shares. */
  vol: readonly number[]
  /** CNY; null where the upstream had none. */
  amt: ReadonlyArray<number | null>
  /** [ex-date, cash per share, bonus shares per share], ascending. */
  act: ReadonlyArray<readonly [string, number, number]>
}

/** The technical columns that are numbers (everything after code, name, date), in table order. */
export const TECHNICAL_VALUE_COLUMNS: readonly NumericColumn[] = TECHNICAL_COLUMNS.filter(([, kind]) => kind !== 'id').map(([name]) => name as NumericColumn)

/** The day's own factors, beside the technical columns (names as in src/data/factors.ts). */
const DAY_FACTOR_COLUMNS = [
  'ChangePCT', 'Amplitude', 'Change5D', 'Change20D', 'Change60D', 'Volume', 'Amount', 'VolumeRatio', 'DividendPerShare', 'DividendYield',
  // 1 when the day's (adjusted) high is the highest of the last 250 sessions, 0 if not, null with fewer bars; likewise the low.
  'NewHigh250', 'NewLow250',
] as const

/** Every value a stock-day row carries, in order. */
export const STOCK_DAY_COLUMNS: readonly string[] = [...TECHNICAL_VALUE_COLUMNS, ...DAY_FACTOR_COLUMNS]

export interface StockDay {
  date: string
  /** One value per {@link STOCK_DAY_COLUMNS}, null where undefined. */
  values: Array<number | null>
}

const finite = (v: number, places: number) => (Number.isFinite(v) ? roundTo(v, places) : null)
const PRICE_COLUMNS = new Set(TECHNICAL_COLUMNS.filter(([, kind]) => kind === 'price').map(([name]) => name))

/** Rows for the bars with index in [from, to] (inclusive), each as of its own date. */
export function stockDays(x: RawDaily, from: number, to: number, priceDecimals = 2): StockDay[] {
  const out: StockDay[] = []
  let start = Math.max(0, from)
  const last = Math.min(to, x.t.length - 1)
  while (start <= last) {
    // The stretch of days whose adjustment is the same: up to the day before the next ex-date.
    const nextEx = x.act.map(([d]) => dateNum(d)).find((e) => e > x.t[start])
    let end = start
    while (end < last && (nextEx === undefined || x.t[end + 1] < nextEx)) end++
    pushStretch(x, start, end, priceDecimals, out)
    start = end + 1
  }
  return out
}

/** 1 when `col[i]` is the extreme of the 250 values ending at i, 0 when not, null before 250 values. */
function extreme(col: Float64Array, i: number, pick: (...xs: number[]) => number): number | null {
  if (i < 249) return null
  return pick(...col.subarray(i - 249, i + 1)) === col[i] ? 1 : 0
}

/** The bars 0..to forward-adjusted to bar `to` with the actions that had happened by then. */
function qfqBarsThrough(x: RawDaily, to: number): DailyBars {
  const n = to + 1
  const t = x.t.slice(0, n)
  const f = factors({ t, c: x.c.slice(0, n), act: x.act }, 'qfq')
  const adj = (col: readonly number[]) => Float64Array.from({ length: n }, (_, i) => roundPrice(col[i] * f[i]))
  return { dates: t.map(numDate), open: adj(x.o), high: adj(x.h), low: adj(x.l), close: adj(x.c), volume: Float64Array.from(x.vol.slice(0, n)) }
}

/**
 * The indicator state after bar `to` (src/domain/indicators/step.ts), over the same bars as that
 * day's row: stepping it with the next session's bar gives the next row, unless that session is an
 * ex-date (the bars would need adjusting again).
 */
export function stepStateThrough(x: RawDaily, to: number): StepState {
  const b = qfqBarsThrough(x, to)
  return stateThrough(b.dates.map((date, i) => ({ date, open: b.open[i], high: b.high[i], low: b.low[i], close: b.close[i], volume: b.volume[i] })))
}

function pushStretch(x: RawDaily, from: number, to: number, decimals: number, out: StockDay[]): void {
  const bars = qfqBarsThrough(x, to)
  const series = technicalSeries(bars)
  const q = bars.close
  const change = (i: number, back: number) => (i >= back ? ((q[i] / q[i - back]) - 1) * 100 : NaN)
  for (let i = from; i <= to; i++) {
    const values: Array<number | null> = TECHNICAL_VALUE_COLUMNS.map((col) => finite(series[col][i], PRICE_COLUMNS.has(col) ? decimals : 4))
    const date = bars.dates[i]
    let volBefore = 0
    for (let k = i - 5; k < i; k++) volBefore += k >= 0 ? x.vol[k] : NaN
    const yearAgo = addDays(date, -365)
    const dps = x.act.reduce((s, [ex, cash]) => (ex > yearAgo && ex <= date ? s + cash : s), 0)
    values.push(
      finite(change(i, 1), 4),
      finite(i >= 1 ? ((bars.high[i] - bars.low[i]) / q[i - 1]) * 100 : NaN, 4),
      finite(change(i, 5), 4),
      finite(change(i, 20), 4),
      finite(change(i, 60), 4),
      x.vol[i],
      x.amt[i] ?? null,
      finite(volBefore > 0 ? x.vol[i] / (volBefore / 5) : NaN, 4),
      roundTo(dps, 4),
      finite((dps / x.c[i]) * 100, 4),
      extreme(bars.high, i, Math.max),
      extreme(bars.low, i, Math.min)
    )
    out.push({ date, values })
  }
}

import type { Series } from './series'

/** Daily bars as columns, oldest first: what every indicator reads. Volume in shares. */
export interface Ohlcv {
  open: Series
  high: Series
  low: Series
  close: Series
  volume: Series
}

/** Bars with their dates, as {@link technicalRow} takes them. */
export interface DailyBars extends Ohlcv {
  /** `YYYY-MM-DD` of each bar, ascending. */
  dates: readonly string[]
}

/** Columns of plain bar objects (`close` the close, `volume` in shares), oldest first. */
export function toColumns(bars: ReadonlyArray<{ date: string; open: number; high: number; low: number; close: number; volume: number }>): DailyBars {
  const n = bars.length
  const out: DailyBars = { dates: bars.map((b) => b.date), open: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n), volume: new Float64Array(n) }
  for (let i = 0; i < n; i++) {
    const b = bars[i]
    out.open[i] = b.open
    out.high[i] = b.high
    out.low[i] = b.low
    out.close[i] = b.close
    out.volume[i] = b.volume
  }
  return out
}

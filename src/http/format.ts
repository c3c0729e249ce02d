import type { Bar } from '../domain/bar'
import type { InstrumentKind } from '../domain/instrument'

/** Price decimals as each market quotes them. */
export const PRICE_DECIMALS: Record<InstrumentKind, number> = {
  stock: 2, index: 2, sector: 2, us: 2, 'us-index': 2, future: 2,
  etf: 3, bond: 3, hk: 3,
  forex: 4,
}

/** The K-line row of /v1/quote and /v1/kline: 8 columns, all strings; empty string where the channel has no value. */
export interface BarRow {
  date: string
  open: string
  last: string
  high: string
  low: string
  volume: string
  amount: string
  turnover: string
}

/** The columns of a {@link BarRow}, in the order the rows carry them. */
export const BAR_ROW_COLUMNS: readonly (keyof BarRow)[] = ['date', 'open', 'last', 'high', 'low', 'volume', 'amount', 'turnover']

/** Turns a domain bar into the 8-string row of /v1/kline and /v1/quote. */
export function toBarRow(b: Bar, kind: InstrumentKind): BarRow {
  const d = PRICE_DECIMALS[kind]
  return {
    date: b.date,
    open: b.open.toFixed(d),
    last: b.close.toFixed(d),
    high: b.high.toFixed(d),
    low: b.low.toFixed(d),
    volume: String(Math.round(b.volume)),
    amount: b.amount === null ? '' : b.amount.toFixed(2),
    turnover: b.turnover === null ? '' : b.turnover.toFixed(2),
  }
}

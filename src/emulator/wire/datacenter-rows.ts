/**
 * The shape every Eastmoney datacenter report of the emulator shares: a row of cells, the filter's
 * predicates, and a report as a function of the market and the clock (eastmoney-datacenter.ts
 * serves them; one module per family builds them).
 */
import type { MarketModel } from '../market/types'

export type Cell = string | number | null
export type Row = Record<string, Cell>

/** One `(COLUMN op value)` predicate of `filter`. */
export interface Predicate {
  column: string
  op: '=' | '!=' | '>=' | '<=' | '>' | '<'
  value: string
}

/** A report: its rows at `now`; `filter` may narrow the candidates before predicates apply. */
export type Report = (market: MarketModel, now: number, filter: readonly Predicate[]) => Row[]

/** The financial period an ex-date's distribution belongs to: interim after August, else the last annual (Q1 ex-dates: last Q3). */
export function reportDate(exDate: string): string {
  const y = Number(exDate.slice(0, 4))
  const m = Number(exDate.slice(5, 7))
  if (m >= 9) return `${y}-06-30`
  return m >= 4 ? `${y - 1}-12-31` : `${y - 1}-09-30`
}

/**
 * Where the history jobs get their data: the whole-market list, per-stock raw daily bars and the
 * corporate actions. An interface so the jobs can be tested against a fake and so production and
 * the emulator share one wiring ({@link channelSource} in eastmoney-source.ts).
 */
import type { Bar } from '../domain/bar'
import type { PeriodFigures } from '../domain/fundamental-factors'
import type { Instrument } from '../domain/instrument'
import { parseSymbol } from '../domain/symbols'

/** One stock's line of the whole-market snapshot (the fields the jobs use). */
export interface SnapshotRow {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  /** Short name, when the list carries it. */
  name?: string
  /** Trade date the prices belong to. */
  date: string
  open: number
  high: number
  low: number
  close: number
  /** Shares. */
  volume: number
  /** CNY. */
  amount: number
  /** Suspended; its prices are not a bar. */
  halted: boolean
  /** The row carries trades of its session (`date`): only then is it a bar. */
  traded: boolean
  /** Total and float shares, listing date `YYYY-MM-DD`, when the list carries them. */
  totalShares?: number | null
  floatShares?: number | null
  listDate?: string | null
  /** Turnover rate in percent of float shares (null when halted or absent). */
  turnover?: number | null
}

/** A corporate action of one stock. */
export interface SourceAction {
  code: string
  exDate: string
  /** CNY per share. */
  cash: number
  /** Bonus and transfer shares per share (10送5 → 0.5). */
  bonus: number
}

export interface HistorySource {
  /** Every A-share stock's quote for the current (or last) session; throws unless complete. */
  snapshot(): Promise<SnapshotRow[]>
  /** Unadjusted day bars in [from, to], oldest first. */
  rawDaily(inst: Instrument, from: string, to: string): Promise<Bar[]>
  /** Corporate actions of one stock, or of every stock going ex on one date; ascending. */
  actions(q: { code: string } | { exDate: string }): Promise<SourceAction[]>
  /**
   * Every stock's statements of one report period (`YYYY-MM-DD` quarter end), by code, with
   * their notice dates; the balance-sheet lines only when `balance` (else null). Throws unless
   * complete.
   */
  statements(period: string, balance: boolean): Promise<Map<string, PeriodFigures>>
}

/** True for an A-share stock code (the market list and the store hold nothing else). */
export function isStockCode(code: string): boolean {
  try {
    return parseSymbol(code).kind === 'stock'
  } catch {
    return false
  }
}

/**
 * Daily price limits (涨跌停) of A-share stocks by board, as the exchanges publish them: the
 * previous close times 1 ± the fraction, rounded to the cent. Risk-warning (ST, *ST) stocks on the
 * SH and SZ main boards move at most 5%; on STAR, ChiNext and BSE the board's limit applies to
 * them too. Data, reviewed like code; the emulator keeps its own copy (src/emulator/market/limits.ts).
 */
import type { Board } from '../domain/instrument'

export interface BoardLimit {
  /** Limit as a fraction of the previous close. */
  normal: number
  /** Limit of a risk-warning (ST) stock on this board. */
  riskWarning: number
}

export const PRICE_LIMITS: Record<Board, BoardLimit> = {
  'sh-main': { normal: 0.1, riskWarning: 0.05 },
  'sz-main': { normal: 0.1, riskWarning: 0.05 },
  star: { normal: 0.2, riskWarning: 0.2 },
  chinext: { normal: 0.2, riskWarning: 0.2 },
  bj: { normal: 0.3, riskWarning: 0.3 },
}

/** A risk-warning name: `ST…`, `*ST…` (and the old `S*ST…`, `SST…` forms). */
export const RISK_WARNING_NAME = /^(S\*?|\*)?ST/i

/**
 * Limit prices of one A-share stock for one session, from the board rule table in
 * src/data/price-limits.ts: what counts as "at limit-up" in /v1/changedist.
 */
import { PRICE_LIMITS, RISK_WARNING_NAME } from '../data/price-limits'
import type { Board } from './instrument'
import { parseSymbol } from './symbols'

/** The limit fraction for a stock of `board` named `name` (ST names get the board's risk-warning limit). */
export function limitFraction(board: Board, name: string): number {
  const rule = PRICE_LIMITS[board]
  return RISK_WARNING_NAME.test(name.trim()) ? rule.riskWarning : rule.normal
}

/** Half-up rounding to the cent; the epsilon absorbs binary noise (10.05 × 1.1 = 11.055000000000001 or 11.054999…). */
const cents = (x: number) => Math.round(x * 100 + 1e-6) / 100

/** `{ down, up }`: the session's limit prices in CNY for a previous close. */
export function limitPrices(preClose: number, fraction: number): { down: number; up: number } {
  return { down: cents(preClose * (1 - fraction)), up: cents(preClose * (1 + fraction)) }
}

/** The board of an A-share stock code (`sh600519` → sh-main); undefined for anything else. */
export function boardOfCode(code: string): Board | undefined {
  try {
    return parseSymbol(code).board
  } catch {
    return undefined
  }
}

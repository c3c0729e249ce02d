/**
 * Futures code facts shared by channels and routes. A code is `fu` plus product plus either a
 * contract month (`fuRB2501`) or `0`: the main continuous contract (`fuRB0`), as Sina names it
 * (`nf_RB0`, `getDailyKLine?symbol=RB0`). The main contract is the exchange-listed month with the
 * largest open interest; its continuous series splices that contract's bars at each roll, unadjusted.
 */
import type { Instrument } from './instrument'

const MAIN = /^([A-Z]{1,2})0$/

/** The product letters of a futures symbol (`RB2501` → `RB`, `RB0` → `RB`); undefined if none. */
export function futuresProduct(symbol: string): string | undefined {
  return /^[A-Za-z]{1,2}/.exec(symbol)?.[0].toUpperCase()
}

/** True for a main continuous contract (`fuRB0`). */
export const isMainContract = (i: Instrument): boolean => i.kind === 'future' && MAIN.test(i.symbol)

/**
 * Today's rows of A-share stocks, for /v1/technical-batch with a blank `date` during a session and
 * for /v1/technical (stepped-row.ts, with its quote's session as today): each stock's indicator
 * state after the previous session (written beside that session's table, src/store/technicals-state.ts)
 * stepped with its live quote as today's bar, in constant time per symbol
 * (src/domain/indicators/step.ts). What a quote says decides each stock's row:
 *
 * - traded today, previous close = the state's last close: the stepped row, `date` today, `as_of`
 *   the quote's time; the same row /v1/technical computes over the whole history;
 * - not traded today (suspended, or before the open): the previous session's row from its table,
 *   with that date: it is the stock's latest row, not a stale one;
 * - previous close ≠ the state's last close (an ex-date today: every earlier price must be adjusted
 *   again), or no state (a new listing, a damaged line): computed from the whole history, as
 *   /v1/technical does;
 * - no quote at all (no channel answered for it): an error item, as today's row cannot be known.
 */
import type { Quote } from '../../domain/bar'
import type { RowIdentity } from '../../domain/indicators/row'
import type { StepBar } from '../../domain/indicators/step'
import type { StepState } from '../../domain/indicators/step-state'
import { quoteAsOf } from '../../domain/instant'
import type { Instrument } from '../../domain/instrument'
import { isTradingDay, previousTradingDay } from '../../domain/trading-calendar'
import { PRICE_DECIMALS } from '../../http/format'

export type LiveOutcome =
  /** Today's row is the bar after `state`: nextRow(state, bar, id) (the batch writes it as bytes, src/features/technical/item-bytes.ts). */
  | { kind: 'row'; state: StepState; bar: StepBar; id: RowIdentity; asOf: string }
  | { kind: 'previous' }
  | { kind: 'full' }
  | { kind: 'error'; error: string }

/**
 * Whether a blank-date batch on `today` is answered live: today is a session whose table is not
 * built yet and the latest table is the session just before (a state older than that would step
 * over a missing day; then the table's rows are served with their date, as before).
 */
export const answersLive = (today: string, latestTable: string | undefined): latestTable is string =>
  latestTable !== undefined && isTradingDay(today) && latestTable === previousTradingDay(today)

/**
 * What `inst` gets today from its quote (if any) and its state after the previous session (if any).
 * `previous` is the session before `today` (a batch works it out once, not once per symbol).
 */
export function liveOutcome(inst: Instrument, today: string, quote: Quote | undefined, state: StepState | undefined, name: string | null, previous = previousTradingDay(today)): LiveOutcome {
  if (!quote) return { kind: 'error', error: `${inst.code}: no live quote (no quote channel answered for it), so today's row cannot be computed` }
  if (!quote.traded || quote.date !== today) return { kind: 'previous' }
  if (!state || state.date !== previous || state.c.at(-1) !== quote.preClose) return { kind: 'full' }
  const bar = { date: today, open: quote.open, high: quote.high, low: quote.low, close: quote.last, volume: quote.volume }
  const id = { code: inst.code, name: quote.name || name, priceDecimals: PRICE_DECIMALS[inst.kind] }
  return { kind: 'row', state, bar, id, asOf: quoteAsOf(inst.prefix, quote.date, quote.time) }
}

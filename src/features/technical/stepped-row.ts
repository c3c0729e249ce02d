/**
 * /v1/technical's row of an A-share stock stepped in constant time from the stock's indicator
 * state after the session before its quote's (stored beside that session's table,
 * src/store/state-shards.ts), when that is the row the whole history gives (bars.ts, then
 * technicalRow), byte for byte: the batch's decision (live-outcome.ts) with the quote's session
 * as `today`, and the check joinHistory makes before it uses a stored history. Anything else (no
 * state, a state of another session, an ex-date, a line without a trade in its session, recent
 * closes the channel and the store disagree on) is left to the whole history.
 *
 * The quote's session, not the clock's day: after the close, at night and over a weekend the
 * quote still carries its session's final bar, which is the bar the whole history ends with.
 */
import type { Bar, Quote } from '../../domain/bar'
import type { TechnicalRow } from '../../domain/indicators/columns'
import { nextRow } from '../../domain/indicators/step'
import type { StepState } from '../../domain/indicators/step-state'
import type { Instrument } from '../../domain/instrument'
import { previousTradingDay } from '../../domain/trading-calendar'
import { AGREE_WITHIN } from './bars'
import { liveOutcome } from './live-outcome'

/** A stepped row and how many daily bars it stands for (the whole history's count). */
export interface SteppedRow {
  row: TechnicalRow
  bars: number
}

/** The session whose stored state a quote of `quoteDate` is stepped from. */
export const stateSessionFor = (quoteDate: string): string => previousTradingDay(quoteDate)

/**
 * Whether the channel's recent bars (oldest first, the quote's live bar last) agree with the
 * stored history `state` was stepped through, as joinHistory requires before it joins them: the
 * bar before the live one is the state's last, and the closes before the live one match the
 * state's last closes, from the end, within {@link AGREE_WITHIN} (a channel whose days differ from
 * the store's fails this, and the whole history decides).
 */
export function recentAgrees(state: StepState, recent: readonly Bar[]): boolean {
  const past = recent.length - 1
  if (past < 1 || past > state.c.length || recent[past - 1].date !== state.date) return false
  for (let k = 1; k <= past; k++) if (Math.abs(state.c[state.c.length - k] - recent[past - k].close) > AGREE_WITHIN) return false
  return true
}

/**
 * The row of `inst` for its quote's session, stepped from `state` (the stored state of
 * {@link stateSessionFor} the quote's date, if any) with the quote as that session's bar; undefined
 * when only the whole history gives the row. `recent` is the series /v1/technical fetched: the
 * channel's recent day bars with the live one laid over them, and the quote.
 */
export function steppedRow(inst: Instrument, recent: { bars: readonly Bar[]; quote: Quote }, state: StepState | undefined): SteppedRow | undefined {
  const { bars, quote } = recent
  // The whole history ends with the quote's bar only when the channel's series does.
  if (bars.at(-1)?.date !== quote.date) return undefined
  const out = liveOutcome(inst, quote.date, quote, state, null, stateSessionFor(quote.date))
  if (out.kind !== 'row' || !recentAgrees(out.state, bars)) return undefined
  return { row: nextRow(out.state, out.bar, out.id), bars: out.state.i + 1 }
}

/**
 * The A-share market's phase as a stream reports it (`status` events of `GET /v1/stream`), and when
 * it next changes. Four phases, coarser than {@link marketPhase}: `auction` covers the opening call
 * auction and the minutes to the open (09:15–09:30, lines move), `session` continuous trading,
 * `lunch` the midday break, `closed` everything else (before 09:15, after 15:00, non-trading days).
 */
import { addDays, beijing } from './dates'
import { SESSION_MINUTES } from './market-phase'
import { isTradingDay, tradingDayOnOrAfter } from './trading-calendar'

export type StreamPhase = 'auction' | 'session' | 'lunch' | 'closed'

/** A trading day's phases from each boundary (Beijing minutes) to the next; `closed` before the first. */
const BOUNDARIES: ReadonlyArray<readonly [number, StreamPhase]> = [
  [SESSION_MINUTES.auction, 'auction'],
  [SESSION_MINUTES.open, 'session'],
  [SESSION_MINUTES.lunch[0], 'lunch'],
  [SESSION_MINUTES.lunch[1], 'session'],
  [SESSION_MINUTES.close, 'closed'],
]

/** Epoch ms of a Beijing date and minute. */
const atBeijing = (date: string, minute: number) => Date.parse(`${date}T00:00:00+08:00`) + minute * 60_000

/** The phase at `now` and the instant (epoch ms) it next changes. */
export function streamPhase(now: number): { phase: StreamPhase; nextChange: number } {
  const { date, minute } = beijing(now)
  if (isTradingDay(date)) {
    let phase: StreamPhase = 'closed'
    for (const [from, p] of BOUNDARIES) {
      if (minute < from) return { phase, nextChange: atBeijing(date, from) }
      phase = p
    }
  }
  return { phase: 'closed', nextChange: atBeijing(tradingDayOnOrAfter(addDays(date, 1)), BOUNDARIES[0][0]) }
}

/** The lines move (a shard polls) in these phases. */
export const isMoving = (p: StreamPhase): boolean => p === 'auction' || p === 'session'

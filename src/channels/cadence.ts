/**
 * How long a live quote line stays as fresh as the source can make it (docs/architecture.md,
 * "Polite at scale"). The exchanges publish Level-1 snapshots every 3 s and the quote hosts
 * refresh at that pace or slower, so within 3 s every caller of a symbol may share one answer.
 * Outside the A-share trading day nothing on an A-share line moves, so it is shared for a minute.
 */
import { beijing } from '../domain/dates'
import { isTradingDay } from '../domain/trading-calendar'

/** The exchanges' Level-1 snapshot interval. */
const SNAPSHOT_CADENCE_MS = 3_000
/** An A-share line outside the trading day: the last session's final state. */
const QUIET_CADENCE_MS = 60_000

/**
 * The A-share lines move from the pre-open reset (before 09:15) through the sessions and the
 * after-hours fixed-price trading and late re-stamps (Sina stamps some lines as late as 16:29).
 */
const MOVING = [9 * 60, 16 * 60 + 30] as const

/** The minute the last answer was for, and that answer: one Beijing clock read per minute. */
let memo = { minute: NaN, moving: false }

function aShareMoving(now: number): boolean {
  const minute = Math.floor(now / 60_000)
  if (minute !== memo.minute) {
    const b = beijing(now)
    memo = { minute, moving: isTradingDay(b.date) && b.minute >= MOVING[0] && b.minute < MOVING[1] }
  }
  return memo.moving
}

/**
 * The cadence of the live line of an upstream `code` at `now`: A-share codes (`sh`, `sz`, `bj`)
 * by the A-share day; every other market's (Hong Kong, US, futures) always the snapshot interval.
 */
export function quoteCadenceMs(code: string, now: number): number {
  const p = code.slice(0, 2).toLowerCase()
  if (p !== 'sh' && p !== 'sz' && p !== 'bj') return SNAPSHOT_CADENCE_MS
  return aShareMoving(now) ? SNAPSHOT_CADENCE_MS : QUIET_CADENCE_MS
}

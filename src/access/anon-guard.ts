import { DurableObject } from 'cloudflare:workers'
import { beijingDay, nextBeijingMidnight } from '../domain/beijing-day'
import type { CallerKind } from '../http/context'
import { GuardStore } from './guard-store'
import type { RateWindow } from './key-guard'
import { ANONYMOUS } from './tiers'

export interface AnonAdmitRequest {
  now: number
  kind: CallerKind
  /** Expiry (epoch ms) of a proof-of-work the worker just verified for this IP; null = none sent. */
  powUntil: number | null
  /** Rows to count with the call when it is admitted (an answer already in hand); 0 = count at settle. */
  rows: number
}

export type AnonRefusal = 'minute' | 'rows'

/** The minute window an admitted anonymous call was counted in (for a refund) and its day (for rows). */
export interface AnonReservation {
  win: number
  day: string
  /** Rows already counted at admission. */
  rows: number
}

export type AnonAdmitResult =
  | { ok: true; reservation: AnonReservation; window: RateWindow; pow: boolean }
  | { ok: false; reason: AnonRefusal; window: RateWindow; retryAfter: number; detail: string; pow: boolean }

/**
 * Per-IP admission state for anonymous callers (one object per client IP, SQLite-backed): the
 * minute window (2 for scripts, 5 for browsers, 60 while a solved proof-of-work is valid) and the
 * rows served today (100,000 cap). No method awaits, so calls cannot interleave: exact under
 * concurrency. Counters live in memory and are written behind (GuardStore).
 */
export class AnonGuard extends DurableObject<Env> {
  private readonly store: GuardStore

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.store = new GuardStore(ctx.storage)
  }

  admit(req: AnonAdmitRequest): AnonAdmitResult {
    const { store } = this
    const { counters } = store
    store.observe(req.now)
    if (req.powUntil !== null && req.powUntil > req.now) counters.raise('pow', req.powUntil)
    const pow = counters.get('pow') > req.now
    const limit = pow ? ANONYMOUS.perMinuteWithPow : req.kind === 'browser' ? ANONYMOUS.perMinuteBrowser : ANONYMOUS.perMinuteScript
    const used = store.minuteCount(req.now)
    const window = store.window(req.now, limit, used)

    const rows = counters.get(rowsKey(beijingDay(req.now)))
    if (rows >= ANONYMOUS.rowsPerDay) {
      const retryAfter = Math.ceil((nextBeijingMidnight(req.now) - req.now) / 1000)
      return { ok: false, reason: 'rows', window, retryAfter, pow, detail: `anonymous daily cap of ${ANONYMOUS.rowsPerDay} rows reached; it resets at midnight Beijing time, or use an API key` }
    }
    if (used >= limit) {
      const detail = pow
        ? `anonymous limit of ${limit} calls a minute (with proof-of-work) reached`
        : `anonymous limit of ${limit} calls a minute for ${req.kind === 'browser' ? 'browsers' : 'scripts'} reached; solve the challenge in this body for ${ANONYMOUS.perMinuteWithPow}, or use an API key`
      return { ok: false, reason: 'minute', window, retryAfter: window.resetSeconds, pow, detail }
    }
    store.bumpMinute(req.now, 1)
    const day = beijingDay(req.now)
    if (req.rows > 0) counters.add(rowsKey(day), req.rows)
    store.ensureAlarm(() => nextBeijingMidnight(Date.now()))
    const reservation = { win: store.windowOf(req.now), day, rows: req.rows }
    return { ok: true, reservation, window: { ...window, remaining: Math.max(0, window.remaining - 1) }, pow }
  }

  /**
   * Ends a reservation: ok:false is refunded (the minute slot and any rows counted at admission);
   * ok brings today's rows to what was served.
   */
  settle(r: AnonReservation, ok: boolean, rows: number): void {
    if (!ok) this.store.bumpMinuteWindow(r.win, -1)
    const delta = (ok ? rows : 0) - r.rows
    if (delta !== 0) this.store.counters.add(rowsKey(r.day), delta)
  }

  /** Rows served today, for tests and diagnostics. */
  rowsToday(now: number): number {
    return this.store.counters.get(rowsKey(beijingDay(now)))
  }

  /** Sets today's row count (tests of the daily cap). */
  setRowsToday(now: number, rows: number): void {
    this.store.counters.set(rowsKey(beijingDay(now)), rows)
  }

  /** Daily reset: drops past days' rows, an expired proof and old windows. Idempotent. */
  override async alarm(): Promise<void> {
    const { store } = this
    const now = store.latestNow()
    store.counters.deleteBefore('rows:', beijingDay(now))
    if (store.counters.get('pow') < now) store.counters.set('pow', 0)
    store.pruneMinutes(now)
    store.counters.flush()
    store.alarmFired()
    // No re-arm here: the next admitted call arms the next reset, so idle objects stay asleep.
  }
}

const rowsKey = (day: string) => `rows:${day}`

import { DurableObject } from 'cloudflare:workers'
import { beijingDay, nextBeijingMidnight } from '../domain/beijing-day'
import type { CallerKind } from '../http/context'
import { leaseSize } from './anon-lease'
import { GuardStore } from './guard-store'
import type { RateWindow } from './rate-window'
import { ANONYMOUS } from './tiers'

export interface AnonAdmitRequest {
  now: number
  /** The caller's canonical IP: the shard keeps one set of counters per address. */
  ip: string
  kind: CallerKind
  /** Expiry (epoch ms) of a proof-of-work the worker just verified for this IP; null = none sent. */
  powUntil: number | null
  /** Rows to count with the call when it is admitted (an answer already in hand); 0 = count at settle. */
  rows: number
  /** Further calls of the same answer to lease to the asking isolate (src/access/anon-lease.ts); only with a proof and known rows. */
  lease?: number
  /** What a lease the isolate held for this address left unused: given back before this call is counted. */
  returned?: { win: number; calls: number; day: string; rows: number }
}

type AnonRefusal = 'minute' | 'rows'

/** The minute window an admitted anonymous call was counted in (for a refund) and its day (for rows). */
export interface AnonReservation {
  ip: string
  win: number
  day: string
  /** Rows already counted at admission. */
  rows: number
}

export type AnonAdmitResult =
  | { ok: true; reservation: AnonReservation; window: RateWindow; pow: boolean; leased: { calls: number; rows: number; powUntil: number; guardRemaining: number } | null }
  | { ok: false; reason: AnonRefusal; window: RateWindow; retryAfter: number; detail: string; pow: boolean }

/**
 * How many AnonGuard objects share the anonymous callers. Each IP always maps to the same shard,
 * so its limits stay exact (one object serialises all of that address's calls); a new address
 * lands in an object that already exists instead of creating its own (creating one costs about
 * 14 ms locally, a first call from a new address about a fifth of a bare route's throughput).
 * 64 objects spread the public's load while each stays warm; see docs/access.md.
 */
const ANON_SHARDS = 64

/** The shard of an address: FNV-1a over its canonical text, so the mapping is stable across isolates and deploys. */
export function anonShardOf(ip: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < ip.length; i++) {
    h ^= ip.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return `anon-shard:${(h >>> 0) % ANON_SHARDS}`
}

/**
 * Admission state for the anonymous callers of one shard (SQLite-backed): per IP, the minute window
 * (2 for scripts, 5 for browsers, 60 while a solved proof-of-work is valid) and the rows served today
 * (100,000 cap). No method awaits, so calls cannot interleave: exact under concurrency. Counters
 * live in memory and are written behind (GuardStore); an address idle for a minute leaves memory.
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
    if (store.observe(req.now)) counters.forget((k) => k.startsWith('rows:') || k.startsWith('pow:'))
    const day = beijingDay(req.now)
    if (req.returned) this.giveBack(req.ip, req.now, day, req.returned)
    const powKey = `pow:${req.ip}`
    if (req.powUntil !== null && req.powUntil > req.now) counters.raise(powKey, req.powUntil)
    const pow = counters.get(powKey) > req.now
    const limit = pow ? ANONYMOUS.perMinuteWithPow : req.kind === 'browser' ? ANONYMOUS.perMinuteBrowser : ANONYMOUS.perMinuteScript
    const used = store.minuteCount(req.now, req.ip)
    const window = store.window(req.now, limit, used)

    const rows = counters.get(rowsKey(day, req.ip))
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
    // A lease is counted now, calls and rows alike: the limits hold whoever admits the calls later.
    const leased = pow && req.lease ? leaseSize(limit - used - 1, ANONYMOUS.rowsPerDay - rows - req.rows, req.rows, req.lease) : 0
    store.bumpMinute(req.now, 1 + leased, req.ip)
    if (req.rows > 0) counters.add(rowsKey(day, req.ip), req.rows * (1 + leased))
    store.ensureAlarm(() => nextBeijingMidnight(Date.now()))
    const reservation = { ip: req.ip, win: store.windowOf(req.now), day, rows: req.rows }
    const remaining = Math.max(0, window.remaining - 1)
    const lease = leased > 0 ? { calls: leased, rows: leased * req.rows, powUntil: counters.get(powKey), guardRemaining: remaining - leased } : null
    return { ok: true, reservation, window: { ...window, remaining }, pow, leased: lease }
  }

  /** Takes back what an isolate's lease left unused: calls while their minute lasts, rows while their day does. */
  private giveBack(ip: string, now: number, day: string, r: NonNullable<AnonAdmitRequest['returned']>): void {
    this.store.giveBackCalls(now, r.win, r.calls, ip)
    const rows = r.day === day ? Math.min(r.rows, this.store.counters.get(rowsKey(day, ip))) : 0
    if (rows > 0) this.store.counters.add(rowsKey(day, ip), -rows)
  }

  /**
   * Ends a reservation: ok:false is refunded (the minute slot and any rows counted at admission);
   * ok brings today's rows to what was served.
   */
  settle(r: AnonReservation, ok: boolean, rows: number): void {
    if (!ok) this.store.bumpMinuteWindow(r.win, -1, r.ip)
    const delta = (ok ? rows : 0) - r.rows
    if (delta !== 0) this.store.counters.add(rowsKey(r.day, r.ip), delta)
  }

  /** Rows an address was served today, for tests and diagnostics. */
  rowsToday(ip: string, now: number): number {
    return this.store.counters.get(rowsKey(beijingDay(now), ip))
  }

  /** Sets an address's row count for today (tests of the daily cap). */
  setRowsToday(ip: string, now: number, rows: number): void {
    this.store.counters.set(rowsKey(beijingDay(now), ip), rows)
  }

  /** Daily reset: drops past days' rows, expired proofs and old windows. Idempotent. */
  override async alarm(): Promise<void> {
    const { store } = this
    const now = store.latestNow()
    store.counters.deleteBefore('rows:', beijingDay(now))
    for (const [k, until] of store.counters.entries('pow:')) if (until < now) store.counters.set(k, 0)
    store.pruneMinutes(now)
    store.counters.flush()
    store.alarmFired()
    // No re-arm here: the next admitted call arms the next reset, so idle objects stay asleep.
  }
}

/** Day first, so past days of every address go in one range. */
const rowsKey = (day: string, ip: string) => `rows:${day}:${ip}`

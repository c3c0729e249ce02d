import { DurableObject } from 'cloudflare:workers'
import { beijingDay, nextBeijingMidnight } from '../domain/beijing-day'
import { addDays } from '../domain/dates'
import { GuardStore } from './guard-store'

export interface KeyAdmitRequest {
  /** Service clock, epoch ms (the emulator's clock offline). */
  now: number
  /** Caller's address, canonical form. */
  ip: string
  endpoint: string
  units: number
  heavy: boolean
  perMinute: number
  heavyPerDay: number
  /** Lifetime unit cap of a buyout pack; null = none. */
  packUnits: number | null
}

/** The minute window after this call, for the X-RateLimit-* headers. */
export interface RateWindow {
  limit: number
  remaining: number
  resetSeconds: number
}

export type KeyRefusal = 'ip' | 'minute' | 'heavy' | 'pack'

/**
 * What a refund needs to undo an admitted call. Handed back to the worker instead of stored, so an
 * admitted call costs one Durable Object request; `settle` is called only to refund or re-bill.
 */
export interface KeyReservation {
  win: number
  day: string
  endpoint: string
  units: number
  heavy: boolean
}

export type KeyAdmitResult =
  | { ok: true; reservation: KeyReservation; window: RateWindow }
  | { ok: false; reason: KeyRefusal; window: RateWindow; retryAfter?: number; detail: string }

export interface UsageReport {
  day: string
  endpoints: Record<string, { units: number; calls: number }>
  units_today: number
  minute: RateWindow
  heavy: { limit: number; used: number; left: number }
  pack: { cap: number; used: number; left: number } | null
}

/** The allow-list holds at most this many addresses (SPEC). */
export const ALLOW_LIST_MAX = 50

/**
 * Per-key admission state (one object per key hash, SQLite-backed): the minute window, usage units
 * per day and endpoint, heavy calls per day, lifetime units (buyout packs) and the IP allow-list.
 * Every method runs its SQL synchronously, so the object's input gate serialises calls: N parallel
 * calls against a limit L admit exactly L. `admit` returns a reservation; `settle` refunds it when
 * the call ended ok:false.
 */
export class KeyGuard extends DurableObject<Env> {
  private readonly store: GuardStore

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.store = new GuardStore(ctx.storage.sql)
    this.store.migrate([
      'CREATE TABLE IF NOT EXISTS usage (day TEXT NOT NULL, endpoint TEXT NOT NULL, units INTEGER NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (day, endpoint))',
      'CREATE TABLE IF NOT EXISTS heavy (day TEXT PRIMARY KEY, n INTEGER NOT NULL)',
      'CREATE TABLE IF NOT EXISTS lifetime (id INTEGER PRIMARY KEY CHECK (id = 1), units INTEGER NOT NULL)',
      'CREATE TABLE IF NOT EXISTS allowlist (ip TEXT PRIMARY KEY)',
    ])
  }

  admit(req: KeyAdmitRequest): KeyAdmitResult {
    const { store } = this
    store.observe(req.now)
    const day = beijingDay(req.now)
    const used = store.minuteCount(req.now)
    const window = store.window(req.now, req.perMinute, used)

    const list = this.allowList()
    if (list.length > 0 && !list.includes(req.ip)) {
      return { ok: false, reason: 'ip', window, detail: `this key is restricted to its IP allow-list and ${req.ip} is not on it` }
    }
    if (used >= req.perMinute) {
      return { ok: false, reason: 'minute', window, retryAfter: window.resetSeconds, detail: `per-minute limit of ${req.perMinute} calls reached` }
    }
    if (req.heavy) {
      const heavyUsed = store.one<number>('SELECT n FROM heavy WHERE day = ?', day) ?? 0
      if (heavyUsed >= req.heavyPerDay) {
        const retryAfter = Math.ceil((nextBeijingMidnight(req.now) - req.now) / 1000)
        return { ok: false, reason: 'heavy', window, retryAfter, detail: `daily heavy-call quota of ${req.heavyPerDay} used up; it resets at midnight Beijing time` }
      }
    }
    if (req.packUnits !== null) {
      const spent = this.lifetimeUnits()
      if (spent + req.units > req.packUnits) {
        return { ok: false, reason: 'pack', window, detail: `buyout pack exhausted: ${spent} of ${req.packUnits} units used, this call needs ${req.units}` }
      }
    }

    store.bumpMinute(req.now, 1)
    store.sql.exec(
      'INSERT INTO usage (day, endpoint, units, calls) VALUES (?, ?, ?, 1) ON CONFLICT (day, endpoint) DO UPDATE SET units = units + excluded.units, calls = calls + 1',
      day, req.endpoint, req.units
    )
    if (req.heavy) store.sql.exec('INSERT INTO heavy (day, n) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET n = n + 1', day)
    store.sql.exec('INSERT INTO lifetime (id, units) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET units = units + excluded.units', req.units)
    store.ensureAlarm(this.ctx.storage, () => nextBeijingMidnight(Date.now()))
    const reservation: KeyReservation = { win: store.windowOf(req.now), day, endpoint: req.endpoint, units: req.units, heavy: req.heavy }
    return { ok: true, reservation, window: { ...window, remaining: Math.max(0, window.remaining - 1) } }
  }

  /**
   * Ends a reservation: a call that ended ok:false is refunded entirely (minute slot, units, heavy
   * call, pack units); a call billed by what it returned (`units`) is corrected to that amount.
   * The worker settles each reservation at most once, and only when there is something to change.
   */
  settle(r: KeyReservation, ok: boolean, units?: number): void {
    const { store } = this
    const delta = ok ? (units ?? r.units) - r.units : -r.units
    if (!ok) {
      store.bumpMinuteWindow(r.win, -1)
      if (r.heavy) store.sql.exec('UPDATE heavy SET n = MAX(0, n - 1) WHERE day = ?', r.day)
    }
    if (delta !== 0 || !ok) {
      store.sql.exec('UPDATE usage SET units = MAX(0, units + ?), calls = MAX(0, calls - ?) WHERE day = ? AND endpoint = ?', delta, ok ? 0 : 1, r.day, r.endpoint)
      store.sql.exec('UPDATE lifetime SET units = MAX(0, units + ?) WHERE id = 1', delta)
    }
  }

  usage(req: { now: number; perMinute: number; heavyPerDay: number; packUnits: number | null }): UsageReport {
    const { store } = this
    const day = beijingDay(req.now)
    const endpoints: UsageReport['endpoints'] = {}
    let unitsToday = 0
    for (const r of store.sql.exec<{ endpoint: string; units: number; calls: number }>('SELECT endpoint, units, calls FROM usage WHERE day = ? AND (units > 0 OR calls > 0) ORDER BY endpoint', day)) {
      endpoints[r.endpoint] = { units: r.units, calls: r.calls }
      unitsToday += r.units
    }
    const heavyUsed = store.one<number>('SELECT n FROM heavy WHERE day = ?', day) ?? 0
    const spent = this.lifetimeUnits()
    return {
      day,
      endpoints,
      units_today: unitsToday,
      minute: store.window(req.now, req.perMinute, store.minuteCount(req.now)),
      heavy: { limit: req.heavyPerDay, used: heavyUsed, left: Math.max(0, req.heavyPerDay - heavyUsed) },
      pack: req.packUnits === null ? null : { cap: req.packUnits, used: spent, left: Math.max(0, req.packUnits - spent) },
    }
  }

  allowList(): string[] {
    return this.store.sql.exec<{ ip: string }>('SELECT ip FROM allowlist ORDER BY ip').toArray().map((r) => r.ip)
  }

  /** Replaces the allow-list (addresses already canonical and at most {@link ALLOW_LIST_MAX}). */
  replaceAllowList(ips: string[]): string[] {
    if (ips.length > ALLOW_LIST_MAX) throw new RangeError(`at most ${ALLOW_LIST_MAX} addresses`)
    this.store.sql.exec('DELETE FROM allowlist')
    for (const ip of new Set(ips)) this.store.sql.exec('INSERT INTO allowlist (ip) VALUES (?)', ip)
    return this.allowList()
  }

  clearAllowList(): void {
    this.store.sql.exec('DELETE FROM allowlist')
  }

  /**
   * The daily reset: drops minute windows, heavy counters and stale reservations of past days and
   * keeps a week of usage. Idempotent (running it twice changes nothing more). "Today" follows the
   * latest service clock the object has seen, so it agrees with the emulator's clock offline.
   */
  override async alarm(): Promise<void> {
    const { store } = this
    const now = store.latestNow()
    const today = beijingDay(now)
    store.sql.exec('DELETE FROM heavy WHERE day < ?', today)
    store.sql.exec('DELETE FROM usage WHERE day < ?', addDays(today, -7))
    store.pruneMinutes(now)
    store.alarmFired()
    // No re-arm here: the next admitted call arms the next reset, so idle objects stay asleep.
  }

  private lifetimeUnits(): number {
    return this.store.one<number>('SELECT units FROM lifetime WHERE id = 1') ?? 0
  }

}

import { DurableObject } from 'cloudflare:workers'
import { beijingDay, nextBeijingMidnight } from '../domain/beijing-day'
import { addDays } from '../domain/dates'
import { GuardStore } from './guard-store'
import { leaseCalls } from './lease'
import type { RateWindow } from './rate-window'

/** Usage of calls an isolate admitted from a lease, reported afterwards (src/access/key-lease.ts). */
export interface UsageDelta {
  day: string
  endpoint: string
  units: number
  calls: number
}

/** What an isolate's leases hand back to the key's KeyGuard with its next request. */
export interface LeaseReport {
  /** Calls a lease left unused, with the minute window they were counted in. */
  returned?: { win: number; calls: number }
  /** Usage of the calls admitted from leases since the last report. */
  usage?: UsageDelta[]
}

export interface KeyAdmitRequest extends LeaseReport {
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
  /** Further calls to lease to the asking isolate beside this one (never for a pack). */
  lease?: number
}

/** Calls leased to an isolate with an admitted call, and what it needs to admit them itself. */
interface KeyGrant {
  calls: number
  /** What the minute had left for everyone else after the grant (for the rate headers). */
  guardRemaining: number
  /** The allow-list at grant time (empty: any address), which the isolate checks each call against. */
  allow: string[]
}

type KeyRefusal = 'ip' | 'minute' | 'heavy' | 'pack'

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
  | { ok: true; reservation: KeyReservation; window: RateWindow; leased: KeyGrant | null }
  | { ok: false; reason: KeyRefusal; window: RateWindow; retryAfter?: number; detail: string }

export interface UsageRequest extends LeaseReport {
  now: number
  perMinute: number
  heavyPerDay: number
  packUnits: number | null
}

export interface UsageReport {
  day: string
  endpoints: Record<string, { units: number; calls: number }>
  units_today: number
  minute: RateWindow
  heavy: { limit: number; used: number; left: number }
  pack: { cap: number; used: number; left: number } | null
  /** Push-quote connections open now (leases not lapsed) and minutes of streams started today. */
  stream: { open: number; minutes_today: number }
}

/** A stream connection's lease lapses this long after its last refresh (real time): a dead relay frees its slot. */
const STREAM_LEASE_MS = 90_000

/** Opening a stream connection: the service clock (usage day), its id and the tier's connection limit. */
export interface StreamOpenRequest {
  now: number
  id: string
  limit: number
}

/** A relay's minute: its lease refreshed, and `minutes` more started minutes recorded (one unit each). */
export interface StreamRefreshRequest {
  now: number
  id: string
  minutes: number
}

/** The allow-list holds at most this many addresses (docs/access.md, "Locking a key to IP addresses"). */
export const ALLOW_LIST_MAX = 50

/** Counter keys of a KeyGuard (see WriteBehindCounters). */
const K = {
  units: (day: string, endpoint: string) => `units:${day}:${endpoint}`,
  calls: (day: string, endpoint: string) => `calls:${day}:${endpoint}`,
  heavy: (day: string) => `heavy:${day}`,
  streamMinutes: (day: string) => `smin:${day}`,
  lifetime: 'lifetime',
}

/**
 * Per-key admission state (one object per key hash, SQLite-backed): the minute window, usage units
 * per day and endpoint, heavy calls per day, lifetime units (buyout packs) and the IP allow-list.
 * No method awaits, so the object's input gate serialises calls: N parallel calls against a limit
 * L admit exactly L. Counters live in memory and are written behind (GuardStore); the allow-list
 * is written through, since it changes rarely and must survive a restart. `admit` returns a
 * reservation; `settle` refunds it when the call ended ok:false. With an admitted call it may
 * lease further calls of the minute to the asking isolate (counted now, so leases never sum past
 * the limit), which reports their usage later and returns what it did not use (src/access/key-lease.ts).
 */
export class KeyGuard extends DurableObject<Env> {
  private readonly store: GuardStore
  /** The allow-list, read once per object lifetime. */
  private allow: string[] | null = null

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.store = new GuardStore(ctx.storage)
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS allowlist (ip TEXT PRIMARY KEY)')
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS streams (id TEXT PRIMARY KEY, expires INTEGER NOT NULL)')
  }

  /**
   * Opens a push-quote connection of the key (docs/access.md "Streams") when fewer than `limit`
   * leases are live, counting the first minute of stream usage (the opening call's unit is billed
   * by admission). Leases are written through, so a restart forgets none.
   */
  streamOpen(req: StreamOpenRequest): { ok: boolean; open: number } {
    const open = this.liveStreams()
    if (open >= req.limit) return { ok: false, open }
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO streams (id, expires) VALUES (?, ?)', req.id, Date.now() + STREAM_LEASE_MS)
    this.store.counters.add(K.streamMinutes(beijingDay(req.now)), 1)
    return { ok: true, open: open + 1 }
  }

  /** Refreshes a connection's lease and records its started minutes: a unit each, outside the minute limit. */
  streamRefresh(req: StreamRefreshRequest): void {
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO streams (id, expires) VALUES (?, ?)', req.id, Date.now() + STREAM_LEASE_MS)
    if (req.minutes > 0) {
      const day = beijingDay(req.now)
      this.store.counters.add(K.streamMinutes(day), req.minutes)
      this.count(day, 'stream', req.minutes, 0)
    }
  }

  streamClose(id: string): void {
    this.ctx.storage.sql.exec('DELETE FROM streams WHERE id = ?', id)
  }

  /** Live stream leases, lapsed ones dropped. */
  private liveStreams(): number {
    const { sql } = this.ctx.storage
    sql.exec('DELETE FROM streams WHERE expires <= ?', Date.now())
    return sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM streams').one().n
  }

  admit(req: KeyAdmitRequest): KeyAdmitResult {
    const { store } = this
    const { counters } = store
    store.observe(req.now)
    this.receive(req, req.now)
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
      const heavyUsed = counters.get(K.heavy(day))
      if (heavyUsed >= req.heavyPerDay) {
        const retryAfter = Math.ceil((nextBeijingMidnight(req.now) - req.now) / 1000)
        return { ok: false, reason: 'heavy', window, retryAfter, detail: `daily heavy-call quota of ${req.heavyPerDay} used up; it resets at midnight Beijing time` }
      }
    }
    if (req.packUnits !== null) {
      const spent = counters.get(K.lifetime)
      if (spent + req.units > req.packUnits) {
        return { ok: false, reason: 'pack', window, detail: `buyout pack exhausted: ${spent} of ${req.packUnits} units used, this call needs ${req.units}` }
      }
    }

    // A lease is counted now: whoever admits its calls later, the minute never passes the limit.
    const leased = req.lease && req.packUnits === null ? leaseCalls(req.perMinute - used - 1, req.lease) : 0
    store.bumpMinute(req.now, 1 + leased)
    this.count(day, req.endpoint, req.units, 1)
    if (req.heavy) counters.add(K.heavy(day), 1)
    store.ensureAlarm(() => nextBeijingMidnight(Date.now()))
    const reservation: KeyReservation = { win: store.windowOf(req.now), day, endpoint: req.endpoint, units: req.units, heavy: req.heavy }
    const remaining = Math.max(0, window.remaining - 1)
    const grant = leased > 0 ? { calls: leased, guardRemaining: remaining - leased, allow: list } : null
    return { ok: true, reservation, window: { ...window, remaining }, leased: grant }
  }

  /** Usage of calls admitted from leases, when no other request has carried it here (src/access/key-lease.ts). */
  report(usage: UsageDelta[]): void {
    this.receive({ usage }, 0)
  }

  /** Takes what an isolate hands back: unused leased calls (while their minute lasts) and the usage of the used ones. */
  private receive(r: LeaseReport, now: number): void {
    if (r.returned) this.store.giveBackCalls(now, r.returned.win, r.returned.calls)
    for (const u of r.usage ?? []) this.count(u.day, u.endpoint, u.units, u.calls)
  }

  private count(day: string, endpoint: string, units: number, calls: number): void {
    const { counters } = this.store
    counters.add(K.units(day, endpoint), units)
    counters.add(K.calls(day, endpoint), calls)
    counters.add(K.lifetime, units)
  }

  /**
   * Ends a reservation: a call that ended ok:false is refunded entirely (minute slot, units, heavy
   * call, pack units); a call billed by what it returned (`units`) is corrected to that amount.
   * The worker settles each reservation at most once, and only when there is something to change.
   */
  settle(r: KeyReservation, ok: boolean, units?: number): void {
    const { store } = this
    const { counters } = store
    const delta = ok ? (units ?? r.units) - r.units : -r.units
    if (!ok) {
      store.bumpMinuteWindow(r.win, -1)
      counters.add(K.calls(r.day, r.endpoint), -1)
      if (r.heavy) counters.add(K.heavy(r.day), -1)
    }
    counters.add(K.units(r.day, r.endpoint), delta)
    counters.add(K.lifetime, delta)
  }

  /** The key's usage, after what the asking isolate hands back (see {@link receive}). */
  usage(req: UsageRequest): UsageReport {
    const { store } = this
    const { counters } = store
    this.receive(req, req.now)
    const day = beijingDay(req.now)
    const endpoints: UsageReport['endpoints'] = {}
    let unitsToday = 0
    for (const [field, prefix] of [['units', K.units(day, '')], ['calls', K.calls(day, '')]] as const) {
      for (const [k, v] of counters.entries(prefix)) {
        const e = (endpoints[k.slice(prefix.length)] ??= { units: 0, calls: 0 })
        e[field] = v
        if (field === 'units') unitsToday += v
      }
    }
    const heavyUsed = counters.get(K.heavy(day))
    const spent = counters.get(K.lifetime)
    return {
      day,
      endpoints: Object.fromEntries(Object.entries(endpoints).sort(([a], [b]) => (a < b ? -1 : 1))),
      units_today: unitsToday,
      minute: store.window(req.now, req.perMinute, store.minuteCount(req.now)),
      heavy: { limit: req.heavyPerDay, used: heavyUsed, left: Math.max(0, req.heavyPerDay - heavyUsed) },
      pack: req.packUnits === null ? null : { cap: req.packUnits, used: spent, left: Math.max(0, req.packUnits - spent) },
      stream: { open: this.liveStreams(), minutes_today: counters.get(K.streamMinutes(day)) },
    }
  }

  allowList(): string[] {
    this.allow ??= this.ctx.storage.sql.exec<{ ip: string }>('SELECT ip FROM allowlist ORDER BY ip').toArray().map((r) => r.ip)
    return this.allow
  }

  /** Replaces the allow-list (addresses already canonical and at most {@link ALLOW_LIST_MAX}). */
  replaceAllowList(ips: string[]): string[] {
    if (ips.length > ALLOW_LIST_MAX) throw new RangeError(`at most ${ALLOW_LIST_MAX} addresses`)
    const { sql } = this.ctx.storage
    this.allow = null
    sql.exec('DELETE FROM allowlist')
    for (const ip of new Set(ips)) sql.exec('INSERT INTO allowlist (ip) VALUES (?)', ip)
    return this.allowList()
  }

  clearAllowList(): void {
    this.ctx.storage.sql.exec('DELETE FROM allowlist')
    this.allow = []
  }

  /**
   * The daily reset: drops minute windows, heavy counters of past days and keeps a week of usage.
   * Idempotent (running it twice changes nothing more). "Today" follows the latest service clock
   * the object has seen, so it agrees with the emulator's clock offline.
   */
  override async alarm(): Promise<void> {
    const { store } = this
    const now = store.latestNow()
    const today = beijingDay(now)
    const keepFrom = addDays(today, -7)
    store.counters.deleteBefore('heavy:', today)
    store.counters.deleteBefore('smin:', keepFrom)
    store.counters.deleteBefore('units:', keepFrom)
    store.counters.deleteBefore('calls:', keepFrom)
    store.pruneMinutes(now)
    store.alarmFired()
    // No re-arm here: the next admitted call arms the next reset, so idle objects stay asleep.
  }

  /** Every counter as stored, written out first (tests and diagnostics). */
  counterRows(): Array<[string, number]> {
    return this.store.counters.entries('')
  }
}

import { beijingDay } from '../domain/beijing-day'
import { WATCH_MS } from '../domain/shared-flight'
import type { KeyAdmitRequest, KeyAdmitResult, KeyReservation, UsageDelta, UsageReport, UsageRequest } from './key-guard'
import type { RateWindow } from './rate-window'
import { LEASE, LeaseBook, minuteOf, type MinuteLease } from './lease'
import { cacheKind } from '../runtime/isolate-caches'

/**
 * Keyed admission by leases (docs/access.md): with a call it admits, a key's KeyGuard counts a
 * further slice of the key's minute for the asking isolate (src/access/lease.ts: at most 15 calls
 * and a quarter of what is left), and the isolate admits the key's next calls from that slice
 * without asking it. The object then sees one request per slice instead of one per call.
 *
 * - **The limit** stays an exact upper bound: a slice is counted when it is granted, and each
 *   call leaves its slice once. The price: a call may be refused slightly before the limit while
 *   another isolate holds an unused slice. Within one isolate nothing is lost: a call the object
 *   refuses first waits for the isolate's other requests to it, whose slices it may then use.
 * - **Unused calls** go back with the isolate's next request to the object (calls only while
 *   their minute lasts; a slice lapses with its minute).
 * - **Usage** of a call admitted from a slice is counted when it ends well (units as billed; an
 *   ok:false call is not counted and its call goes back to the slice) and reaches the object with
 *   the isolate's next request to it, or at the latest {@link REPORT_MS} later. `/v1/usage` hands
 *   back this isolate's slice and usage first, so it lags only by other isolates' last seconds.
 * - **Never leased**: heavy calls (market-kline: the daily heavy quota is counted by the object,
 *   call by call) and buyout packs (their lifetime units stay exact); these ask the object each time.
 * - **The allow-list** comes with the slice, and each call is checked against it; a caller from
 *   another address asks the object, which refuses it. A change reaches other isolates when their
 *   slice lapses, within the minute.
 * - **Revocation and tier changes**: identification comes first (the key record is cached for at
 *   most a minute, src/access/key-lookup.ts), and a slice is used only under the per-minute limit it
 *   was granted for; so both take effect within a minute, as without leases.
 * - **Rate headers** of a call from a slice show the whole minute as the object would, approximately
 *   (what it had left for others at the grant, plus this isolate's unused calls).
 */
export interface KeyLease extends MinuteLease {
  /** The key's allow-list when granted (empty: any address). */
  allow: string[]
}

/** The KeyGuard methods admission uses, through a stub made by the request that calls them. */
export interface KeyGuardCalls {
  admit(req: KeyAdmitRequest): Promise<KeyAdmitResult>
  settle(r: KeyReservation, ok: boolean, units?: number): Promise<void>
  report(usage: UsageDelta[]): Promise<void>
  usage(req: UsageRequest): Promise<UsageReport>
}

/** The stub of a key's KeyGuard, typed by what admission calls (RPC's own stub types do not narrow unions). */
export const keyGuardOf = (ns: DurableObjectNamespace, hash: string): KeyGuardCalls => ns.getByName(hash) as unknown as KeyGuardCalls

/** A call admitted (by the object or from a slice), with how to settle it; or the object's refusal. */
export type KeyAdmission =
  | { ok: true; window: RateWindow; settle: (ok: boolean, units: number | undefined) => Promise<void> | void }
  | Extract<KeyAdmitResult, { ok: false }>

/** At most this long after a call from a slice ends, its usage is sent to the object if nothing else took it there. */
export const REPORT_MS = 2_000
/** How long a refused call waits for the isolate's other requests to the object (each far shorter). */
const ASKING_WAIT_MS = 1_000

/** A request to a key's object in flight, as others may watch it. */
interface Asking {
  at: number
  done: boolean
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * One isolate's slices, per key hash, and the usage it owes the objects. Every method takes the
 * calling request's own stub (a function, so a call from a slice makes none): no promise or stub
 * crosses between requests (src/domain/shared-flight.ts).
 */
export class KeyLeases {
  private readonly book = new LeaseBook<KeyLease>()
  /** Usage of calls from slices not yet sent, per key hash, by day and endpoint. */
  private readonly owed = new Map<string, Map<string, UsageDelta>>()
  /** Requests to the objects in flight, per key hash. */
  private readonly asking = new Map<string, Set<Asking>>()

  constructor(private reportMs = REPORT_MS) {}

  /**
   * Sends usage from slices `ms` after a call at the latest. The emulator's worker sets 0: a test
   * waits for each request's `waitUntil` work, and would wait out the batching delay on every call.
   */
  reportAfter(ms: number): void {
    this.reportMs = ms
  }

  /** Admits one call of the key `hash`: from this isolate's slice when it can, else by its object. */
  async admit(guard: () => KeyGuardCalls, hash: string, req: KeyAdmitRequest): Promise<KeyAdmission> {
    const leasable = !req.heavy && req.packUnits === null
    const local = leasable ? this.fromSlice(guard, hash, req) : undefined
    if (local) return local
    const stub = guard()
    const r = await this.ask(hash, stub.admit({ ...req, ...this.handBack(hash, req.now), ...(req.packUnits === null ? { lease: LEASE.maxCalls } : {}) }))
    if (r.ok) {
      if (r.leased) this.book.keep(hash, { win: r.reservation.win, calls: r.leased.calls, limit: r.window.limit, guardRemaining: r.leased.guardRemaining, allow: r.leased.allow })
      const { reservation } = r
      // Nothing to settle for a call that went through at the policy's cost: the reservation stands.
      const settle = (ok: boolean, units: number | undefined) =>
        !ok || (units !== undefined && units !== reservation.units) ? stub.settle(reservation, ok, units) : undefined
      return { ok: true, window: r.window, settle }
    }
    if (r.reason === 'minute' && leasable) {
      // This isolate's other calls to the object may bring slices it counted before refusing this one.
      await this.othersAsking(hash)
      const late = this.fromSlice(guard, hash, req)
      if (late) return late
    }
    return r
  }

  /** The key's usage from its object, after this isolate has handed back its slice and what it owes. */
  usage(guard: () => KeyGuardCalls, hash: string, req: UsageRequest): Promise<UsageReport> {
    return guard().usage({ ...req, ...this.handBack(hash, req.now) })
  }

  /** The allow-list changed through this isolate: its slice follows at once (others' within their minute). */
  allowListChanged(hash: string, ips: string[]): void {
    const lease = this.book.held(hash)
    if (lease) lease.allow = ips
  }

  /** Forgets every slice (tests that reset the guards); usage owed is still sent. */
  clearSlices(): void {
    this.book.clear()
  }

  private fromSlice(guard: () => KeyGuardCalls, hash: string, req: KeyAdmitRequest): KeyAdmission | undefined {
    const lease = this.book.usable(hash, req.now)
    if (!lease || lease.limit !== req.perMinute || (lease.allow.length > 0 && !lease.allow.includes(req.ip))) return undefined
    const { window, refund } = this.book.take(hash, lease, req.now)
    const day = beijingDay(req.now)
    const settle = (ok: boolean, units: number | undefined) => {
      if (!ok) return refund()
      const batch = this.owe(hash, { day, endpoint: req.endpoint, units: units ?? req.units, calls: 1 })
      return batch && this.sendLater(guard, hash, batch)
    }
    return { ok: true, window, settle }
  }

  /**
   * What goes back with a request to the key's object: the slice's unused calls and the usage owed.
   * Should that request fail, they are lost: the usage in the caller's favour, the calls until the minute ends.
   */
  private handBack(hash: string, now: number): { returned?: { win: number; calls: number }; usage?: UsageDelta[] } {
    const lease = this.book.release(hash)
    const calls = lease && lease.win === minuteOf(now) ? lease.calls : 0
    const usage = this.takeOwed(hash)
    return { ...(calls > 0 ? { returned: { win: lease!.win, calls } } : {}), ...(usage ? { usage } : {}) }
  }

  /** Adds a call's usage to what is owed; returns the batch when this call started it. */
  private owe(hash: string, u: UsageDelta): Map<string, UsageDelta> | undefined {
    let batch = this.owed.get(hash)
    const started = !batch
    if (!batch) this.owed.set(hash, (batch = new Map()))
    const k = `${u.day} ${u.endpoint}`
    const held = batch.get(k)
    if (held) {
      held.units += u.units
      held.calls += u.calls
    } else batch.set(k, u)
    return started ? batch : undefined
  }

  private takeOwed(hash: string): UsageDelta[] | undefined {
    const batch = this.owed.get(hash)
    if (!batch) return undefined
    this.owed.delete(hash)
    return [...batch.values()]
  }

  /** Sends a batch of usage that no other request has taken to the object within {@link REPORT_MS}. */
  private async sendLater(guard: () => KeyGuardCalls, hash: string, batch: Map<string, UsageDelta>): Promise<void> {
    await sleep(this.reportMs)
    if (this.owed.get(hash) !== batch) return
    await guard().report(this.takeOwed(hash)!)
  }

  private async ask<R>(hash: string, work: Promise<R>): Promise<R> {
    const mine: Asking = { at: Date.now(), done: false }
    let all = this.asking.get(hash)
    if (!all) this.asking.set(hash, (all = new Set()))
    all.add(mine)
    try {
      return await work
    } finally {
      mine.done = true
      all.delete(mine)
      if (all.size === 0 && this.asking.get(hash) === all) this.asking.delete(hash)
    }
  }

  /**
   * Waits until this isolate's requests to the key's object that are in flight now have their
   * answers. It only looks at their state with timers of its own: awaiting another request's
   * promise is not allowed (src/domain/shared-flight.ts), and one watcher per refused call keeps a
   * burst of hundreds cheap. A request older than {@link ASKING_WAIT_MS} is not waited for (its
   * own request may have ended without it).
   */
  private async othersAsking(hash: string): Promise<void> {
    const started = Date.now()
    const waiting = [...(this.asking.get(hash) ?? [])]
    const open = () => waiting.some((a) => !a.done && Date.now() - a.at < ASKING_WAIT_MS)
    for (let look = 0; open() && Date.now() - started < ASKING_WAIT_MS; look++) await sleep(WATCH_MS[Math.min(look, WATCH_MS.length - 1)])
  }
}

/**
 * This isolate's slices, in `services.caches` (the admission middleware and the routes that talk
 * to a key's object). `Services.reset()` forgets the slices.
 */
export const KEY_LEASES = cacheKind('keyed minutes leased to this isolate', () => new KeyLeases(), (l) => l.clearSlices())

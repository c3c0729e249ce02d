import type { RateWindow } from './rate-window'

const MINUTE_MS = 60_000

/** The minute window (epoch minutes) of a service time, as the guard objects count them. */
export const minuteOf = (now: number): number => Math.floor(now / MINUTE_MS)

/**
 * A slice of one caller's minute that its guard object (the key's KeyGuard, the address's
 * AnonGuard shard) counted ahead of time for this isolate, which admits that many calls without
 * asking it. The guard counts a slice when it grants it, so every call admitted anywhere is
 * counted there once and the limit stays an exact upper bound; a slice left unused only moves the
 * moment of refusal: another isolate may be refused while this one still holds calls.
 */
export interface MinuteLease {
  /** The minute window (epoch minutes) the calls were counted in; they lapse with it. */
  win: number
  /** Leased calls not used yet. */
  calls: number
  /** The caller's per-minute limit when granted. */
  limit: number
  /** What the guard had left for everyone else after the grant. */
  guardRemaining: number
}

/**
 * How much a guard leases at a time: at most `maxCalls`, and at most 1/`share` of what is left in
 * the minute, so the slices other isolates hold unused stay small next to the limit.
 */
export const LEASE = { maxCalls: 15, share: 4 } as const

/** Calls to lease beside the call being admitted, given what the caller has left after it. */
export function leaseCalls(left: number, wanted: number): number {
  return Math.max(0, Math.min(wanted, LEASE.maxCalls, Math.floor(left / LEASE.share)))
}

/**
 * What a call admitted from a lease shows in its rate headers: the caller's whole minute, as the
 * guard would show it (what it had left for others, plus this isolate's unused calls). Other
 * isolates' unused slices count as used, so it is approximate in the caller's disfavour.
 */
function leasedWindow(lease: MinuteLease, now: number): RateWindow {
  const end = (lease.win + 1) * MINUTE_MS
  return { limit: lease.limit, remaining: lease.guardRemaining + lease.calls, resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)) }
}

/**
 * The leases this isolate holds, one per caller (a key hash, an address). Leases of one minute
 * add up (two granted at once, a refunded call); a later minute's lease replaces an earlier one,
 * whose calls have lapsed.
 */
export class LeaseBook<L extends MinuteLease> {
  private readonly leases = new Map<string, L>()

  /**
   * @param join adds what a lease carries beside its calls into the lease held for the same minute
   * @param maxHolders callers remembered at most (the oldest is forgotten first)
   */
  constructor(
    private readonly join: (held: L, more: L) => void = () => {},
    private readonly maxHolders = 10_000
  ) {}

  /** The caller's lease, if it has a call left in the minute of `now`. */
  usable(who: string, now: number): L | undefined {
    const lease = this.leases.get(who)
    return lease && lease.calls >= 1 && lease.win === minuteOf(now) ? lease : undefined
  }

  /**
   * Admits one call from a lease {@link usable} returned. The refund of a call that ended
   * ok:false puts it back into the lease held for that minute, the same one or one granted since
   * (the guard counted it in that minute either way), with `back` (what else the call took).
   */
  take(who: string, lease: L, now: number, back: Partial<L> = {}): { window: RateWindow; refund: () => void } {
    lease.calls -= 1
    return { window: leasedWindow(lease, now), refund: () => this.keep(who, { ...lease, ...back, calls: 1 }) }
  }

  /** The caller's lease, usable or not. */
  held(who: string): L | undefined {
    return this.leases.get(who)
  }

  /** Takes the caller's lease out (what it still holds goes back with the request about to be made). */
  release(who: string): L | undefined {
    const lease = this.leases.get(who)
    this.leases.delete(who)
    return lease
  }

  /** Keeps a lease its guard granted, or a refunded call. */
  keep(who: string, lease: L): void {
    const held = this.leases.get(who)
    if (held && held.win === lease.win) {
      held.calls += lease.calls
      held.guardRemaining = Math.min(held.guardRemaining, lease.guardRemaining)
      this.join(held, lease)
      return
    }
    if (held && held.win > lease.win) return
    if (!held && this.leases.size >= this.maxHolders) this.leases.delete(this.leases.keys().next().value!)
    this.leases.set(who, { ...lease })
  }

  /** Forgets every lease (tests that reset the guards). */
  clear(): void {
    this.leases.clear()
  }
}

import type { RateWindow } from './rate-window'
import { LeaseBook, leaseCalls, minuteOf, type MinuteLease } from './lease'
import { cacheKind } from '../runtime/isolate-caches'

/**
 * Calls an AnonGuard shard granted this isolate ahead of time for one address, so the next ones
 * are admitted without a Durable Object request (the shared mechanism: src/access/lease.ts).
 *
 * Only for callers with a valid proof-of-work (60 calls a minute) asking for an answer this
 * isolate already holds in memory (its rows are known before the call): the shard counts the
 * leased calls and their rows at grant time, so no address can ever get more than its limit or its
 * daily rows; the lease only moves when the counting happens. The shard grants at most a quarter
 * of what is left in the minute (see LEASE), so another isolate serving the same address
 * can at worst be refused slightly before the limit, never after it. Scripts (2 a minute) and
 * browsers (5) never lease: their few calls go to the shard one by one.
 */
export interface AnonLease extends MinuteLease {
  /** Beijing day the rows were counted on. */
  day: string
  /** Rows counted ahead and not used yet. */
  rows: number
  /** The proof's expiry: a lease is used only while the proof it was granted under holds. */
  powUntil: number
}

/** Calls to lease beside this one, given what the address has left (after this call) and the rows. */
export function leaseSize(left: number, rowsLeft: number, rowsPerCall: number, wanted: number): number {
  const n = leaseCalls(left, wanted)
  return rowsPerCall > 0 ? Math.max(0, Math.min(n, Math.floor(rowsLeft / rowsPerCall))) : n
}

/** The leases this isolate holds, by address (one per `Services`: {@link ANON_LEASES}). */
export class AnonLeases {
  // One minute is one Beijing day (midnight is a minute boundary), so leases of one minute share their day.
  private readonly book = new LeaseBook<AnonLease>((held, more) => {
    held.rows += more.rows
  })

  /**
   * Admits one call from the address's lease, if it holds one for this minute under a proof still
   * valid, with enough rows for this answer. Returns the window for the headers and a refund (the
   * call ended ok:false), or undefined: then ask the shard.
   */
  take(ip: string, now: number, rows: number, powUntil: number | null): { window: RateWindow; refund: () => void } | undefined {
    const lease = this.book.usable(ip, now)
    if (!lease || powUntil === null || now >= lease.powUntil || lease.rows < rows) return undefined
    lease.rows -= rows
    return this.book.take(ip, lease, now, { rows })
  }

  /**
   * Takes the address's lease out before asking its shard: what it still holds goes back with that
   * request (calls only while their minute lasts; rows while their day does).
   */
  release(ip: string, now: number): { win: number; calls: number; day: string; rows: number } | undefined {
    const lease = this.book.release(ip)
    if (!lease) return undefined
    const calls = lease.win === minuteOf(now) ? lease.calls : 0
    if (calls === 0 && lease.rows === 0) return undefined
    return { win: lease.win, calls, day: lease.day, rows: lease.rows }
  }

  /** Keeps a lease the shard granted (two granted at once for one address add up). */
  keep(ip: string, lease: AnonLease): void {
    this.book.keep(ip, lease)
  }

  /** Forgets every lease (`Services.reset()`). */
  clear(): void {
    this.book.clear()
  }
}

/** The anonymous minutes leased to this isolate, in `services.caches`. */
export const ANON_LEASES = cacheKind('anonymous minutes leased to this isolate', () => new AnonLeases(), (l) => l.clear())

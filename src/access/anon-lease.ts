import type { RateWindow } from './key-guard'

/**
 * Calls an AnonGuard shard granted this isolate ahead of time for one address, so the next ones
 * are admitted without a Durable Object request.
 *
 * Only for callers with a valid proof-of-work (60 calls a minute) asking for an answer this
 * isolate already holds in memory (its rows are known before the call): the shard counts the
 * leased calls and their rows at grant time, so no address can ever get more than its limit or its
 * daily rows; the lease only moves when the counting happens. The shard grants at most a quarter
 * of what is left in the minute (see {@link LEASE}), so another isolate serving the same address
 * can at worst be refused slightly before the limit, never after it. Scripts (2 a minute) and
 * browsers (5) never lease: their few calls go to the shard one by one.
 */
export interface AnonLease {
  /** The minute window (epoch minutes) the calls were counted in; they lapse with it. */
  win: number
  /** Beijing day the rows were counted on. */
  day: string
  /** Leased calls not used yet. */
  calls: number
  /** Rows counted ahead and not used yet. */
  rows: number
  /** The address's limit, and what the shard had left for everyone else after the grant. */
  limit: number
  shardRemaining: number
  /** The proof's expiry: a lease is used only while the proof it was granted under holds. */
  powUntil: number
}

/** How much a shard leases: at most this many calls, and at most 1/share of what is left in the minute. */
export const LEASE = { maxCalls: 15, share: 4 } as const

/** Calls to lease beside this one, given what the address has left (after this call) and the rows. */
export function leaseSize(left: number, rowsLeft: number, rowsPerCall: number, wanted: number): number {
  let n = Math.min(wanted, LEASE.maxCalls, Math.floor(left / LEASE.share))
  if (rowsPerCall > 0) n = Math.min(n, Math.floor(rowsLeft / rowsPerCall))
  return Math.max(0, n)
}

const leases = new Map<string, AnonLease>()
const MAX_ADDRESSES = 10_000

const MINUTE_MS = 60_000

/** What a leased call shows in its rate headers: the address's whole minute, as the shard would. */
function windowOf(lease: AnonLease, now: number): RateWindow {
  const end = (lease.win + 1) * MINUTE_MS
  return { limit: lease.limit, remaining: lease.shardRemaining + lease.calls, resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)) }
}

/**
 * Admits one call from the address's lease, if it holds one for this minute under a proof still
 * valid, with enough rows for this answer. Returns the window for the headers and a refund (the
 * call ended ok:false), or undefined: then ask the shard.
 */
export function takeLeased(ip: string, now: number, rows: number, powUntil: number | null): { window: RateWindow; refund: () => void } | undefined {
  const lease = leases.get(ip)
  if (!lease || powUntil === null || now >= lease.powUntil || lease.win !== Math.floor(now / MINUTE_MS)) return undefined
  if (lease.calls < 1 || lease.rows < rows) return undefined
  lease.calls -= 1
  lease.rows -= rows
  return {
    window: windowOf(lease, now),
    refund: () => {
      if (leases.get(ip) !== lease) return
      lease.calls += 1
      lease.rows += rows
    },
  }
}

/**
 * Takes the address's lease out before asking its shard: what it still holds goes back with that
 * request (calls only while their minute lasts; rows while their day does).
 */
export function releaseLease(ip: string, now: number): { win: number; calls: number; day: string; rows: number } | undefined {
  const lease = leases.get(ip)
  if (!lease) return undefined
  leases.delete(ip)
  const calls = lease.win === Math.floor(now / MINUTE_MS) ? lease.calls : 0
  if (calls === 0 && lease.rows === 0) return undefined
  return { win: lease.win, calls, day: lease.day, rows: lease.rows }
}

/** Keeps a lease the shard granted (two granted at once for one address add up). */
export function keepLease(ip: string, lease: AnonLease): void {
  const held = leases.get(ip)
  if (held && held.win === lease.win && held.day === lease.day) {
    held.calls += lease.calls
    held.rows += lease.rows
    held.shardRemaining = Math.min(held.shardRemaining, lease.shardRemaining)
    return
  }
  if (!held && leases.size >= MAX_ADDRESSES) leases.delete(leases.keys().next().value!)
  leases.set(ip, lease)
}

/** Forgets every lease (tests that reset the guards). */
export function clearAnonLeases(): void {
  leases.clear()
}

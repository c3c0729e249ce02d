/**
 * The service-wide cache of reference answers (search, macro, ipo, calendar, dividends,
 * shareholders, events, block trades): the same for every caller, so one upstream request serves
 * them all for hours (six, unless a kind says otherwise). Two tiers: this isolate's memory, then KV
 * (`CACHE`), shared by every isolate. Only successful answers are kept; a failure is asked again
 * on the next call.
 *
 * Stale-if-error: every good answer is also kept in KV as the *last good* copy for
 * {@link LAST_GOOD_TTL_S}, never served while an upstream answers, only when every channel fails;
 * how old a copy may then be is {@link STALE_IF_ERROR}, the one table of that policy.
 */
import { lastSettledDay } from '../domain/settled-day'
import { cacheKind } from '../runtime/isolate-caches'

/** How long reference data is served before it is asked again. */
const REFERENCE_TTL_MS = 6 * 3_600_000

const DAY_MS = 86_400_000

/**
 * How a last good answer may be served when every channel fails (stale-if-error), per kind of data.
 * `maxAgeMs`: while younger than that. `session`: while it holds the latest complete session (it was
 * fetched after the close, 15:30 Beijing, of the newest settled trading day). `never`: live data
 * that is never served stale beyond the shared market cache's own limits (src/services/shared-answers.ts
 * `STALE_LIMIT_MS`, seconds), which is the whole of their staleness.
 */
export type StalePolicy = { maxAgeMs: number } | { session: true } | { never: true }

/**
 * The stale-if-error policy of every kind of answer, in one place (docs/architecture.md, "Stale
 * answers", whose table a test holds to this one).
 */
export const STALE_IF_ERROR = {
  // Slow-moving reference data: a copy days old is far better than an error.
  dividend: { maxAgeMs: 7 * DAY_MS },
  shareholder: { maxAgeMs: 7 * DAY_MS },
  events: { maxAgeMs: 7 * DAY_MS },
  search: { maxAgeMs: 7 * DAY_MS },
  ipo: { maxAgeMs: 7 * DAY_MS },
  calendar: { maxAgeMs: 7 * DAY_MS },
  macro: { maxAgeMs: 7 * DAY_MS },
  sectorValuation: { maxAgeMs: 7 * DAY_MS },
  /** Block trades of a past session never change; the latest list carries its own `date`. */
  blockTrade: { maxAgeMs: 7 * DAY_MS },
  /**
   * /v1/market-overview's daily types (valuation, margin, updown, interval, technical): market
   * PE/PB medians move with prices, slowly; the others are a settled session's figures with their
   * own date. A few days at most.
   */
  overviewDaily: { maxAgeMs: 3 * DAY_MS },
  /** /v1/fund's daily flows: a copy that holds the latest complete session. */
  fundFlow: { session: true },
  // Intraday data: never stale past the market cache's limits.
  quote: { never: true },
  snapshot: { never: true },
  orderbook: { never: true },
  hot: { never: true },
  changedist: { never: true },
  overviewIntraday: { never: true },
} as const satisfies Record<string, StalePolicy>

export type StaleClass = keyof typeof STALE_IF_ERROR

/** How long KV keeps a last good copy: the longest `maxAgeMs` above. */
const LAST_GOOD_TTL_S = 7 * 86_400

/** True when a copy fetched at `at` may be served stale at `now` under `cls`. */
export function staleAllowed(cls: StaleClass, at: number, now: number): boolean {
  const p: StalePolicy = STALE_IF_ERROR[cls]
  if (at > now) return false
  if ('never' in p) return false
  if ('session' in p) return now - at < LAST_GOOD_TTL_S * 1000 && lastSettledDay(at) === lastSettledDay(now)
  return now - at < p.maxAgeMs
}

interface Stored<T> {
  /** Epoch ms (service clock) when the answer was fetched: the envelope's `as_of`. */
  at: number
  value: T
}

const MEMORY_MAX = 300
const fresh = (s: Stored<unknown> | undefined | null, now: number, ttl: number) => !!s && s.at <= now && now - s.at < ttl

/** Stale-if-error for one cached answer: its class, and the key its last good copy lives under. */
export interface StaleOptions {
  cls: StaleClass
  /**
   * The key of the last good copy when it differs from the cache key: a cache key that names the
   * day (`today=…`) would never find yesterday's copy, so the stable part of the question goes here.
   */
  key?: string
  /** Whether this failure may be answered from the last good copy (default: yes). */
  serve?: () => boolean
}

/**
 * One isolate's reference answers: the memory tier over KV, and when each last good copy was kept.
 * `Services` holds one (`services.reference`); its reset forgets them.
 */
export class ReferenceCache {
  private readonly memory = new Map<string, Stored<unknown>>()
  /** When this isolate last kept a copy per key (bounded like the memory tier). */
  private readonly keptAt = new Map<string, number>()
  /** Bumped by {@link clear}, so a reset emulator never reads answers of the previous world from KV. */
  private generation = 0

  /** Forgets every cached reference answer (the emulator's reset; tests start from fresh data). */
  clear(): void {
    this.memory.clear()
    this.keptAt.clear()
    this.generation++
  }

  /**
   * The cached answer for `key` while younger than `ttlMs` on the service clock, else `make()`'s,
   * stored when `keep` says it is worth keeping. Returns the value and when it was fetched. With
   * `stale`, a good answer is also kept as the last good copy, and when `make()` has nothing worth
   * keeping the last good copy is returned instead while {@link staleAllowed} (`stale: true`).
   */
  async cached<T>(
    kv: KVNamespace,
    key: string,
    now: number,
    make: () => Promise<{ value: T; keep: boolean }>,
    ttlMs = REFERENCE_TTL_MS,
    stale?: StaleOptions
  ): Promise<Stored<T> & { hit: boolean; stale?: true }> {
    const full = `ref:${this.generation}:${key}`
    const mem = this.memory.get(full) as Stored<T> | undefined
    if (fresh(mem, now, ttlMs)) return { ...mem!, hit: true }
    const shared = await kv.get<Stored<T>>(full, 'json').catch(() => null)
    if (fresh(shared, now, ttlMs)) {
      this.remember(full, shared!)
      return { ...shared!, hit: true }
    }
    const { value, keep } = await make()
    const stored = { at: now, value }
    if (keep) {
      this.remember(full, stored)
      // KV keeps it a little longer than we serve it; its minimum TTL is 60 s.
      await kv.put(full, JSON.stringify(stored), { expirationTtl: Math.max(60, Math.ceil(ttlMs / 1000) + 60) }).catch(() => undefined)
      if (stale) await this.keepLastGood(kv, stale.key ?? key, stored)
    } else if (stale && (stale.serve?.() ?? true)) {
      const last = await this.lastGood<T>(kv, stale.key ?? key)
      if (last && staleAllowed(stale.cls, last.at, now)) return { ...last, hit: false, stale: true }
    }
    return { ...stored, hit: false }
  }

  /**
   * {@link keepLastGood} at most once per `everyMs` per key in this isolate: for answers computed on
   * every call (not through the reference cache), so that they do not write KV on every call.
   */
  async keepLastGoodEvery(kv: KVNamespace, key: string, stored: Stored<unknown>, everyMs: number): Promise<void> {
    const last = this.keptAt.get(key)
    if (last !== undefined && last <= stored.at && stored.at - last < everyMs) return
    if (this.keptAt.size >= MEMORY_MAX) this.keptAt.delete(this.keptAt.keys().next().value!)
    this.keptAt.set(key, stored.at)
    await this.keepLastGood(kv, key, stored)
  }

  /** The last good answer kept for `key`, whatever its age; null when none is kept. */
  async lastGood<T>(kv: KVNamespace, key: string): Promise<Stored<T> | null> {
    return kv.get<Stored<T>>(this.lastGoodKey(key), 'json').catch(() => null)
  }

  private lastGoodKey(key: string): string {
    return `last:${this.generation}:${key}`
  }

  /** Keeps `stored` as the last good answer for `key` (KV only: read when every upstream fails, which is rare). */
  private async keepLastGood(kv: KVNamespace, key: string, stored: Stored<unknown>): Promise<void> {
    await kv.put(this.lastGoodKey(key), JSON.stringify(stored), { expirationTtl: LAST_GOOD_TTL_S }).catch(() => undefined)
  }

  private remember(key: string, s: Stored<unknown>): void {
    this.memory.delete(key)
    if (this.memory.size >= MEMORY_MAX) this.memory.delete(this.memory.keys().next().value!)
    this.memory.set(key, s)
  }
}

/** The reference answers of this isolate (one copy per `Services`). */
export const REFERENCE_ANSWERS = cacheKind('reference answers', () => new ReferenceCache(), (r) => r.clear())

/**
 * The service-wide cache of reference answers (search, macro, ipo, calendar): the same for every
 * caller, so one upstream request serves them all for hours (DESIGN §12, freshness classes). Two
 * tiers: this isolate's memory, then KV (`CACHE`), shared by every isolate. Only successful
 * answers are kept; a failure is asked again on the next call.
 */

/** How long reference data is served before it is asked again. */
export const REFERENCE_TTL_MS = 6 * 3_600_000

interface Stored<T> {
  /** Epoch ms (service clock) when the answer was fetched: the envelope's `as_of`. */
  at: number
  value: T
}

const MEMORY_MAX = 300
const memory = new Map<string, Stored<unknown>>()
/** Bumped by {@link clearReferenceMemory}, so a reset emulator never reads answers of the previous world from KV. */
let generation = 0

/** Forgets every cached reference answer (the emulator's reset; tests start from fresh data). */
export function clearReferenceMemory(): void {
  memory.clear()
  generation++
}

const fresh = (s: Stored<unknown> | undefined | null, now: number, ttl: number) => !!s && s.at <= now && now - s.at < ttl

/**
 * The cached answer for `key` while younger than `ttlMs` on the service clock, else `make()`'s,
 * stored when `keep` says it is worth keeping. Returns the value and when it was fetched.
 */
export async function referenceCached<T>(
  kv: KVNamespace,
  key: string,
  now: number,
  make: () => Promise<{ value: T; keep: boolean }>,
  ttlMs = REFERENCE_TTL_MS
): Promise<Stored<T> & { hit: boolean }> {
  const full = `ref:${generation}:${key}`
  const mem = memory.get(full) as Stored<T> | undefined
  if (fresh(mem, now, ttlMs)) return { ...mem!, hit: true }
  const shared = await kv.get<Stored<T>>(full, 'json').catch(() => null)
  if (fresh(shared, now, ttlMs)) {
    remember(full, shared!)
    return { ...shared!, hit: true }
  }
  const { value, keep } = await make()
  const stored = { at: now, value }
  if (keep) {
    remember(full, stored)
    // KV keeps it a little longer than we serve it; its minimum TTL is 60 s.
    await kv.put(full, JSON.stringify(stored), { expirationTtl: Math.max(60, Math.ceil(ttlMs / 1000) + 60) }).catch(() => undefined)
  }
  return { ...stored, hit: false }
}

function remember(key: string, s: Stored<unknown>): void {
  memory.delete(key)
  if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!)
  memory.set(key, s)
}

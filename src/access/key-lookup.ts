import { SharedFlights } from '../domain/shared-flight'
import { KeyRecordSchema, hashKey, kvKeyOf, type KeyRecord } from './keys'
import { registerIsolateCache } from '../runtime/isolate-caches'

const POSITIVE_TTL_MS = 60_000
/** Short, so a key created a moment ago is accepted at once. */
const NEGATIVE_TTL_MS = 5_000
const cache = new Map<string, { record: KeyRecord | null; at: number }>()
/** Hashes of presented keys, so a repeat caller costs no SHA-256 (about 3% of a keyed /v1/quote's worker time). */
const hashes = new Map<string, string>()
/**
 * Reads in flight, so a burst of calls with one uncached key makes one KV read, not hundreds. A
 * KV read takes far less than SHARED_READ_MS; one older than that is treated as abandoned (its
 * request ended before it settled) and replaced, so it cannot hold up every later call of the key.
 */
const SHARED_READ_MS = 1_000
const reads = new SharedFlights<string, KeyRecord | null>(SHARED_READ_MS)

/**
 * The key record for a presented key: SHA-256 it, read KV `KEYS`, keep the answer in isolate
 * memory for a minute (five seconds for unknown keys). A revocation therefore takes effect within
 * about a minute. Returns the hash with the record (null when unknown or unreadable).
 */
export async function lookupKey(kv: KVNamespace, key: string, now = Date.now()): Promise<{ hash: string; record: KeyRecord | null }> {
  let hash = hashes.get(key)
  if (hash === undefined) {
    hash = await hashKey(key)
    if (hashes.size > 10_000) hashes.clear()
    hashes.set(key, hash)
  }
  const hit = cache.get(hash)
  if (hit && now - hit.at < (hit.record ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS)) return { hash, record: hit.record }
  const record = await reads.run(hash, () =>
    kv.get(kvKeyOf(hash), 'json').then((raw) => {
      const parsed = KeyRecordSchema.safeParse(raw)
      const record = parsed.success ? parsed.data : null
      if (cache.size > 10_000) cache.clear()
      cache.set(hash, { record, at: now })
      return record
    })
  )
  return { hash, record }
}

/** Forgets cached records (Services.reset; tests that revoke a key and expect the next call to see it). */
export function clearKeyCache(): void {
  cache.clear()
  hashes.clear()
  reads.clear()
}
registerIsolateCache('API key records', clearKeyCache)

/** Where a key was presented, as named in the 400 when several disagree. */
export interface PresentedKeys {
  authorization?: string
  xApiKey?: string
  /** Every `?key=` value (a repeated parameter carries several). */
  query?: string | readonly string[]
}

/**
 * The key a request presents: `Authorization: Bearer <key>`, `X-API-Key: <key>` or `?key=`.
 * Returns null when none is present (an Authorization header of another scheme counts as none),
 * or `{conflict}` naming the places when two of them carry different keys.
 */
export function presentedKey(p: PresentedKeys): string | null | { conflict: string[] } {
  const bearer = p.authorization ? /^Bearer\s+(\S+)\s*$/i.exec(p.authorization)?.[1] : undefined
  const found: Array<[string, string]> = []
  if (bearer) found.push(['Authorization', bearer])
  const header = p.xApiKey?.trim()
  if (header) found.push(['X-API-Key', header])
  for (const q of typeof p.query === 'string' ? [p.query] : p.query ?? []) {
    const query = q.trim()
    if (query) found.push(['?key=', query])
  }
  if (found.length === 0) return null
  if (found.some(([, k]) => k !== found[0][1])) {
    const places = [...new Set(found.map(([where]) => where))]
    return { conflict: places.length === 1 ? [`${places[0]} (given more than once)`] : places }
  }
  return found[0][1]
}

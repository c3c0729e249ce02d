import { KeyRecordSchema, hashKey, kvKeyOf, type KeyRecord } from './keys'

const POSITIVE_TTL_MS = 60_000
/** Short, so a key created a moment ago is accepted at once. */
const NEGATIVE_TTL_MS = 5_000
const cache = new Map<string, { record: KeyRecord | null; at: number }>()
/** Hashes of presented keys, so a repeat caller costs no SHA-256 (about 3% of a keyed /v1/quote's worker time). */
const hashes = new Map<string, string>()
/** Reads in flight, so a burst of calls with one uncached key makes one KV read, not hundreds. */
const inFlight = new Map<string, Promise<KeyRecord | null>>()

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
  let pending = inFlight.get(hash)
  if (!pending) {
    pending = kv
      .get(kvKeyOf(hash), 'json')
      .then((raw) => {
        const parsed = KeyRecordSchema.safeParse(raw)
        const record = parsed.success ? parsed.data : null
        if (cache.size > 10_000) cache.clear()
        cache.set(hash, { record, at: now })
        return record
      })
      .finally(() => inFlight.delete(hash))
    inFlight.set(hash, pending)
  }
  return { hash, record: await pending }
}

/** Forgets cached records (tests that revoke a key and expect the next call to see it). */
export function clearKeyCache(): void {
  cache.clear()
  hashes.clear()
}

/**
 * The key a request presents: `Authorization: Bearer <key>` first, then `?key=`. Returns null when
 * neither is present; an Authorization header of another scheme counts as no key.
 */
export function presentedKey(authorization: string | undefined, queryKey: string | undefined): string | null {
  const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  if (m) return m[1]
  return queryKey && queryKey.trim() ? queryKey.trim() : null
}

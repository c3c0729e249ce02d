import { SharedFlights } from '../domain/shared-flight'
import { KeyRecordSchema, hashKey, kvKeyOf, type KeyRecord } from './keys'
import { cacheKind } from '../runtime/isolate-caches'

const POSITIVE_TTL_MS = 60_000
/** Short, so a key created a moment ago is accepted at once. */
const NEGATIVE_TTL_MS = 5_000
/** Entries kept of each map before it starts afresh. */
const KEPT_MAX = 10_000
/**
 * A KV read takes far less than this; one older than that is treated as abandoned (its request
 * ended before it settled) and replaced, so it cannot hold up every later call of the key.
 */
const SHARED_READ_MS = 1_000

/**
 * The key records this isolate has read (one per `Services`: {@link KEY_RECORDS}). A record is kept
 * for a minute (five seconds for unknown keys), so a revocation takes effect within about a minute.
 */
class KeyRecords {
  private readonly records = new Map<string, { record: KeyRecord | null; at: number }>()
  /** Hashes of presented keys, so a repeat caller costs no SHA-256 (about 3% of a keyed /v1/quote's worker time). */
  private readonly hashes = new Map<string, string>()
  /** Reads in flight, so a burst of calls with one uncached key makes one KV read, not hundreds. */
  private readonly reads = new SharedFlights<string, KeyRecord | null>(SHARED_READ_MS)

  /**
   * The key record for a presented key: SHA-256 it, read KV `KEYS` unless a fresh copy is kept.
   * Returns the hash with the record (null when unknown or unreadable).
   */
  async lookup(kv: KVNamespace, key: string, now = Date.now()): Promise<{ hash: string; record: KeyRecord | null }> {
    let hash = this.hashes.get(key)
    if (hash === undefined) {
      hash = await hashKey(key)
      if (this.hashes.size > KEPT_MAX) this.hashes.clear()
      this.hashes.set(key, hash)
    }
    const hit = this.records.get(hash)
    if (hit && now - hit.at < (hit.record ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS)) return { hash, record: hit.record }
    const found = hash
    const record = await this.reads.run(hash, () =>
      kv.get(kvKeyOf(found), 'json').then((raw) => {
        const parsed = KeyRecordSchema.safeParse(raw)
        const record = parsed.success ? parsed.data : null
        if (this.records.size > KEPT_MAX) this.records.clear()
        this.records.set(found, { record, at: now })
        return record
      })
    )
    return { hash, record }
  }

  /** Forgets every kept record (`Services.reset()`; tests that revoke a key and expect the next call to see it). */
  clear(): void {
    this.records.clear()
    this.hashes.clear()
    this.reads.clear()
  }
}

/** The API key records of this isolate, in `services.caches`. */
export const KEY_RECORDS = cacheKind('API key records', () => new KeyRecords(), (r) => r.clear())

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
 * `{conflict}` naming the places when two of them carry different keys, and `{malformed}` when the
 * Authorization header says Bearer but does not carry exactly one key (`Bearer`, `Bearer k1 k2`):
 * a key was meant, so it is refused as malformed rather than taken for no key (RFC 6750 §2.1).
 */
export function presentedKey(p: PresentedKeys): string | null | { conflict: string[] } | { malformed: 'Authorization' } {
  let bearer: string | undefined
  if (p.authorization && /^\s*Bearer(\s|$)/i.test(p.authorization)) {
    bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(p.authorization)?.[1]
    if (bearer === undefined) return { malformed: 'Authorization' }
  }
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

/** The 401's wording for a malformed Authorization header (HTTP routes and /mcp alike). */
export const MALFORMED_AUTHORIZATION = 'the Authorization header is malformed: send Authorization: Bearer <API_KEY>, one key after the word Bearer (or X-API-Key: <API_KEY>)'

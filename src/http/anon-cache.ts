import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, CachedAnswer } from './context'
import { during } from '../runtime/request-scope'
import { answerBody, answeredOutcome } from './answer'
import { countRows } from './envelope'
import { cacheKind } from '../runtime/isolate-caches'
import { slotIn, slotOf, tailWith } from './json-splice'

/** The longest key KV takes. */
const KV_KEY_MAX_BYTES = 512

/** Anonymous data refreshes at most every five minutes (docs/access.md). */
const ANON_BUCKET_MS = 5 * 60_000

/**
 * Parameters that never change the JSON answer: the key, and `format` (the cache holds JSON only; a
 * CSV answer is made from it after the cache, src/http/csv-answer.ts, so JSON and CSV callers share
 * one entry and neither can be served the other's form).
 */
const NOT_IN_KEY = new Set(['key', 'format'])

/** KV key of an anonymous answer: the path, the sorted query without {@link NOT_IN_KEY}, and the 5-minute bucket. */
function anonCacheKey(url: URL, now: number): string {
  const params = [...url.searchParams].filter(([k]) => !NOT_IN_KEY.has(k)).sort(([a, b], [c, d]) => (a === c ? (b < d ? -1 : 1) : a < c ? -1 : 1))
  return `anon:${url.pathname}?${new URLSearchParams(params)}#${Math.floor(now / ANON_BUCKET_MS)}`
}

/**
 * An answer's text as it is served again: the head through `"elapsed_ms":` and the tail after its
 * value with `"cached":true` (src/http/json-splice.ts), the answer's own text kept around this
 * call's `elapsed_ms`. An answer without one gets it, and `cached`, at its end.
 */
function prepare(text: string): CachedAnswer {
  const body = JSON.parse(text) as Record<string, unknown>
  const { head, tail } = Object.hasOwn(body, 'elapsed_ms') ? slotIn(text, body, 'elapsed_ms') : slotOf({ ...body, elapsed_ms: 0 }, 'elapsed_ms')
  return { ok: body.ok === true, rows: countRows(body.data), head, tail: tailWith(tail, { cached: true }) }
}

/**
 * This isolate's copy of the answers it read from or wrote to KV, under the same keys (so the same
 * five-minute buckets): a repeat costs no KV read. KV stays the tier shared between isolates.
 * First in, first out, bounded; keys of past buckets are never asked for again and age out.
 * One per `Services` (`services.caches`).
 */
class AnswersInMemory {
  private readonly answers = new Map<string, CachedAnswer>()

  get(key: string): CachedAnswer | undefined {
    return this.answers.get(key)
  }

  remember(key: string, answer: CachedAnswer): void {
    if (this.answers.has(key)) return
    if (this.answers.size >= MEMORY_MAX) this.answers.delete(this.answers.keys().next().value!)
    this.answers.set(key, answer)
  }

  clear(): void {
    this.answers.clear()
  }
}
const MEMORY_MAX = 500
const ANSWERS_IN_MEMORY = cacheKind('anonymous answers in memory', () => new AnswersInMemory(), (m) => m.clear())
const memoryOf = (c: Context<AppEnv>) => c.get('services').caches.of(ANSWERS_IN_MEMORY)

/** The cache key of this request, computed once per request. */
function keyOf(c: Context<AppEnv>): string {
  let key = c.get('anonKey')
  if (key === undefined) {
    key = anonCacheKey(new URL(c.req.url), c.get('services').now())
    c.set('anonKey', key)
  }
  return key
}

/**
 * The answer for this anonymous request if this isolate holds it in memory (never a KV read, so a
 * caller about to be refused costs nothing). Admission then counts its rows together with the call
 * in one Durable Object request, and the middleware below serves it.
 */
export function anonMemoryHit(c: Context<AppEnv>): CachedAnswer | undefined {
  if (c.get('tier') !== 'free') return undefined
  const hit = memoryOf(c).get(keyOf(c))
  if (hit) c.set('anonHit', hit)
  return hit
}

/** What is left of the request's five-minute bucket, as a shared cache may keep its answer. */
function publicFor(c: Context<AppEnv>): string {
  const now = c.get('services').now()
  return `public, max-age=${Math.max(1, Math.ceil((ANON_BUCKET_MS - (now % ANON_BUCKET_MS)) / 1000))}`
}

/**
 * Serves anonymous callers from KV `CACHE` (through {@link AnswersInMemory}): a hit within the same
 * five-minute bucket is answered without touching an upstream (`cached: true`, `elapsed_ms` of
 * this call); a miss runs the handler and stores an ok:true answer. Key holders always get
 * real-time data. Runs after admission, so cached answers still count against the anonymous limits.
 */
export const anonCache = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.get('tier') !== 'free') return next()
  const key = keyOf(c)
  let hit = c.get('anonHit')
  // KV refuses keys over 512 bytes (a long query, or unknown parameters): such answers are kept in memory only.
  const inKv = key.length * 3 <= KV_KEY_MAX_BYTES || new TextEncoder().encode(key).length <= KV_KEY_MAX_BYTES
  if (!hit && inKv) {
    const stored = await during('cache', c.env.CACHE.get(key))
    if (stored !== null) {
      hit = prepare(stored)
      memoryOf(c).remember(key, hit)
    }
  }
  if (hit) {
    const elapsed = Math.max(0, Math.round(performance.now() - c.get('startedAt')))
    c.header('X-Cache', 'HIT')
    c.header('Cache-Control', publicFor(c))
    return answerBody(c, `${hit.head}${elapsed}${hit.tail}`, { ok: hit.ok, rows: hit.rows }, { 'content-type': 'application/json' })
  }
  await next()
  if (c.res.status === 200 && answeredOutcome(c)?.ok) {
    const text = await c.res.clone().text()
    memoryOf(c).remember(key, prepare(text))
    c.header('X-Cache', 'MISS')
    c.header('Cache-Control', publicFor(c))
    // A little over the bucket so a late read in the same bucket still hits; the bucket in the key bounds staleness.
    if (inKv) c.executionCtx.waitUntil(c.env.CACHE.put(key, text, { expirationTtl: Math.ceil(ANON_BUCKET_MS / 1000) + 60 }))
  }
}

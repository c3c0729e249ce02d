import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from './context'
import { countRows, recordOutcome } from './envelope'

/** Anonymous data refreshes at most every five minutes (SPEC Limits). */
export const ANON_BUCKET_MS = 5 * 60_000

/** KV key of an anonymous answer: the path, the sorted query without `key`, and the 5-minute bucket. */
export function anonCacheKey(url: URL, now: number): string {
  const params = [...url.searchParams].filter(([k]) => k !== 'key').sort(([a, b], [c, d]) => (a === c ? (b < d ? -1 : 1) : a < c ? -1 : 1))
  return `anon:${url.pathname}?${new URLSearchParams(params)}#${Math.floor(now / ANON_BUCKET_MS)}`
}

/**
 * This isolate's copy of the answers it read from or wrote to KV, under the same keys (so the same
 * five-minute buckets): a repeat costs no KV read. KV stays the tier shared between isolates.
 * First in, first out, bounded; keys of past buckets are never asked for again and age out.
 */
const memory = new Map<string, string>()
const MEMORY_MAX = 500

function remember(key: string, text: string): void {
  if (memory.has(key)) return
  if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!)
  memory.set(key, text)
}

/** Forgets the in-memory copies (tests that start from an empty cache). */
export function clearAnonMemory(): void {
  memory.clear()
}

/** A stored answer, parsed, with the rows it will count against the anonymous daily cap. */
export interface CachedAnswer {
  body: Record<string, unknown>
  rows: number
}

function parseAnswer(text: string): CachedAnswer {
  const body = JSON.parse(text) as Record<string, unknown>
  return { body, rows: countRows(body.data) }
}

/**
 * The answer for this anonymous request if this isolate holds it in memory (never a KV read, so a
 * caller about to be refused costs nothing). Admission then counts its rows together with the call
 * in one Durable Object request, and the middleware below serves it.
 */
export function anonMemoryHit(c: Context<AppEnv>): CachedAnswer | undefined {
  if (c.get('tier') !== 'free') return undefined
  const text = memory.get(anonCacheKey(new URL(c.req.url), c.get('services').now()))
  if (text === undefined) return undefined
  const hit = parseAnswer(text)
  c.set('anonHit', hit)
  return hit
}

/**
 * Serves anonymous callers from KV `CACHE` (through {@link memory}): a hit within the same five-minute bucket is answered
 * without touching an upstream (`cached: true`, `elapsed_ms` of this call); a miss runs the
 * handler and stores an ok:true answer. Key holders always get real-time data. Runs after
 * admission, so cached answers still count against the anonymous limits.
 */
export const anonCache = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.get('tier') !== 'free') return next()
  const key = anonCacheKey(new URL(c.req.url), c.get('services').now())
  let hit = c.get('anonHit')
  if (!hit) {
    const stored = await c.env.CACHE.get(key)
    if (stored !== null) {
      remember(key, stored)
      hit = parseAnswer(stored)
    }
  }
  if (hit) {
    const { body } = hit
    recordOutcome(c, { ok: body.ok === true, rows: hit.rows })
    body.elapsed_ms = Math.max(0, Math.round(performance.now() - c.get('startedAt')))
    body.cached = true
    c.header('X-Cache', 'HIT')
    return c.json(body, 200)
  }
  await next()
  if (c.res.status === 200 && c.get('outcome')?.ok) {
    const text = await c.res.clone().text()
    remember(key, text)
    c.header('X-Cache', 'MISS')
    // A little over the bucket so a late read in the same bucket still hits; the bucket in the key bounds staleness.
    c.executionCtx.waitUntil(c.env.CACHE.put(key, text, { expirationTtl: Math.ceil(ANON_BUCKET_MS / 1000) + 60 }))
  }
}

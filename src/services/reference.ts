import type { Attempt } from '../channels/failover'
import type { ChannelName } from '../channels/types'
import { isoInstant, oldestAsOf } from '../domain/instant'
import { staleAllowed, type ReferenceCache, type StaleClass, type StaleOptions } from '../store/reference-cache'
import type { Ask, Body, ReferenceData, ReferenceRequest, ReferenceResult, StaleFields } from './types'
import { allSaidNothing, describeAttempts, upstreamFailure } from '../http/outcome'
import type { MarketDeps } from './market-deps'

/** What reference data needs of `Services`: the failover, the channels' context, the clock, the source label and the isolate's reference cache. */
type ReferenceDeps = Pick<MarketDeps, 'failover' | 'channelContext' | 'now' | 'sourcePrefix'> & { referenceCache: ReferenceCache }

/**
 * `services.reference` over the failover and clock of `deps`: answers the same for every caller, kept
 * for hours in this isolate and in KV, with stale-if-error (src/store/reference-cache.ts). The
 * shape is `ReferenceData` (src/services/types.ts).
 */
export function referenceData(deps: ReferenceDeps): ReferenceData {
  return {
    fetch: (c, key, chain, call, stale) => fetchReference(c, deps, key, chain, call, stale),
    withLastGood: (c, stale, body) => withLastGood(c, deps, stale, body),
    cached: async (c, key, make, ttlMs) => (await deps.referenceCache.cached(c.env.CACHE, key, deps.now(), make, ttlMs)).value,
  }
}

/** The fields of an answer served stale: fetched at `at`, served because of `failure`. */
function staleFields(at: number, now: number, failure: string): StaleFields {
  const hours = Math.max(0, Math.round((now - at) / 360_000) / 10)
  const as_of = isoInstant(at)
  return { stale: true, as_of, notice: `stale: every upstream failed just now (${failure}); this is the last good answer, fetched ${as_of} (${hours} h ago)` }
}

/**
 * One reference answer through the service-wide cache: on a miss, the channels of `chain` in turn
 * (the failover's order and breakers), and the first answer is kept for every caller. `key` must
 * name everything the answer depends on (resolved dates included). Failures are not cached. With
 * `stale`, when every channel fails (not when they all say "nothing") the last good answer is
 * served within its class's limit (src/store/reference-cache.ts `STALE_IF_ERROR`), with `stale`.
 */
async function fetchReference<T>(
  c: ReferenceRequest,
  services: ReferenceDeps,
  key: string,
  chain: readonly ChannelName[],
  call: Ask<T>,
  stale?: StaleOptions
): Promise<ReferenceResult<T>> {
  const now = services.now()
  let failed: Attempt[] = []
  const got = await services.referenceCache.cached<{ channel: ChannelName; value: T } | null>(
    c.env.CACHE,
    key,
    now,
    async () => {
      const r = await services.failover.run(key.split('?')[0], chain, (channel) => call(channel, services.channelContext))
      if (!r.ok) {
        failed = r.attempts
        return { value: null, keep: false }
      }
      return { value: { channel: r.channel, value: r.value }, keep: true }
    },
    undefined,
    // "Nothing" is an answer: only a failure may fall back to a stale copy.
    stale && { ...stale, serve: () => !allSaidNothing(failed) }
  )
  if (got.value) {
    const fresh = { ok: true as const, value: got.value.value, source: services.sourcePrefix + got.value.channel, as_of: isoInstant(got.at) }
    return got.stale ? { ...fresh, stale: staleFields(got.at, now, describeAttempts(failed)) } : fresh
  }
  return { ok: false, source: 'none', ...upstreamFailure(failed) }
}

/** A route answered on every call keeps its last good copy at most this often per isolate. */
const KEEP_LAST_GOOD_EVERY_MS = 10 * 60_000

/**
 * Stale-if-error for a body a route computes on every call (not through the reference cache): an
 * ok body is kept as the last good copy of `stale.key`; a body of code `UPSTREAM_UNAVAILABLE` is
 * replaced by that copy, with {@link StaleFields}, while its class allows (`STALE_IF_ERROR`).
 * Anything else (NO_DATA, a 422) is returned as it is.
 */
async function withLastGood<B extends Body>(c: ReferenceRequest, services: ReferenceDeps, stale: { cls: StaleClass; key: string }, body: B): Promise<B> {
  const now = services.now()
  const kv = c.env.CACHE
  if (body.ok) {
    c.executionCtx.waitUntil(services.referenceCache.keepLastGoodEvery(kv, stale.key, { at: now, value: body }, KEEP_LAST_GOOD_EVERY_MS))
    return body
  }
  if (body.code !== 'UPSTREAM_UNAVAILABLE') return body
  const last = await services.referenceCache.lastGood<B>(kv, stale.key)
  if (!last || !staleAllowed(stale.cls, last.at, now)) return body
  const fields = staleFields(last.at, now, String(body.error ?? 'no answer'))
  const notice = typeof last.value.notice === 'string' ? `${fields.notice}; ${last.value.notice}` : fields.notice
  return { ...last.value, ...fields, notice }
}

/**
 * The envelope fields when any of `results` was served stale: `stale: true`, `as_of` of the oldest
 * copy served, and their notices in one (before `notice`, the route's own, when given); only
 * `notice` when all are fresh. Spread after the route's own `as_of`.
 */
export function staleOf(results: ReadonlyArray<ReferenceResult<unknown>>, notice?: string): { stale?: true; as_of?: string; notice?: string } {
  const stale = results.flatMap((r) => (r.ok && r.stale ? [r.stale] : []))
  if (stale.length === 0) return notice ? { notice } : {}
  const notices = [...new Set(stale.map((s) => s.notice))]
  return { stale: true, as_of: oldestAsOf(stale.map((s) => s.as_of)), notice: [...notices, ...(notice ? [notice] : [])].join('; ') }
}

import type { Context, MiddlewareHandler } from 'hono'
import { anonMemoryHit } from '../http/anon-cache'
import { settledOutcome } from '../http/answer'
import { ApiError } from '../http/api-error'
import { DEADLINE_CODE } from '../http/deadline'
import type { AppEnv } from '../http/context'
import { holdReservation, markStage, type Settle } from '../runtime/request-scope'
import { anonShardOf, type AnonGuard } from './anon-guard'
import { ANON_LEASES } from './anon-lease'
import { LEASE } from './lease'
import { canonicalIp } from './ip'
import type { RateWindow } from './rate-window'
import { KEY_LEASES, keyGuardOf } from './key-lease'
import { KEY_RECORDS, MALFORMED_AUTHORIZATION, presentedKey } from './key-lookup'
import { howToGetAKey } from './keys'
import { issueChallenge, powSecret, verifyProof } from './pow'
import { fromZodIssues, mayRepeatParams, repeatedParams, ValidationError } from '../http/validation'
import type { AdmissionOptions, PolicyRefinement, Prefetch } from './admission-options'
import { TIER_LIMITS, tierRank, type AccessPolicy } from './tiers'

/**
 * Admission (docs/access.md) for one route:
 * identify the key (401 when unknown or revoked), validate the query with the route's schema and
 * `check` (422: a value no tier may use is refused alike for every caller), then 401 when a
 * pro-group route has no key, check the tier (403 naming the tier needed), the route's
 * `tierCheck` (422: its per-tier caps), reserve the call in the caller's Durable Object — KeyGuard per
 * key, or a slice of the key's minute it leased to this isolate (src/access/key-lease.ts);
 * AnonGuard shard per IP — (403 IP not allowed or pack exhausted, 429 limits with Retry-After and,
 * for anonymous callers, a fresh proof-of-work challenge), run the handler, then settle in
 * `waitUntil` from the outcome its answer carries (src/http/answer.ts): a call that ended ok:false
 * (or never produced an envelope, e.g. a 422) is refunded.
 * A route's `prefetch` starts after the tier check, beside the Durable Object request, and is
 * cancelled when the call is refused; an anonymous answer already in isolate memory is admitted
 * together with its rows, and for an address with a proof-of-work its shard may lease further such
 * calls to this isolate (src/access/anon-lease.ts).
 */
export interface PreAdmission {
  /** The route's query schema, run before admission so a 422 never reaches the counters. */
  query?: { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: readonly { code: string; path: PropertyKey[]; message: string }[] } } }
  check?: AdmissionOptions['check']
  tierCheck?: AdmissionOptions['tierCheck']
}

export function admit(
  policy: AccessPolicy,
  refine?: PolicyRefinement,
  opts: { anonCache?: boolean; prefetch?: Prefetch; validate?: PreAdmission } = {}
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const p: AccessPolicy = refine ? { ...policy, ...refine(c) } : policy
    const key = presentedKey({ authorization: c.req.header('authorization'), xApiKey: c.req.header('x-api-key'), query: keyParams(c) })
    if (key !== null && typeof key === 'object' && 'malformed' in key) throw new ApiError('KEY_INVALID', MALFORMED_AUTHORIZATION)
    if (key !== null && typeof key === 'object') {
      throw new ApiError('KEY_CONFLICT', `different API keys in ${key.conflict.join(' and ')}; send one key, in one place (Authorization: Bearer is recommended)`, { headers: key.conflict })
    }
    if (key !== null) {
      markStage('identify')
      await identify(c, key)
    }
    // An anonymous answer already in memory was made for exactly this query (the cache key is every
    // parameter), which therefore passed validation: do not parse it again on the hot path.
    const remembered = opts.anonCache && !c.get('keyHash') ? anonMemoryHit(c) : undefined
    // The query is validated before admission. A value no tier may use is a 422
    // naming it for every caller, never a 401 or 403 asking for a key or a tier that would not help.
    const query = opts.validate && !remembered ? await validateForEveryTier(c, opts.validate) : undefined
    if (key === null && p.group === 'keyed') {
      throw new ApiError('KEY_REQUIRED', `an API key is required for this endpoint: send Authorization: Bearer <API_KEY> (or X-API-Key: <API_KEY>, or ?key=<API_KEY>); no key yet? ${howToGetAKey(p.minTier)}`, {
        min_tier: p.minTier,
      })
    }
    const tier = c.get('tier')
    if (tierRank(tier) < tierRank(p.minTier) || p.excludeTiers?.includes(tier)) {
      const needs = p.excludeTiers?.includes(p.minTier) ? 'a higher tier' : `tier ${p.minTier} or above`
      const excluded = p.excludeTiers?.length ? ` (not ${p.excludeTiers.join(', ')})` : ''
      throw new ApiError('TIER_TOO_LOW', `this ${describe(c)} needs ${needs}${excluded}; your key is ${tier}`, { tier, min_tier: p.minTier })
    }
    // The route's rules that depend on the tier (caps), once the tier is known to be allowed.
    if (query) await opts.validate?.tierCheck?.(c, query)
    if (!p.counted) {
      markStage('handler')
      return next()
    }

    markStage('admit')
    const cancelPrefetch = opts.prefetch?.(c)
    let settle: Settle
    try {
      settle = c.get('keyHash') ? await admitKeyed(c, p) : await admitAnonymous(c, opts.anonCache === true)
    } catch (e) {
      cancelPrefetch?.()
      throw e
    }
    // Settled exactly once, by the end of the call or by the request's deadline (src/http/deadline.ts).
    const held = holdReservation(settle)
    if (!held) {
      cancelPrefetch?.()
      throw new ApiError(DEADLINE_CODE, 'the request deadline passed during admission; the call was refunded')
    }
    markStage('handler')
    await next()
    // From the outcome the answer carries (src/http/answer.ts); 101: a stream's WebSocket
    // (GET /v1/stream), admitted like a 200.
    const { outcome, ok, missing } = settledOutcome(c)
    const settling = held.end(ok, outcome.rows, outcome.units)
    if (settling) c.executionCtx.waitUntil(settling.catch((e) => console.error('settle failed', e)))
    if (missing) throw missing
  }
}

/** Every `?key=` value; the query is parsed only when it may hold one (most calls send the key in a header). */
function keyParams(c: Context<AppEnv>): string[] | undefined {
  const url = c.req.url
  const q = url.indexOf('?')
  return q >= 0 && (url.includes('key', q) || url.includes('%', q)) ? c.req.queries('key') : undefined
}

/**
 * Validation, the part of admission that holds whatever the caller's tier: the query schema and
 * the route's `check`. Returns the parsed query for the route's `tierCheck`.
 */
async function validateForEveryTier(c: Context<AppEnv>, v: PreAdmission): Promise<Record<string, unknown> | undefined> {
  if (!v.query) return undefined
  const repeated = mayRepeatParams(c.req.url) ? repeatedParams(c.req.queries(), paramsOf(v.query)) : []
  if (repeated.length) throw new ValidationError(repeated)
  const raw = c.req.query()
  const parsed = v.query.safeParse(raw)
  if (!parsed.success) throw new ValidationError(fromZodIssues(parsed.error.issues, 'query', raw))
  const query = parsed.data as Record<string, unknown>
  await v.check?.(c, query)
  // The handler's c.req.valid('query'): the route does not parse the query again (src/access/route.ts).
  c.req.addValidatedData('query', query)
  return query
}

/** The parameter names of a query schema (a zod object's shape), or undefined for another kind of schema. */
function paramsOf(schema: object): ReadonlySet<string> | undefined {
  let names = PARAMS.get(schema)
  if (!names) {
    const shape = (schema as { shape?: Record<string, unknown> }).shape
    if (!shape) return undefined
    PARAMS.set(schema, (names = new Set(Object.keys(shape))))
  }
  return names
}
const PARAMS = new WeakMap<object, ReadonlySet<string>>()

const describe = (c: Context<AppEnv>) => `${c.req.method} ${c.req.path}` + (c.req.query('period') ? ` with period ${c.req.query('period')}` : '')

async function identify(c: Context<AppEnv>, key: string): Promise<void> {
  const { hash, record } = await c.get('services').caches.of(KEY_RECORDS).lookup(c.env.KEYS, key)
  if (!record) throw new ApiError('KEY_INVALID', 'unknown API key; check it, or create one with `npm run key -- create --tier <tier>`')
  if (record.status !== 'active') throw new ApiError('KEY_INVALID', 'this API key has been revoked')
  c.set('tier', record.tier)
  c.set('keyHash', hash)
  c.set('packUnits', record.pack_units ?? null)
}

function setRateHeaders(c: Context<AppEnv>, w: RateWindow): void {
  c.header('X-RateLimit-Limit', String(w.limit))
  c.header('X-RateLimit-Remaining', String(w.remaining))
  c.header('X-RateLimit-Reset', String(w.resetSeconds))
}

function clientIp(c: Context<AppEnv>): string {
  const raw = c.get('clientIp')
  return canonicalIp(raw) ?? raw
}

async function admitKeyed(c: Context<AppEnv>, p: AccessPolicy): Promise<Settle> {
  const limits = TIER_LIMITS[c.get('tier')]
  const hash = c.get('keyHash')!
  const ns = c.env.KEY_GUARD // not the context: a settlement may outlive the request by a report's delay
  const r = await c.get('services').caches.of(KEY_LEASES).admit(() => keyGuardOf(ns, hash), hash, {
    now: c.get('services').now(),
    ip: clientIp(c),
    endpoint: endpointName(c),
    units: p.cost,
    heavy: p.heavy === true,
    perMinute: limits.perMinute,
    heavyPerDay: limits.heavyPerDay,
    packUnits: c.get('packUnits') ?? null,
  })
  setRateHeaders(c, r.window)
  if (!r.ok) {
    const retry: Record<string, string> = r.retryAfter !== undefined ? { 'Retry-After': String(r.retryAfter) } : {}
    const extra = { limit: r.window.limit, ...(r.retryAfter !== undefined ? { retry_after: r.retryAfter } : {}) }
    switch (r.reason) {
      case 'ip':
        throw new ApiError('IP_NOT_ALLOWED', r.detail, { ip: clientIp(c) })
      case 'pack':
        throw new ApiError('PACK_EXHAUSTED', r.detail)
      case 'heavy':
        throw new ApiError('HEAVY_QUOTA', r.detail, extra, retry)
      case 'minute':
        throw new ApiError('RATE_LIMITED', r.detail, extra, retry)
    }
  }
  return (ok, _rows, units) => r.settle(ok, units)
}

async function admitAnonymous(c: Context<AppEnv>, cached: boolean): Promise<Settle> {
  const services = c.get('services')
  const now = services.now()
  const ip = clientIp(c)
  const leases = services.caches.of(ANON_LEASES)
  const secret = powSecret(c.env, services.simulated)
  let powUntil: number | null = null
  const proof = c.req.header('x-pow')
  if (proof && secret) {
    const v = await verifyProof(secret, proof, ip, now)
    if (v.ok) powUntil = v.expiresAtMs
  }
  const hit = cached ? (c.get('anonHit') ?? anonMemoryHit(c)) : undefined
  // An answer in memory for an address with a proof: a call its shard leased ahead needs no request.
  const leasable = hit !== undefined && powUntil !== null
  if (leasable) {
    const leased = leases.take(ip, now, hit.rows, powUntil)
    if (leased) {
      setRateHeaders(c, leased.window)
      return (ok, rows) => {
        if (!ok || rows !== hit.rows) leased.refund()
      }
    }
  }
  const stub = c.env.ANON_GUARD.getByName(anonShardOf(ip)) as DurableObjectStub<AnonGuard>
  const returned = leases.release(ip, now)
  const r = await stub.admit({ now, ip, kind: c.get('callerKind'), powUntil, rows: hit?.rows ?? 0, ...(leasable ? { lease: LEASE.maxCalls } : {}), ...(returned ? { returned } : {}) })
  if (r.ok && r.leased) leases.keep(ip, { win: r.reservation.win, day: r.reservation.day, limit: r.window.limit, ...r.leased })
  setRateHeaders(c, r.window)
  if (!r.ok) {
    // A proof raises the per-minute allowance, not the daily rows: only a minute refusal carries one.
    const challenge = secret && r.reason === 'minute' ? await issueChallenge(secret, ip, 0, now) : undefined
    throw new ApiError(
      r.reason === 'rows' ? 'ROWS_EXHAUSTED' : 'RATE_LIMITED',
      r.detail,
      { limit: r.window.limit, retry_after: r.retryAfter, ...(challenge ? { challenge } : {}) },
      { 'Retry-After': String(r.retryAfter) }
    )
  }
  return (ok, rows) => (!ok || rows !== r.reservation.rows ? stub.settle(r.reservation, ok, rows) : undefined)
}

/** The usage key of an endpoint: its path after /v1/ (`quote`, `kline`, `ip-whitelist`). */
const endpointName = (c: Context<AppEnv>) => c.req.path.replace(/^\/v1\//, '').replace(/\/+$/, '') || c.req.path

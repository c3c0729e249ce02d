import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../http/context'
import { anonCache } from '../http/anon-cache'
import { admit } from './admit'
import { DEADLINE_ERROR, ErrorSchema } from '../routes/schemas'
import type { AccessPolicy } from './tiers'

const errorBody = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } })

/** The refusals admission can answer for a route of this policy, documented on every guarded route. */
function accessErrors(policy: AccessPolicy) {
  return {
    400: errorBody('KEY_CONFLICT: different keys in Authorization, X-API-Key and ?key='),
    401: errorBody(policy.group === 'pro' ? 'KEY_REQUIRED (no key) or KEY_INVALID (unknown or revoked key)' : 'KEY_INVALID: an unknown or revoked key'),
    ...(policy.counted || policy.group === 'pro' || policy.minTier !== 'free'
      ? { 403: errorBody('TIER_TOO_LOW, IP_NOT_ALLOWED (the key\'s allow-list) or PACK_EXHAUSTED') }
      : {}),
    ...(policy.counted ? { 429: errorBody('RATE_LIMITED (per-minute window), HEAVY_QUOTA or ROWS_EXHAUSTED; Retry-After says when to retry; anonymous refusals carry a proof-of-work `challenge`') } : {}),
    ...DEADLINE_ERROR,
  }
}

/** Free endpoints: anonymous (`{}`) or with a key. */
export const FREE_SECURITY: Array<Record<string, string[]>> = [{}, { bearerAuth: [] }, { apiKeyHeader: [] }, { queryKey: [] }]
/** Pro-group endpoints: a key is required. */
export const KEY_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { queryKey: [] }]

/**
 * A request-dependent tightening of a route's policy: /v1/kline needs tier standard for minute
 * periods. Runs before admission, after query validation has not yet happened, so it reads the
 * raw query.
 */
export type PolicyRefinement = (c: Context<AppEnv>) => Partial<AccessPolicy> | undefined

/**
 * `createRoute` with the route's access policy attached: the admission middleware enforces it and
 * the OpenAPI document shows it (`x-min-tier`, `x-cost`, `x-heavy`, security), from one object.
 */
export interface GuardOptions<Q = Record<string, unknown>> {
  refine?: PolicyRefinement
  /**
   * The route's own rules beyond its zod schema (the calendar, a code's kind, a period the code
   * never has): values no tier may use. Runs with the schema, once the key is identified and before
   * the key-required and tier checks (DESIGN section 4), so such a value is a 422 naming the field
   * for every caller, never a 401 or 403 asking for a key or a tier that would not help, and a call
   * that ends in 422 never touches the counters. Throws a ValidationError for the 422. A rule a
   * higher tier escapes (a per-tier cap) goes in {@link tierCheck} instead, so a caller below the
   * route's tier hears which tier it needs. Handlers may run the same pure check again to get its result.
   */
  check?: (c: Context<AppEnv>, query: Q) => void | Promise<void>
  /** The rules that depend on the caller's tier (per-tier caps): after the key and tier checks, before the call is admitted. */
  tierCheck?: (c: Context<AppEnv>, query: Q) => void | Promise<void>
  /** Answer anonymous callers from the 5-minute KV cache (quote and kline). */
  anonCache?: boolean
  /** Work to start while the call is being admitted (see {@link Prefetch}). */
  prefetch?: Prefetch
}

/**
 * Starts a read the handler will need, once the key and tier checks passed, so that it runs
 * while the Durable Object admits the call instead of after it. Returns how to cancel the read
 * when admission refuses the call, or nothing when it started none.
 */
export type Prefetch = (c: Context<AppEnv>) => (() => void) | undefined

/** The parsed query type of a route config. */
export type QueryOf<R extends RouteConfig> = R['request'] extends { query: infer S extends z.ZodType } ? z.output<S> : Record<string, unknown>

export function guardedRoute<R extends RouteConfig>(policy: AccessPolicy, config: R, opts: GuardOptions<QueryOf<R>> = {}) {
  const validate = { query: config.request?.query as z.ZodType | undefined, check: opts.check as GuardOptions['check'], tierCheck: opts.tierCheck as GuardOptions['tierCheck'] }
  return createRoute({
    ...config,
    responses: { ...accessErrors(policy), ...config.responses },
    security: policy.group === 'free' ? FREE_SECURITY : KEY_SECURITY,
    'x-min-tier': policy.minTier,
    'x-cost': policy.cost,
    ...(policy.excludeTiers?.length ? { 'x-excluded-tiers': policy.excludeTiers } : {}),
    ...(policy.heavy ? { 'x-heavy': true } : {}),
    middleware: opts.anonCache
      ? ([admit(policy, opts.refine, { anonCache: true, validate }), anonCache()] as const)
      : ([admit(policy, opts.refine, { prefetch: opts.prefetch, validate })] as const),
  })
}

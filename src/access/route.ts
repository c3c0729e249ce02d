import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi'
import { anonCache } from '../http/anon-cache'
import { admit } from './admit'
import type { GuardOptions } from './guard-options'
import { DEADLINE_ERROR, ErrorSchema } from '../http/envelope-schema'
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
const FREE_SECURITY: Array<Record<string, string[]>> = [{}, { bearerAuth: [] }, { apiKeyHeader: [] }, { queryKey: [] }]
/** Pro-group endpoints: a key is required. */
const KEY_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { queryKey: [] }]

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

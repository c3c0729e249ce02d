import { createRoute, type RouteConfig } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv } from '../http/context'
import { anonCache } from '../http/anon-cache'
import { admit } from './admit'
import type { AccessPolicy } from './tiers'

/** Free endpoints: anonymous (`{}`) or with a key. */
export const FREE_SECURITY: Array<Record<string, string[]>> = [{}, { bearerAuth: [] }, { queryKey: [] }]
/** Pro-group endpoints: a key is required. */
export const KEY_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { queryKey: [] }]

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
export interface GuardOptions {
  refine?: PolicyRefinement
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

export function guardedRoute<R extends RouteConfig>(policy: AccessPolicy, config: R, opts: GuardOptions = {}) {
  return createRoute({
    ...config,
    security: policy.group === 'free' ? FREE_SECURITY : KEY_SECURITY,
    'x-min-tier': policy.minTier,
    'x-cost': policy.cost,
    ...(policy.excludeTiers?.length ? { 'x-excluded-tiers': policy.excludeTiers } : {}),
    ...(policy.heavy ? { 'x-heavy': true } : {}),
    middleware: opts.anonCache
      ? ([admit(policy, opts.refine, { anonCache: true }), anonCache()] as const)
      : ([admit(policy, opts.refine, { prefetch: opts.prefetch })] as const),
  })
}

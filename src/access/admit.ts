import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/context'
import type { PolicyRefinement } from './route'
import type { AccessPolicy } from './tiers'

/**
 * Admission (DESIGN section 4, stages 3, 4 and 7): identify the key, check the route's policy,
 * reserve the cost in the caller's Durable Object, run the handler, settle (refund on ok:false).
 * IN PROGRESS (issue 3): currently only passes through.
 */
export function admit(_policy: AccessPolicy, _refine?: PolicyRefinement): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    await next()
  }
}

/** What a admitted route may add to its access policy: refinements, checks, the anonymous cache, a prefetch. */
import type { Context } from 'hono'
import type { AppEnv } from '../http/context'
import type { CsvTable } from '../http/csv-answer'
import type { AccessPolicy } from './tiers'

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
export interface AdmissionOptions<Q = Record<string, unknown>> {
  refine?: PolicyRefinement
  /**
   * The route's own rules beyond its zod schema (the calendar, a code's kind, a period the code
   * never has): values no tier may use. Runs with the schema, once the key is identified and before
   * the key-required and tier checks (docs/access.md), so such a value is a 422 naming the field
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
  /** A tabular route: the table of its answer, which `format=csv` / `Accept: text/csv` answers as CSV (src/http/csv-answer.ts). */
  csv?: CsvTable
}

/**
 * Starts a read the handler will need, once the key and tier checks passed, so that it runs
 * while the Durable Object admits the call instead of after it. Returns how to cancel the read
 * when admission refuses the call, or nothing when it started none.
 */
export type Prefetch = (c: Context<AppEnv>) => (() => void) | undefined

import { createRoute, type OpenAPIHono, type RouteConfig, type z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../http/context'
import { anonCache } from '../http/anon-cache'
import { csvAnswer, csvCheck, csvNegotiation, jsonOnly, withCsvContent, withCsvParams, withJsonOnlyFormat } from '../http/csv-answer'
import { admit } from './admit'
import { fromZodIssues, ValidationError } from '../http/validation'
import type { AdmissionOptions } from './admission-options'
import { COMMON_ERRORS, DEADLINE_ERROR, ErrorSchema } from '../http/envelope-schema'
import type { AccessPolicy } from './tiers'

const errorBody = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } })

/** The refusals admission can answer for a route of this policy, documented on every admitted route. */
function accessErrors(policy: AccessPolicy) {
  return {
    400: errorBody('KEY_CONFLICT: different keys in Authorization, X-API-Key and ?key='),
    401: errorBody(policy.group === 'keyed' ? 'KEY_REQUIRED (no key) or KEY_INVALID (unknown or revoked key, or a malformed Authorization header)' : 'KEY_INVALID: an unknown or revoked key, or a malformed Authorization header (`Bearer` without exactly one key)'),
    ...(policy.counted || policy.group === 'keyed' || policy.minTier !== 'free'
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

/**
 * `createRoute` with the route's access policy enforced (admission middleware) and documented.
 * With `opts.csv` the route is tabular: it also takes `format` (and `section` when sectioned),
 * documents `text/csv` beside its JSON, and answers CSV when asked (src/http/csv-answer.ts); without
 * it the route takes `format=json` only, and refuses any other form with a 422.
 */
export function admittedRoute<R extends RouteConfig>(policy: AccessPolicy, config: R, opts: AdmissionOptions<QueryOf<R>> = {}) {
  const { csv } = opts
  // `format` on every route: json or csv on a tabular one, json only on the others (src/http/csv-answer.ts).
  const query = csv ? withCsvParams(config.request?.query, csv) : withJsonOnlyFormat(config.request?.query)
  const check = csv
    ? async (c: Parameters<NonNullable<AdmissionOptions['check']>>[0], q: Record<string, unknown>) => {
        csvCheck(c, q, csv)
        await (opts.check as AdmissionOptions['check'])?.(c, q)
      }
    : (opts.check as AdmissionOptions['check'])
  const validate = { query: query as z.ZodType | undefined, check, tierCheck: opts.tierCheck as AdmissionOptions['tierCheck'] }
  const guard = opts.anonCache
    ? [admit(policy, opts.refine, { anonCache: true, validate }), ...(csv ? [csvAnswer(csv)] : []), anonCache()]
    : [admit(policy, opts.refine, { prefetch: opts.prefetch, validate }), ...(csv ? [csvAnswer(csv)] : [])]
  const route = createRoute({
    ...config,
    request: { ...config.request, query },
    // Every route takes `format`, so every route may answer 422 (its own description kept when it has one).
    responses: { ...accessErrors(policy), 422: COMMON_ERRORS[422], ...config.responses, ...(csv ? { 200: withCsv200(config.responses[200], csv) } : {}) },
    security: policy.group === 'open' ? FREE_SECURITY : KEY_SECURITY,
    'x-min-tier': policy.minTier,
    'x-cost': policy.cost,
    ...(policy.excludeTiers?.length ? { 'x-excluded-tiers': policy.excludeTiers } : {}),
    ...(policy.heavy ? { 'x-heavy': true } : {}),
    // A tabular route negotiates its form first, so every answer (refusals too) carries Vary: Accept.
    middleware: [...(csv ? [csvNegotiation(), ...guard] : [jsonOnly(), ...guard]), admittedQuery(query as z.ZodType)] as [MiddlewareHandler<AppEnv>],
  })
  GUARDED.add(route)
  return route
}

/** The routes made by {@link admittedRoute}: admission validates their query ({@link registerAdmitted}). */
const GUARDED = new WeakSet<object>()

/**
 * Registers a route made by {@link admittedRoute} on `app`, in place of `app.openapi`: without the
 * query validator `app.openapi` adds for `request.query`, since admission has already parsed the
 * query with the same schema (before it counts the call, src/access/admit.ts) and handed the result
 * to `c.req.valid('query')`; parsing it again was wasted work on every call. The OpenAPI document
 * is registered from the route, query included, as `app.openapi` would.
 */
export function registerAdmitted<R extends RouteConfig>(app: OpenAPIHono<AppEnv>, route: R, handler: Parameters<typeof app.openapi<R>>[1]): void {
  if (!GUARDED.has(route)) throw new Error(`${route.method.toUpperCase()} ${route.path} was not made by admittedRoute: register it with app.openapi`)
  if (!route.request?.query) {
    app.openapi(route, handler)
    return
  }
  const { middleware: _middleware, hide, ...documented } = route as R & { hide?: boolean }
  if (!hide) app.openAPIRegistry.registerPath(documented)
  app.openapi({ ...route, hide: true, request: { ...route.request, query: undefined } }, handler as never)
}

/**
 * Last of a admitted route's middleware: the parsed query for the handler when admission did not
 * parse it (an anonymous answer served from memory skips the parse and never reaches the handler;
 * this keeps the handler's query whatever path led there). Refused as admission refuses, with a 422.
 */
const admittedQuery = (schema: z.ZodType): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.req.valid('query' as never) === undefined) {
    const raw = c.req.query()
    const parsed = schema.safeParse(raw)
    if (!parsed.success) throw new ValidationError(fromZodIssues(parsed.error.issues, 'query', raw))
    c.req.addValidatedData('query', parsed.data as object)
  }
  await next()
}

/** A tabular route's 200 response with `text/csv` beside its JSON. */
function withCsv200(ok: RouteConfig['responses'][number], csv: NonNullable<AdmissionOptions['csv']>) {
  if (!ok || !('content' in ok) || !ok.content) throw new Error('a CSV route documents its 200 JSON answer')
  return { ...ok, content: withCsvContent(ok.content, csv) }
}

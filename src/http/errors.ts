import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ApiError } from './api-error'
import type { AppEnv } from './context'
import { ECHO_MAX_CHARS, ValidationError, validationBody, type ValidationIssue } from './validation'

/** The one place that turns anything thrown into the API's error contract. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ValidationError) return c.json(validationBody(err.issues.map((i) => withRawInput(c, i))), 422)
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v)
    return c.json(err.toBody(), err.status as 401)
  }
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ error: err.message || 'bad request', code: 'BAD_REQUEST' }, err.status)
  }
  // A bug: log it with the request id, answer without internals.
  const requestId = c.get('requestId')
  console.error(`[${requestId}] unhandled`, err)
  return c.json({ error: 'internal error; please report the request_id', code: 'INTERNAL', request_id: requestId }, 500)
}

/**
 * A query issue's `input` is always what the caller sent, as a string (FastAPI echoes the raw
 * query value), whichever check found it and whatever it parsed the value into.
 */
function withRawInput(c: Context<AppEnv>, issue: ValidationIssue): ValidationIssue {
  if (issue.loc[0] !== 'query' || typeof issue.loc[1] !== 'string') return issue
  const raw = c.req.query(issue.loc[1])
  return { ...issue, input: raw ?? null }
}

/** A path as an error names it: cut to the echo bound (src/http/validation.ts), as every echo of what was sent. */
const echoedPath = (path: string) => (path.length <= ECHO_MAX_CHARS ? path : `${path.slice(0, ECHO_MAX_CHARS)}… (${path.length} characters)`)

export const notFound: NotFoundHandler<AppEnv> = (c: Context<AppEnv>) =>
  c.json({ error: `no route ${echoedPath(c.req.method)} ${echoedPath(c.req.path)}; see /openapi.json`, code: 'NOT_FOUND' }, 404)

/**
 * The not-found handler for an application with these routes: a public path (`/v1/…`) called
 * with a method it does not take is 405 METHOD_NOT_ALLOWED with `Allow`; anything else is 404.
 */
export function notFoundOrWrongMethod(routes: ReadonlyArray<{ method: string; path: string }>): NotFoundHandler<AppEnv> {
  const methods = new Map<string, Set<string>>()
  for (const r of routes) {
    if (r.method === 'ALL' || !r.path.startsWith('/v1/') || r.path.includes(':') || r.path.includes('*')) continue
    const set = methods.get(r.path) ?? new Set<string>()
    set.add(r.method)
    if (r.method === 'GET') set.add('HEAD')
    methods.set(r.path, set)
  }
  return (c) => {
    const allowed = methods.get(c.req.path)
    if (!allowed || allowed.has(c.req.method)) return notFound(c)
    const allow = [...allowed].join(', ')
    c.header('Allow', allow)
    return c.json({ error: `${c.req.path} takes ${allow}, not ${c.req.method}`, code: 'METHOD_NOT_ALLOWED' }, 405)
  }
}

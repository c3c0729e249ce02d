import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'

/** Any origin, no credentials: keys travel in a header the page sets, never in cookies. */
const OPTIONS = {
  origin: '*',
  allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  // Mcp-Protocol-Version: what an MCP client in a browser sends to POST /mcp after initializing.
  allowHeaders: ['Authorization', 'X-API-Key', 'X-PoW', 'Content-Type', 'Mcp-Protocol-Version'],
  exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'WWW-Authenticate'],
  maxAge: 86400,
}

const preflight = cors(OPTIONS)
const EXPOSED = OPTIONS.exposeHeaders.join(',')

/** The CORS headers of every non-preflight answer (also for answers built outside Hono: the deadline's 504). */
export const CORS_HEADERS: Readonly<Record<string, string>> = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED }

/**
 * CORS for a public API. Preflights are Hono's `cors()`. For every other request this sets the
 * same two headers with `c.header()`, because Hono's `cors()` sets them on `c.res` before the
 * handler runs, which makes Hono build a placeholder Response and then copy it into the real one:
 * about 5% of a keyed /v1/quote's worker time in a CPU profile.
 */
export const publicCors = (): MiddlewareHandler => async (c, next) => {
  if (c.req.method === 'OPTIONS') return preflight(c, next)
  c.header('Access-Control-Allow-Origin', '*')
  c.header('Access-Control-Expose-Headers', EXPOSED)
  await next()
}

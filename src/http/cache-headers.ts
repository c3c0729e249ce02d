import type { MiddlewareHandler } from 'hono'

/**
 * The caching and sniffing headers of every `/v1` answer: `X-Content-Type-Options: nosniff`, and
 * `Cache-Control: no-store` unless the route says otherwise (the anonymous answer cache,
 * src/http/anon-cache.ts, marks its answers `public` for what is left of their five-minute bucket).
 * Keyed answers are real time and per caller, so nothing may keep them. Set with `c.header()`
 * before the handler, as the CORS headers are (see src/http/cors.ts for why).
 */
export const apiHeaders = (): MiddlewareHandler => async (c, next) => {
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Cache-Control', 'no-store')
  await next()
}

/** The headers of answers built outside Hono (the deadline's 504, an escaped error's 500). */
export const API_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' }

/**
 * Runs a tool's `/v1` request through the application itself, as an HTTP caller's request would
 * run: the same middleware, admission (key, tier, per-minute window, heavy quota, counting, refund)
 * and handler. Only the caller's key and address travel with it, so the call is the caller's.
 */
import type { QueryParams } from './tools'

/** The application's fetch, with the bindings and execution context of the request that carried the tool call. */
export type AppFetch = (request: Request) => Response | Promise<Response>

/** A dispatched call's answer: its HTTP status and parsed JSON body (errors stay JSON on every route). */
export interface RouteAnswer {
  status: number
  body: unknown
  /** `Retry-After` of a refusal, in seconds. */
  retryAfter?: number
}

/** Headers of the MCP request a dispatched call keeps: the client address (allow-lists, anonymous shards) and request id. */
const FORWARDED = ['cf-connecting-ip', 'x-request-id'] as const

/** The GET request a tool call makes, at the MCP request's origin, carrying the caller's key in the recommended header. */
export function routeRequest(mcpRequest: Request, key: string, path: string, query: QueryParams): Request {
  const url = new URL(path, mcpRequest.url)
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value))
  const headers = new Headers({ authorization: `Bearer ${key}`, accept: 'application/json' })
  for (const name of FORWARDED) {
    const value = mcpRequest.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  return new Request(url, { method: 'GET', headers })
}

/** Sends the request through the application and reads its answer. */
export async function dispatch(fetch: AppFetch, request: Request): Promise<RouteAnswer> {
  const res = await fetch(request)
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (no route answers so today): the text is shown as it is.
  }
  const retry = Number(res.headers.get('retry-after'))
  return { status: res.status, body, ...(res.headers.has('retry-after') && Number.isFinite(retry) ? { retryAfter: retry } : {}) }
}

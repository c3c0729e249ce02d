/**
 * A deadline for the whole request: every request is answered within REQUEST_DEADLINE_MS (src/runtime/request-scope.ts),
 * whatever hangs underneath (a Durable Object call, a KV or R2 read, an upstream that ignores its
 * AbortSignal, a promise shared with another request). Past the bound the caller gets HTTP 504
 * with an `ok:false` envelope, code `DEADLINE_EXCEEDED`, naming the `stage` still running; the
 * call is not counted (admission's reservation is refunded, exactly once).
 *
 * Why the race sits around `app.fetch` and not in a Hono middleware: a response a middleware
 * returns becomes the context's response, and the late handler keeps writing to that context
 * (`c.header()` re-wraps the response around the same body stream). Racing outside Hono hands the
 * caller a Response the late pipeline never sees. Code inside marks its stage in the request's
 * scope (src/runtime/request-scope.ts) without being passed the context.
 */
import type { Context } from 'hono'
import { getPath } from 'hono/utils/url'
import type { AppEnv } from './context'
import type { ErrorCode } from './api-error'
import { API_HEADERS } from './cache-headers'
import { CORS_HEADERS } from './cors'
import { currentScope, RequestScope, runInScope } from '../runtime/request-scope'

/** The machine code of an answer cut off by the deadline. */
export const DEADLINE_CODE = 'DEADLINE_EXCEEDED' satisfies ErrorCode

/** A request's scope with its bound: the Hono context it answers for, and the 504 once the bound passed. */
export class RequestDeadline extends RequestScope {
  /**
   * The Hono context, for the tier and request id of the 504. Held weakly, and everything else is
   * let go when the request ends (see {@link release}): workerd keeps an AsyncLocalStorage frame,
   * and so this object, alive after its request (measured: about 20 KB a request while this held
   * the context strongly, a leak that took the bench's worker to its heap limit).
   */
  private contextRef: WeakRef<Context<AppEnv>> | undefined

  set context(c: Context<AppEnv> | undefined) {
    this.contextRef = c ? new WeakRef(c) : undefined
  }

  get context(): Context<AppEnv> | undefined {
    return this.contextRef?.deref()
  }

  override release(): void {
    this.contextRef = undefined
    super.release()
  }

  /** The deadline passed: refund what is held, and build the answer. */
  expire(path: string, elapsedMs: number): Response {
    const stage = this.expireScope()
    const c = this.context
    const body = {
      ok: false,
      endpoint: path.replace(/^\/v1\//, '').replace(/\/+$/, '') || path,
      tier: c?.get('tier') ?? 'free',
      elapsed_ms: Math.round(elapsedMs),
      source: 'none',
      data: null,
      code: DEADLINE_CODE,
      stage,
      error: `no answer within ${this.ms} ms (still running: ${stage}); this call was not counted, please retry`,
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', ...CORS_HEADERS, ...API_HEADERS }
    const requestId = c?.get('requestId')
    if (requestId) headers['X-Request-Id'] = requestId
    return new Response(JSON.stringify(body), { status: 504, headers })
  }
}

/** Lets the deadline read the request's tier and id (first middleware). */
export const deadlineContext = () => async (c: Context<AppEnv>, next: () => Promise<void>) => {
  const d = currentScope()
  if (d instanceof RequestDeadline) d.context = c
  await next()
}

type Fetch<E> = (request: Request, env?: E, ctx?: ExecutionContext) => Response | Promise<Response>

/** A JSON 500 for an error no handler caught: logged with the request id, no internals in the body. */
function escaped(err: unknown, d: RequestDeadline): Response {
  const requestId = d.context?.get('requestId')
  console.error(`[${requestId ?? 'no request id'}] escaped the application`, err)
  const headers: Record<string, string> = { 'content-type': 'application/json', ...CORS_HEADERS, ...API_HEADERS }
  if (requestId) headers['X-Request-Id'] = requestId
  return new Response(JSON.stringify({ error: 'internal error; please report the request_id', code: 'INTERNAL', request_id: requestId ?? null }), { status: 500, headers })
}

/** Operator and emulator routes (`/__jobs/*`: a backfill chunk may run for minutes) have no bound. */
const unbounded = (path: string) => path.startsWith('/__')

/**
 * Wraps an application's fetch so that every request answers within `bound()` milliseconds: the
 * application's own answer, or the 504 of {@link RequestDeadline.expire}, whichever comes first.
 */
export function withDeadline<E>(fetch: Fetch<E>, bound: () => number): Fetch<E> {
  return (request, env, ctx) => {
    const ms = bound()
    const started = performance.now()
    const d = new RequestDeadline(ms, ctx ? (p) => ctx.waitUntil(p) : undefined)
    d.budgetObjects = (env as Partial<Env> | undefined)?.HOST_BUDGET
    // Anything that escapes the application's own error handler is still answered in our contract.
    const answer = Promise.resolve()
      .then(() => runInScope(d, () => fetch(request, env, ctx)))
      .catch((err: unknown) => escaped(err, d))
    const path = getPath(request)
    if (unbounded(path)) return Promise.resolve(answer).finally(() => d.release())
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<Response>((resolve) => {
      timer = setTimeout(() => resolve(d.expire(path, performance.now() - started)), ms)
    })
    return Promise.race([answer, late]).finally(() => {
      if (timer !== undefined) clearTimeout(timer)
      d.release()
    })
  }
}

/**
 * A deadline for the whole request: every request is answered within {@link REQUEST_DEADLINE_MS},
 * whatever hangs underneath (a Durable Object call, a KV or R2 read, an upstream that ignores its
 * AbortSignal, a promise shared with another request). Past the bound the caller gets HTTP 504
 * with an `ok:false` envelope, code `DEADLINE_EXCEEDED`, naming the `stage` still running; the
 * call is not counted (admission's reservation is refunded, exactly once).
 *
 * Why the race sits around `app.fetch` and not in a Hono middleware: a response a middleware
 * returns becomes the context's response, and the late handler keeps writing to that context
 * (`c.header()` re-wraps the response around the same body stream). Racing outside Hono hands the
 * caller a Response the late pipeline never sees. Code inside reaches its request's deadline
 * through an AsyncLocalStorage scope, so channel code marks its stage without being passed the
 * context.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Context } from 'hono'
import { getPath } from 'hono/utils/url'
import type { AppEnv } from './context'
import { API_HEADERS } from './cache-headers'
import { CORS_HEADERS } from './cors'

/** The bound on every request, in milliseconds (services may override it: tests use a short one). */
export const REQUEST_DEADLINE_MS = 15_000

/** The machine code of an answer cut off by the deadline. */
export const DEADLINE_CODE = 'DEADLINE_EXCEEDED'

/**
 * What a request was doing: `identify` (API key lookup in KV), `admit` (the KeyGuard or AnonGuard
 * Durable Object), `cache` (the anonymous answer cache in KV), `store` (an R2 read),
 * `upstream:<channel>` (a request to Eastmoney, Tencent or Sina), `handler` (anything else).
 */
export type Stage = 'identify' | 'admit' | 'cache' | 'store' | 'handler' | `upstream:${string}`

/**
 * Admission's settlement: refunds (ok false) or re-bills a reserved call. Returns a promise only
 * when work remains (a request to a guard object), which the request keeps alive with waitUntil;
 * most calls have nothing to settle, and a waitUntil per call is a measurable part of admission.
 */
export type Settle = (ok: boolean, rows: number, units: number | undefined) => Promise<void> | void

/** One request's deadline state: its stage, and the reservation it must settle exactly once. */
export class RequestDeadline {
  expired = false
  private base: Stage = 'handler'
  /** Work running now (upstream requests, store reads), newest last; the newest names the stage. */
  private readonly running: Stage[] = []
  private reservation: Settle | undefined
  private settled = false
  /**
   * The Hono context, for the tier and request id of the 504. Held weakly, and everything else is
   * let go when the request ends (see {@link release}): workerd keeps an AsyncLocalStorage frame,
   * and so this object, alive after its request (measured: about 20 KB a request while this held
   * the context strongly, a leak that took the bench's worker to its heap limit).
   */
  private contextRef: WeakRef<Context<AppEnv>> | undefined

  constructor(
    readonly ms: number,
    private waitUntil: (p: Promise<unknown>) => void = () => {}
  ) {}

  set context(c: Context<AppEnv> | undefined) {
    this.contextRef = c ? new WeakRef(c) : undefined
  }

  get context(): Context<AppEnv> | undefined {
    return this.contextRef?.deref()
  }

  /** The request has its answer: drop what this object holds, so a frame kept alive keeps little. */
  release(): void {
    this.contextRef = undefined
    this.waitUntil = () => {}
    if (this.settled) this.reservation = undefined
  }

  /** The stage the request is in. */
  get stage(): Stage {
    return this.running[this.running.length - 1] ?? this.base
  }

  /** Moves the request to its next stage (identify → admit → handler). */
  mark(stage: Stage): void {
    if (!this.expired) this.base = stage
  }

  /** Records work that runs beside the stage (one upstream request); returns how to end it. */
  enter(stage: Stage): () => void {
    this.running.push(stage)
    return () => {
      const i = this.running.lastIndexOf(stage)
      if (i >= 0 && !this.expired) this.running.splice(i, 1)
    }
  }

  /**
   * Takes admission's reservation. Returns false when the deadline has already passed: the
   * caller has its 504, so the reservation is refunded at once and the call must stop.
   */
  hold(settle: Settle): boolean {
    if (this.expired) {
      this.settled = true
      this.keepAlive(settle(false, 0, undefined))
      return false
    }
    this.reservation = settle
    return true
  }

  /** Settles the reservation once; later calls (the late end of an expired call) do nothing. */
  settle(ok: boolean, rows: number, units: number | undefined): Promise<void> | void {
    if (this.settled || !this.reservation) return
    this.settled = true
    return this.reservation(ok, rows, units)
  }

  private keepAlive(work: Promise<void> | void): void {
    if (work) this.waitUntil(work.catch(logSettleFailure))
  }

  /** The deadline passed: refund what is held, and build the answer. */
  expire(path: string, elapsedMs: number): Response {
    const stage = this.stage
    this.expired = true
    this.keepAlive(this.settle(false, 0, undefined))
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

const logSettleFailure = (e: unknown) => console.error('settle failed', e)

const scope = new AsyncLocalStorage<RequestDeadline>()

/** The deadline of the request this code runs for, if any. */
export const currentDeadline = (): RequestDeadline | undefined => scope.getStore()

/** Moves the current request to `stage`. */
export function markStage(stage: Stage): void {
  scope.getStore()?.mark(stage)
}

/** Names `stage` as running while `work` runs (an upstream request, a store read). */
export function during<T>(stage: Stage, work: Promise<T>): Promise<T> {
  const d = scope.getStore()
  if (!d) return work
  const leave = d.enter(stage)
  return work.finally(leave)
}

/** Admission's hold on a reserved call; see {@link holdReservation}. */
export interface HeldReservation {
  /** Settles the call as it ended (at most once per request). */
  end: Settle
}

/**
 * Hands admission's reservation to the request's deadline, so that it is settled exactly once:
 * by the call's end, or refunded by the deadline. Null when the deadline already passed (the
 * reservation is refunded now).
 */
export function holdReservation(settle: Settle): HeldReservation | null {
  const d = scope.getStore()
  if (!d) return { end: settle }
  return d.hold(settle) ? { end: (ok, rows, units) => d.settle(ok, rows, units) } : null
}

/** Lets the deadline read the request's tier and id (first middleware). */
export const deadlineContext = () => async (c: Context<AppEnv>, next: () => Promise<void>) => {
  const d = scope.getStore()
  if (d) d.context = c
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
    // Anything that escapes the application's own error handler is still answered in our contract.
    const answer = Promise.resolve()
      .then(() => scope.run(d, () => fetch(request, env, ctx)))
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

/**
 * The scope of one request, below every layer that does I/O: which stage it is in (an upstream
 * request, a store read) and the admission reservation it must settle exactly once. Code reaches
 * its request's scope through an AsyncLocalStorage, so a channel or a store read marks its stage
 * without being handed the request. src/http/deadline.ts opens the scope around each request and
 * turns a scope whose bound passed into the 504.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** The bound on every request, in milliseconds (services may override it: tests use a short one). */
export const REQUEST_DEADLINE_MS = 15_000

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

/** One request's scope: its stage, and the reservation it must settle exactly once. */
export class RequestScope {
  expired = false
  /** The upstream budget objects' binding of this request (src/channels/budget/host-budget.ts), when the Worker has one. */
  budgetObjects: DurableObjectNamespace | undefined
  private base: Stage = 'handler'
  /** Work running now (upstream requests, store reads), newest last; the newest names the stage. */
  private readonly running: Stage[] = []
  private reservation: Settle | undefined
  private settled = false
  constructor(
    readonly ms: number,
    protected waitUntil: (p: Promise<unknown>) => void = () => {}
  ) {}

  /** The request has its answer: drop what this object holds, so a frame kept alive keeps little. */
  release(): void {
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

  /** Keeps `work` running after the answer is sent (a write other isolates will read). */
  background(work: Promise<unknown>): void {
    this.waitUntil(work)
  }

  protected keepAlive(work: Promise<void> | void): void {
    if (work) this.waitUntil(work.catch(logSettleFailure))
  }

  /** The bound passed: refund what is held; the stage then is the one the answer names. */
  expireScope(): Stage {
    const stage = this.stage
    this.expired = true
    this.keepAlive(this.settle(false, 0, undefined))
    return stage
  }
}

const logSettleFailure = (e: unknown) => console.error('settle failed', e)

const scope = new AsyncLocalStorage<RequestScope>()

/** The scope of the request this code runs for, if any. */
export const currentScope = (): RequestScope | undefined => scope.getStore()

/** Runs `work` inside `s`: what it starts marks its stages there. */
export const runInScope = <T>(s: RequestScope, work: () => T): T => scope.run(s, work)

/** Runs `work` beside the current request, kept alive past its answer; failures are logged, never thrown. */
export function inBackground(work: Promise<unknown>, what: string): void {
  const kept = work.catch((e) => console.error(`${what} failed`, e))
  scope.getStore()?.background(kept)
}

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


/**
 * A route's answer and its outcome, as one value (docs/architecture.md, "How admission counts").
 *
 * A data route answers through one of the functions here: {@link answer} (the JSON envelope),
 * {@link answerBody} (bytes the route wrote itself: a shared envelope, kline-full's rows, a CSV
 * stream, an anonymous cache hit) or {@link answerResponse} (a response made whole elsewhere: the
 * push stream). Each returns the Response with the call's {@link Outcome} attached; admission
 * settles the call from that outcome alone ({@link settledOutcome}). The outcome is kept in a map
 * private to this module, keyed by the request's context: nothing but these functions sets it.
 */
import type { Context } from 'hono'
import type { AppEnv, Outcome } from './context'
import { countRows, envelope, type Envelope, type EnvelopeBody } from './envelope'
import { slotOf } from './json-splice'

/** The outcome of each request's answer, set by this module's answer functions only. */
const OUTCOMES = new WeakMap<Context<AppEnv>, Outcome>()

function attach(c: Context<AppEnv>, outcome: Outcome): void {
  OUTCOMES.set(c, outcome)
}

/** How a route counts an answer when its `data` is not its rows: one profile is one row, technical-batch bills the symbols returned. */
export interface Counted {
  /** Rows the answer returns; by default {@link countRows} of its `data`. */
  rows?: number
  /** Usage units actually used, when they differ from the policy's cost. */
  units?: number
}

/**
 * The JSON envelope of `body` as a 200 answer (`c.json(envelope(c, endpoint, body), 200)`), with its
 * outcome: `body.ok`, and the rows of `data` unless `counted` says otherwise.
 */
export function answer<T>(c: Context<AppEnv>, endpoint: string, body: EnvelopeBody<T>, counted: Counted = {}) {
  const env: Envelope<T> = envelope(c, endpoint, body)
  attach(c, outcomeOf(body.ok, counted.rows ?? countRows(body.data), counted.units))
  return c.json(env, 200)
}

/**
 * {@link answer}, with `data` (left null in `body`) written as `dataText`, which must be its
 * `JSON.stringify`: the same bytes, for a route that keeps its rows' text between calls
 * (src/http/series-body.ts). `D` is the type `data` has in the route's schema.
 */
export function answerWithDataText<D>(c: Context<AppEnv>, endpoint: string, body: EnvelopeBody<null>, dataText: string, counted: Counted & { rows: number }) {
  const env = envelope(c, endpoint, body)
  attach(c, outcomeOf(body.ok, counted.rows, counted.units))
  const { head, tail } = slotOf(env, 'data')
  return c.body(`${head}${dataText}${tail}`, 200, JSON_TYPE) as unknown as ReturnType<typeof c.json<Envelope<D>, 200>>
}

const JSON_TYPE = { 'content-type': 'application/json' }

/** A 200 answer whose bytes the route wrote itself (`c.body(body, 200, headers)`), with its outcome. */
export function answerBody(c: Context<AppEnv>, body: BodyInit, outcome: Outcome, headers: Record<string, string>): Response {
  attach(c, outcome)
  return c.body(body as never, 200, headers)
}

/** A response made whole by the route (the push stream's SSE body or WebSocket upgrade), with its outcome. */
export function answerResponse(c: Context<AppEnv>, res: Response, outcome: Outcome): Response {
  attach(c, outcome)
  return res
}

const outcomeOf = (ok: boolean, rows: number, units: number | undefined): Outcome => (units === undefined ? { ok, rows } : { ok, rows, units })

/** The outcome attached to this request's answer, if one was (the CSV form and the anonymous cache read it). */
export function answeredOutcome(c: Context<AppEnv>): Outcome | undefined {
  return OUTCOMES.get(c)
}

/**
 * The outcome admission settles a counted call with. A 200 (or a stream's 101) without an attached
 * outcome is a route that answered around this module: it is logged as an error and settled as not
 * ok (refunded); under the emulator it is answered as a 500 (thrown, after the settlement), so a
 * test finds it.
 */
export function settledOutcome(c: Context<AppEnv>): { outcome: Outcome; ok: boolean; missing?: Error } {
  const outcome = OUTCOMES.get(c)
  const status = c.res.status
  const answered = status === 200 || status === 101
  if (answered && outcome === undefined) {
    const missing = new Error(`${c.req.method} ${c.req.path} answered ${status} without an outcome: answer through src/http/answer.ts`)
    console.error('counted answer without an outcome', missing.message)
    return { outcome: { ok: false, rows: 0 }, ok: false, ...(c.get('services').simulated ? { missing } : {}) }
  }
  return { outcome: outcome ?? { ok: false, rows: 0 }, ok: answered && outcome?.ok === true }
}

import type { Context } from 'hono'
import type { Tier } from '../access/tiers'
import type { AppEnv } from './context'
import type { FailureCode } from './outcome'
import { headThrough, slotOf, spliceBytes, tailAfter } from './json-splice'

/** The fields every data endpoint answers with (docs/api-guide.md, "Answers, errors and the deadline"). */
export interface Envelope<T> {
  ok: boolean
  endpoint: string
  tier: Tier
  /** Present under the emulator: the data is simulated. */
  simulated?: true
  elapsed_ms: number
  source: string
  data: T
  [extra: string]: unknown
}

/**
 * Builds the envelope for a data endpoint. Extra fields (`as_of`, `error`, counters) follow the
 * standard ones. `elapsed_ms` is measured from the start of the request pipeline. It carries no
 * outcome: a route answers through src/http/answer.ts (`answer` wraps this), which attaches it.
 */
export function envelope<T>(c: Context<AppEnv>, endpoint: string, body: EnvelopeBody<T>): Envelope<T> {
  const { ok, source, data, ...extra } = body
  return {
    ok,
    endpoint,
    tier: c.get('tier'),
    ...(c.get('services').simulated ? { simulated: true as const } : {}),
    elapsed_ms: elapsedMs(c),
    source,
    data,
    ...extra,
  }
}

/** What a handler answers, before the envelope's per-call fields. */
export type EnvelopeBody<T = unknown> = { ok: boolean; source: string; data: T; code?: FailureCode } & Record<string, unknown>

/** Milliseconds since the start of the request pipeline, as `elapsed_ms` says. */
const elapsedMs = (c: Context<AppEnv>) => Math.max(0, Math.round(performance.now() - c.get('startedAt')))

/** The fields {@link envelope} writes before `elapsed_ms`, as it writes them. */
const callFields = (c: Context<AppEnv>, endpoint: string, ok: boolean) => ({
  ok,
  endpoint,
  tier: c.get('tier'),
  ...(c.get('services').simulated ? { simulated: true as const } : {}),
})

/**
 * The JSON text of {@link envelope}'s answer after `elapsed_ms`'s value, from the comma before
 * `source` to the closing brace: what stays the same from caller to caller of one answer (it
 * follows {@link envelopeHead}). Keys in the envelope's order; fields {@link envelope} sets itself
 * must not be in `extra`.
 */
export function envelopeTail(body: EnvelopeBody): string {
  const { ok: _ok, source, data, ...extra } = body
  return tailAfter({ source, data, ...extra })
}

/**
 * The per-call fields of `JSON.stringify(envelope(c, endpoint, body))`, up to and including
 * `elapsed_ms`'s value: followed by `body`'s {@link envelopeTail}, it is that text. It does not
 * record the outcome.
 */
export function envelopeHead(c: Context<AppEnv>, endpoint: string, ok: boolean): string {
  return `${headThrough(callFields(c, endpoint, ok), 'elapsed_ms')}${elapsedMs(c)}`
}

/**
 * The UTF-8 bytes of `JSON.stringify(envelope(c, endpoint, {...body, data}))` where `data` is the
 * JSON bytes the route wrote itself: for a large array, its own writer makes them
 * faster than `JSON.stringify` of row objects. The route answers it with `answerBody` (src/http/answer.ts).
 */
export function envelopeWithDataBytes(c: Context<AppEnv>, endpoint: string, body: { ok: boolean; source: string } & Record<string, unknown>, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const { head, tail } = slotOf(envelope(c, endpoint, { ...body, data: null }), 'data')
  return spliceBytes(head, [data], tail)
}

/** Rows in a payload: an array's length, or the sum over a map of arrays (several symbols). */
export function countRows(data: unknown): number {
  if (Array.isArray(data)) return data.length
  if (data && typeof data === 'object') {
    let n = 0
    for (const v of Object.values(data)) if (Array.isArray(v)) n += v.length
    return n
  }
  return 0
}

/**
 * A typed client for the A-share market data API: openapi-fetch over the `paths` that
 * openapi-typescript generates from the service's own `/openapi.json` (`./schema.d.ts`).
 *
 * ```ts
 * const api = createClient({ baseUrl: 'http://127.0.0.1:8787', key: process.env.API_KEY })
 * const { data, error } = await api.GET('/v1/quote', { params: { query: { code: 'sh600519' } } })
 * ```
 */
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type { components, operations, paths } from './schema.js'

/** Options of {@link createClient}. */
export interface MarketApiOptions {
  /** The service's origin, e.g. `http://127.0.0.1:8787` for `npm start`. */
  baseUrl: string
  /** An API key (`mk_…`), sent as `Authorization: Bearer <key>`; without one, calls are anonymous. */
  key?: string
  /** Another `fetch` (a test double, a Workers service binding's `fetch`); default `globalThis.fetch`. */
  fetch?: ClientOptions['fetch']
  /** Headers added to every request. */
  headers?: Record<string, string>
}

/**
 * The client: `GET`, `POST`, `DELETE` … with each path's parameters and answers typed. Answers are
 * typed as their JSON (the service's default); a path that can also answer CSV (`format=csv`) gives
 * its text with `parseAs: 'text'`.
 */
export type MarketApiClient = Client<paths, 'application/json'>

/**
 * A client of the service at `baseUrl`. Each call resolves to `{ data, error, response }`: `data`
 * is the 200 answer (an envelope whose `ok` says whether the upstreams had data), `error` the
 * body of any other status (a 422's `detail`, a 401/403/429's `error` and `code`).
 */
export function createClient({ baseUrl, key, fetch, headers }: MarketApiOptions): MarketApiClient {
  return createFetchClient<paths, 'application/json'>({
    baseUrl,
    ...(fetch ? { fetch } : {}),
    headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) },
  })
}

/** A schema of the API by name: `Schema<'QuoteEnvelope'>`, `Schema<'TechnicalRow'>`, `Schema<'Error'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name]

/** The GET paths of the API. */
export type GetPath = { [P in keyof paths]: paths[P]['get'] extends { responses: unknown } ? P : never }[keyof paths]

/** The JSON body of a GET path's 200 answer: `Answer<'/v1/quote'>` is the quote envelope. */
export type Answer<P extends GetPath> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never

/** The query parameters of a GET path: `Query<'/v1/screen'>`. */
export type Query<P extends GetPath> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never

/** The envelope every data endpoint answers with (the fields they share). */
export type Envelope = Pick<Schema<'QuoteEnvelope'>, 'ok' | 'endpoint' | 'tier' | 'elapsed_ms' | 'source' | 'as_of' | 'stale' | 'notice' | 'error' | 'code'>

/** The body of a 401, 403, 404, 429 … answer: what to do, and a machine code. */
export type ApiError = Schema<'Error'>

/** The body of a 422: FastAPI-style, naming the parameter and the reason. */
export type ValidationError = Schema<'ValidationError'>

/** One push-quote event of `GET /v1/stream`, by name: `quote`, `status`, `error` or `heartbeat`. */
export type StreamEvent =
  | { event: 'quote'; data: Schema<'StreamQuoteEvent'> }
  | { event: 'status'; data: Schema<'StreamStatusEvent'> }
  | { event: 'error'; data: Schema<'StreamErrorEvent'> }
  | { event: 'heartbeat'; data: Schema<'StreamHeartbeatEvent'> }

/** Options of {@link stream}. */
export interface StreamOptions extends Omit<MarketApiOptions, 'key'> {
  /** An API key: streams need one. */
  key: string
  /** A-share codes with prefix, at most the tier's symbols per connection. */
  codes: string[]
  /** Ends the stream when aborted. */
  signal?: AbortSignal
}

/**
 * Push quotes (`GET /v1/stream`) over Server-Sent Events, as an async iterator: the current state of
 * every code first, then each change, `status` at every phase change and a `heartbeat` every 20 s.
 * A refusal (401, 422, 429 `STREAM_LIMIT`) throws with its body; the iterator ends when the service
 * closes the stream (after an `error` event saying why, e.g. `KEY_INVALID`, `SLOW_CONSUMER`).
 *
 * ```ts
 * for await (const ev of stream({ baseUrl, key, codes: ['sh600519'] })) if (ev.event === 'quote') console.log(ev.data.last)
 * ```
 */
export async function* stream({ baseUrl, key, codes, fetch: doFetch = globalThis.fetch, headers, signal }: StreamOptions): AsyncGenerator<StreamEvent> {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/stream?codes=${encodeURIComponent(codes.join(','))}`
  const res = await doFetch(new Request(url, { headers: { ...headers, accept: 'text/event-stream', authorization: `Bearer ${key}` }, signal }))
  if (res.status !== 200 || !res.body) throw Object.assign(new Error(`GET /v1/stream answered ${res.status}: ${await res.text()}`), { status: res.status })
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += value
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (event && data) yield { event, data: JSON.parse(data) } as StreamEvent
      }
    }
  } finally {
    reader.releaseLock()
    await res.body.cancel().catch(() => undefined)
  }
}

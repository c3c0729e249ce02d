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

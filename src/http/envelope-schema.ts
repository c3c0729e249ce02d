/**
 * The schemas of what every endpoint answers besides its own data: the envelope, the failure
 * codes, the 422 body, the error body and the deadline's 504 (each documented in /openapi.json).
 */
import { z } from '@hono/zod-openapi'
import { TIERS } from '../access/tiers'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'
import { DEADLINE_CODE } from './deadline'
import { FailureCodeSchema } from './outcome'
import { ERROR_CODES } from './api-error'

/**
 * The one form of each kind of value, in every answer: an instant (a quote's time stamp, when
 * something was fetched or computed) is ISO 8601 with its offset, to the second; a session or
 * report date is `YYYY-MM-DD` (src/domain/instant.ts writes the instants).
 */
export const TIME_FORMS =
  'An instant is ISO 8601 with its offset, to the second: `2026-11-20T10:30:03+08:00` (Beijing for A-shares, Hong Kong, futures and forex; ' +
  'a US quote on its exchange\'s clock, `-05:00`, or `-04:00` under daylight saving time), never `Z` and never milliseconds. ' +
  'A session or report date is `YYYY-MM-DD`'

/** What `as_of` is on an endpoint: a date, an instant, or an instant when the data is live and a date otherwise. */
export const AS_OF = {
  date: (what: string) => `A date, \`YYYY-MM-DD\`: ${what}`,
  instant: (what: string) => `An instant: ${what}`,
  either: (what: string) => `An instant or a date: ${what}`,
}

/**
 * The standard envelope around an endpoint's `data`. `asOf` says what the endpoint's `as_of` is
 * ({@link AS_OF}); the rule of the forms ({@link TIME_FORMS}) follows it.
 */
export function envelopeSchema<T extends z.ZodType, X extends z.ZodRawShape = {}>(name: string, data: T, asOf?: string, extra?: X) {
  return z
    .object({
      ok: z.boolean().openapi({ description: 'true when data was returned; false when every upstream failed or had nothing (not counted)' }),
      endpoint: z.string().openapi({ description: 'Endpoint short name' }),
      tier: z.enum(TIERS).openapi({ description: 'Tier the call was served under' }),
      simulated: z.literal(true).optional().openapi({ description: 'Present (true) when the service runs on its built-in emulator (`npm start` offline, the tests): the data is a simulated market, not real quotes. Every such answer also carries the header `X-Data-Simulated: true`, and `/v1/health` names the upstream mode' }),
      elapsed_ms: z.number().int().openapi({ description: 'Processing time in milliseconds' }),
      source: z.string().openapi({
        description: 'Channel that served the call (eastmoney, tencent, sina; `emulator:<channel>` under the emulator; `multi` when symbols came from different channels; `none` when no upstream was needed; `service` for answers the service computes itself)',
      }),
      data,
      as_of: z.string().optional().openapi({
        description:
          `${asOf ?? 'Either a date (the data is true as of that session or report) or an instant (when the data was true or fetched); each endpoint says which'}. ` +
          `With \`stale\`, the instant the copy served was fetched. ${TIME_FORMS}.`,
      }),
      stale: z.literal(true).optional().openapi({
        description:
          'Present (true) when every upstream failed and the last good answer was served instead (stale-if-error): `as_of` says when it was fetched and ' +
          '`notice` names the failure. Only slow-moving data is served stale, within a limit per kind (dividends, holders, events, block trades, search, ' +
          'ipo, calendar, macro, sector valuation: 7 days; market-overview\'s daily types (valuation, margin, updown, interval, technical): 3 days; money flow: while it holds the latest complete session). ' +
          'Live quotes, books and snapshots are served stale only when the service\'s own request budget for their hosts is spent this minute or the hosts ban us ' +
          '(GET /v1/status), from the last line fetched, at most 15 minutes old; `as_of` is that line\'s own time stamp. Market breadth never is. ' +
          'A stale answer is data: ok:true, and counted like any other call',
      }),
      notice: z.string().optional().openapi({ description: 'Why a result is empty or limited, e.g. the minute-bar window' }),
      error: z.string().optional().openapi({ description: 'With ok:false: what every channel answered, `<channel>: <kind>: <why>` (kinds: timeout, http, network, malformed, empty, unsupported, banned: the host refused us, or is backed off after a ban, GET /v1/status; over_budget: the service\'s own request budget for that host is spent this minute, nothing was sent)' }),
      code: FailureCodeSchema.optional().openapi({ description: 'With ok:false: UPSTREAM_UNAVAILABLE or NO_DATA; BUILDING on the store-backed endpoints while the history is being built; NOT_BUILT where a scheduled job has not built the data yet (industry-chain); the endpoint\'s own codes are in its description (screen NO_MATCH, FACTOR_UNAVAILABLE; trade-calendar NOT_PUBLISHED). None of these is counted' }),
      errors: z.record(z.string(), z.string()).optional().openapi({ description: 'Several symbols: the reason for each symbol that returned nothing' }),
      sources: z.record(z.string(), z.string()).optional().openapi({ description: 'Several symbols: the channel that served each one' }),
      ...(extra as X),
    })
    .openapi(name)
}

/** `progress` of an ok:false answer with code BUILDING: how far the history build is. */
export const BuildProgressSchema = z
  .object({
    phase: z.enum(['histories', 'day_blobs', 'day_tables']).openapi({ description: 'histories: building every stock\'s daily history; day_blobs: assembling the whole-market days; day_tables: the technicals and factor tables of the last days' }),
    percent: z.number().int().openapi({ description: 'Share of the build done, 0–99 %' }),
    stocks_done: z.number().int().openapi({ description: 'Stocks whose history is built' }),
    stocks_total: z.number().int().openapi({ description: 'Stocks the build covers' }),
    months_done: z.number().int().openapi({ description: 'Months of day blobs written' }),
    months_total: z.number().int().openapi({ description: 'Months of day blobs the build writes' }),
    from: z.string().openapi({ description: 'First day blob the build writes, YYYY-MM-DD' }),
    to: z.string().openapi({ description: 'Last day blob the build writes, YYYY-MM-DD' }),
    started_at: z.string().openapi({ description: 'When the build started (an instant, ISO 8601 with its offset, `2026-11-20T10:30:03+08:00`)' }),
  })
  .openapi('BuildProgress')

const ValidationErrorSchema = z
  .object({
    detail: z.array(
      z.object({
        type: z.string(),
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        input: z.unknown(),
      })
    ),
  })
  .openapi('ValidationError', {
    example: { detail: [{ type: 'less_than_equal', loc: ['query', 'count'], msg: 'count must be at most 1212', input: '5000' }] },
  })

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ description: 'What went wrong, in words a person can act on' }),
    code: z.enum(ERROR_CODES).openapi({ description: 'Machine code; each response of an endpoint says which apply' }),
  })
  .openapi('Error', { example: { error: 'no route GET /v1/nope', code: 'NOT_FOUND' } })

/** The answer of a request cut off by the request deadline (src/http/deadline.ts). */
const DeadlineExceededSchema = z
  .object({
    ok: z.literal(false),
    endpoint: z.string().openapi({ description: 'Endpoint short name' }),
    tier: z.enum(TIERS).openapi({ description: 'Tier the call was being served under (free until the key was identified)' }),
    elapsed_ms: z.number().int().openapi({ description: 'Time until the deadline, in milliseconds' }),
    source: z.literal('none'),
    data: z.null(),
    code: z.literal(DEADLINE_CODE),
    stage: z.string().openapi({
      description:
        'What was still running: `identify` (API key lookup), `admit` (rate-limit counters), `cache` (anonymous answer cache), ' +
        '`store` (history store read), `upstream:<channel>` (a request to eastmoney, tencent or sina), `handler` (anything else)',
    }),
    error: z.string().openapi({ description: 'The bound and the stage, in words' }),
  })
  .openapi('DeadlineExceeded', {
    example: {
      ok: false, endpoint: 'quote', tier: 'pro', elapsed_ms: REQUEST_DEADLINE_MS, source: 'none', data: null, code: DEADLINE_CODE, stage: 'upstream:tencent',
      error: `no answer within ${REQUEST_DEADLINE_MS} ms (still running: upstream:tencent); this call was not counted, please retry`,
    },
  })

/** Every route documents the deadline's answer. */
export const DEADLINE_ERROR = {
  504: {
    description: `DEADLINE_EXCEEDED: no answer within ${REQUEST_DEADLINE_MS / 1000} s (whatever hung: an upstream, the store, the counters); an ok:false envelope naming the \`stage\` still running. Not counted; retry.`,
    content: { 'application/json': { schema: DeadlineExceededSchema } },
  },
} as const

/** Responses every data endpoint documents besides its 200. */
export const COMMON_ERRORS = {
  422: { description: 'Invalid or missing parameter (FastAPI-style body naming the field and the reason)', content: { 'application/json': { schema: ValidationErrorSchema } } },
  500: { description: 'A bug on our side; the body carries a request id, never a stack trace', content: { 'application/json': { schema: ErrorSchema } } },
} as const


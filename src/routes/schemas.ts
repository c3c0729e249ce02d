import { z } from '@hono/zod-openapi'
import { TIERS } from '../access/tiers'
import { isValidDate } from '../domain/dates'
import { DEADLINE_CODE, REQUEST_DEADLINE_MS } from '../http/deadline'
import { queryIssue, type ValidationIssue } from '../http/validation'

/** A `YYYY-MM-DD` query parameter that must name a real calendar day. */
export const DateParam = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${name} must be a date in YYYY-MM-DD form` })
    .refine(isValidDate, { error: `${name} is not a real calendar date` })

/**
 * The 422 issue of a date parameter naming a day after `today` (Beijing), or undefined: a day that
 * has not happened has no data, so /v1/chip, /v1/technical-batch and /v1/block-trade refuse it
 * alike rather than answer the latest day under a date it is not.
 */
export function futureDateIssue(field: string, date: string | undefined, today: string): ValidationIssue | undefined {
  return date !== undefined && date > today ? queryIssue(field, `${field} ${date} is in the future (today is ${today}, Beijing)`, date) : undefined
}

/** `count` style integer query parameter with a readable error for every way it can be wrong. */
export const IntParam = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer` })
    .int({ error: `${name} must be an integer` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` })

export const BarRowSchema = z
  .object({
    date: z.string().openapi({ description: 'Bar date `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` (bar end, exchange time) for minute bars' }),
    open: z.string().openapi({ description: 'Open price' }),
    last: z.string().openapi({ description: 'Close (for the live bar: the current) price' }),
    high: z.string().openapi({ description: 'High price' }),
    low: z.string().openapi({ description: 'Low price' }),
    volume: z.string().openapi({ description: 'Volume in shares (contracts for futures; 0 for forex)' }),
    amount: z.string().openapi({ description: 'Turnover amount in the trading currency (CNY for A-shares); empty when the serving channel does not carry it' }),
    turnover: z.string().openapi({ description: 'Turnover rate in percent; empty for indexes, sectors, futures, forex and channels without it' }),
  })
  .openapi('BarRow')

export const BarRowsSchema = z.array(BarRowSchema).openapi({ description: 'Bars, newest first' })

/** `data` of quote and kline: bars for one symbol, or a map from each requested code to its bars. */
export const SeriesDataSchema = z.union([BarRowsSchema, z.record(z.string(), BarRowsSchema)])

/**
 * Named examples of the `code` parameter of quote and kline, one per instrument class users ask
 * about: an A-share, a futures main continuous contract, a dated futures contract and a forex pair.
 */
export const CODE_EXAMPLES = {
  stock: { summary: 'A-share stock (贵州茅台)', value: 'sh600519' },
  futures_main: { summary: 'Futures main continuous contract: product plus 0 (螺纹钢连续, Sina nf_RB0; day, week, month)', value: 'fuRB0' },
  futures_contract: { summary: 'Futures contract: product plus YYMM delivery month', value: 'fuRB2701' },
  forex: { summary: 'Forex pair (offshore yuan; day, week, month)', value: 'fxUSDCNH' },
}

/** The standard envelope around an endpoint's `data`. */
export function envelopeSchema<T extends z.ZodType>(name: string, data: T) {
  return z
    .object({
      ok: z.boolean().openapi({ description: 'true when data was returned; false when every upstream failed or had nothing (not counted)' }),
      endpoint: z.string().openapi({ description: 'Endpoint short name' }),
      tier: z.enum(TIERS).openapi({ description: 'Tier the call was served under' }),
      elapsed_ms: z.number().int().openapi({ description: 'Processing time in milliseconds' }),
      source: z.string().openapi({
        description: 'Channel that served the call (eastmoney, tencent, sina; `emulator:<channel>` under the emulator; `multi` when symbols came from different channels; `none` when no upstream was needed; `service` for answers the service computes itself)',
      }),
      data,
      as_of: z.string().optional().openapi({ description: 'Date (and time) of the newest bar returned, or when the data was true or fetched (each endpoint says which); with `stale`, when the copy served was fetched (Beijing time)' }),
      stale: z.literal(true).optional().openapi({
        description:
          'Present (true) when every upstream failed and the last good answer was served instead (stale-if-error): `as_of` says when it was fetched and ' +
          '`notice` names the failure. Only slow-moving data is served stale, within a limit per kind (dividends, holders, events, block trades, search, ' +
          'ipo, calendar, macro, sector valuation: 7 days; market-overview\'s daily types (valuation, margin, updown, interval, technical): 3 days; money flow: while it holds the latest complete session); live ' +
          'quotes, books and market breadth never are. A stale answer is data: ok:true, and counted like any other call',
      }),
      notice: z.string().optional().openapi({ description: 'Why a result is empty or limited, e.g. the minute-bar window' }),
      error: z.string().optional().openapi({ description: 'With ok:false: what every channel answered' }),
      code: z.string().optional().openapi({ description: 'With ok:false: UPSTREAM_UNAVAILABLE or NO_DATA; BUILDING on the store-backed endpoints while the history is being built; NOT_BUILT where a scheduled job has not built the data yet (industry-chain); the endpoint\'s own codes are in its description (screen NO_MATCH, FACTOR_UNAVAILABLE; trade-calendar NOT_PUBLISHED). None of these is counted' }),
      errors: z.record(z.string(), z.string()).optional().openapi({ description: 'Several symbols: the reason for each symbol that returned nothing' }),
      sources: z.record(z.string(), z.string()).optional().openapi({ description: 'Several symbols: the channel that served each one' }),
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
    started_at: z.string().openapi({ description: 'When the build started (ISO 8601, UTC)' }),
  })
  .openapi('BuildProgress')

export const ValidationErrorSchema = z
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
  .object({ error: z.string(), code: z.string() })
  .openapi('Error', { example: { error: 'no route GET /v1/nope', code: 'NOT_FOUND' } })

/** The answer of a request cut off by the request deadline (src/http/deadline.ts). */
export const DeadlineExceededSchema = z
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


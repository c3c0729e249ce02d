import { z } from '@hono/zod-openapi'
import { isValidDate } from '../../domain/dates'
import { queryIssue, type ValidationIssue } from '../../http/validation'

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

const BarRowSchema = z
  .object({
    date: z.string().openapi({ description: 'Bar date `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM` (bar end, exchange time) for minute bars' }),
    open: z.string().openapi({ description: 'Open price' }),
    last: z.string().openapi({ description: 'Close (for the live bar: the current) price' }),
    high: z.string().openapi({ description: 'High price' }),
    low: z.string().openapi({ description: 'Low price' }),
    volume: z.string().openapi({ description: 'Volume in shares (contracts for futures; 0 for forex)' }),
    amount: z.string().openapi({ description: 'Turnover amount in the trading currency (CNY for A-shares); empty when the serving channel does not carry it (Sina sends none on day bars, nor on minute bars before 2023-11-03; Tencent none on HK and US bars)' }),
    turnover: z.string().openapi({ description: 'Turnover rate in percent; empty for indexes, sectors, futures, forex and channels without it' }),
  })
  .openapi('BarRow')

const BarRowsSchema = z.array(BarRowSchema).openapi({ description: 'Bars, newest first' })

/** `data` of quote and kline: bars for one symbol, or a map from each requested code to its bars. */
export const SeriesDataSchema = z.union([BarRowsSchema, z.record(z.string(), BarRowsSchema)])

/** `history` of quote and kline day answers: where the bars before today came from. */
export const SERIES_HISTORY = {
  history: z
    .enum(['store', 'channel', 'multi'])
    .optional()
    .openapi({
      description:
        'Where the bars before today came from, on answers with a live bar (quote; kline day without a range): `store`, the service\'s own stored daily ' +
        'history of the A-share stock, forward-adjusted with its stored corporate actions, served only when its last bar is the previous session and its ' +
        'close equals the live line\'s previous close (no upstream request for past bars); `channel`, the same channel as the live bar (`source`); ' +
        '`multi` when several symbols differ. Absent on answers without a live bar',
    }),
}

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

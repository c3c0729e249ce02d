import { z, type OpenAPIHono } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { Prefetch } from '../access/admission-options'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { HISTORY_START } from '../data/holidays'
import { beijing } from '../domain/dates'
import { isTradingDay, previousTradingDay, tradingDayOnOrAfter, tradingDayOnOrBefore } from '../domain/trading-calendar'
import type { AppEnv } from '../http/context'
import { buildingMessage } from '../domain/build-progress'
import { during } from '../runtime/request-scope'
import { answer } from '../http/answer'
import { streamEnvelope } from '../http/stream-envelope'
import { dataTable, wantsCsv } from '../http/csv-answer'
import { csvStreamResponse, jsonArrayToCsv } from '../http/csv-stream'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { MARKET_KLINE_COLUMNS } from '../services/store'
import { marketKlineKey } from '../store/keys'
import { DateParam } from './shared/schemas'
import { BuildProgressSchema, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: pro and unlimited, 500 units and one heavy call each. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'pro', cost: 500, heavy: true, counted: true }

const Query = z.object({
  date: DateParam('date')
    .optional()
    .openapi({ description: `Trading day YYYY-MM-DD, ${HISTORY_START} or later and before today (default: the latest trading day before today, Beijing)`, example: '2026-11-19' }),
})

const RowSchema = z
  .object({
    code: z.string().openapi({ description: 'Stock code with prefix, e.g. sh600519' }),
    time: z.string().openapi({ description: 'Trading day `YYYY-MM-DD`' }),
    open: z.string().openapi({ description: 'Open price, unadjusted, 2 decimals' }),
    high: z.string().openapi({ description: 'High price' }),
    low: z.string().openapi({ description: 'Low price' }),
    close: z.string().openapi({ description: 'Close price' }),
    volume: z.string().openapi({ description: 'Volume in shares' }),
    amount: z.string().openapi({ description: 'Turnover amount in CNY' }),
  })
  .openapi('MarketKlineRow')

const Response = envelopeSchema('MarketKlineEnvelopeBase', z.array(RowSchema).openapi({ description: 'One row per stock that traded that day, ascending by code' }))
  .extend({
    date: z.string().openapi({ description: 'The trading day served' }),
    count: z.number().int().nullable().optional().openapi({ description: 'Rows in `data`' }),
    progress: BuildProgressSchema.optional().openapi({ description: 'With code BUILDING: how far the history build is' }),
  })
  .openapi('MarketKlineEnvelope', {
    example: {
      ok: true,
      endpoint: 'market-kline',
      tier: 'pro',
      elapsed_ms: 3,
      source: 'store',
      date: '2026-11-19',
      count: 5561,
      data: [{ code: 'bj430017', time: '2026-11-19', open: '12.01', high: '12.35', low: '11.92', close: '12.20', volume: '812300', amount: '9901231.55' }],
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/market-kline',
  operationId: 'marketKline',
  tags: ['Pro'],
  summary: 'Every A-share stock\'s bar for one trading day',
  description:
    `The whole market (about 5,500 stocks) for one trading day since ${HISTORY_START}: exactly 8 string columns ` +
    '`code, time, open, high, low, close, volume, amount`, unadjusted, ascending by code; stocks suspended that day are absent. ' +
    'About 785 KB per day, streamed from the store. No intraday: the latest day is the previous trading day (Beijing), which is the default. ' +
    'A weekend or exchange holiday gets 422 naming the nearest trading days. A day not yet built answers ok:false (not counted), never a partial day. ' +
    'Tiers pro and unlimited; 500 usage units and one heavy call (pro 200 a day, unlimited 1000).',
  request: { query: Query },
  responses: {
    200: { description: 'The day\'s bars (ok:false with code NO_DATA when the day is not in the store, or BUILDING with `progress` while the build that writes it runs, e.g. on the first `npm start`; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, {
  prefetch: prefetchDay,
  csv: dataTable(MARKET_KLINE_COLUMNS),
  check: (c, q) => {
    const today = beijing(c.get('services').now()).date
    checkDate(q.date ?? previousTradingDay(today), today, previousTradingDay(today))
  },
})

/**
 * Reads the day's blob during admission when the request names a day that passes every check,
 * so the store read and the Durable Object run side by side (a refused call cancels the read).
 */
function prefetchDay(c: Context<AppEnv>): ReturnType<Prefetch> {
  const today = beijing(c.get('services').now()).date
  const latest = previousTradingDay(today)
  const date = c.req.query('date') ?? latest
  try {
    checkDate(date, today, latest)
  } catch {
    return undefined // the handler answers the 422
  }
  const key = marketKlineKey(date)
  const object = c.get('services').store.marketKline(c, key)
  object.catch(() => {}) // a failed read surfaces where the handler awaits it
  c.set('prefetched', { key, object })
  // A refused call lets go of the read rather than cancelling its body: workerd logs every cancelled
  // R2 body as `disconnected: pump canceled` with a stack trace, and the unread body is released
  // with the request a moment later anyway.
  return () => c.set('prefetched', undefined)
}

/** Checks a requested day against the calendar and the clock; throws the 422. */
function checkDate(date: string, today: string, latest: string): void {
  const no = (msg: string) => {
    throw new ValidationError([queryIssue('date', msg, date)])
  }
  if (date < HISTORY_START) no(`date must be ${HISTORY_START} or later (the data starts there)`)
  if (date >= today) no(`date must be before today (${today}, Beijing): there is no intraday market-kline; the latest is ${latest}`)
  if (!isTradingDay(date)) {
    const before = tradingDayOnOrBefore(date)
    const after = tradingDayOnOrAfter(date)
    const near = after < today ? `${before} (before) and ${after} (after)` : `${before} (before; the latest available)`
    no(`${date} is not a trading day (weekend or exchange holiday); the nearest trading days are ${near}`)
  }
}

/** GET /v1/market-kline */
export function registerMarketKline(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const today = beijing(services.now()).date
    const latest = previousTradingDay(today)
    const date = c.req.valid('query').date ?? latest
    checkDate(date, today, latest)

    const key = marketKlineKey(date)
    const pre = c.get('prefetched')
    const obj = await during('store', pre?.key === key ? pre.object : services.store.marketKline(c, key))
    if (!obj) {
      const build = await during('store', services.store.buildUnderWay(c))
      if (build?.buildsDay(date)) {
        const { progress } = build
        const error = buildingMessage(`the market-kline of ${date}`, progress)
        return answer(c, 'market-kline', { ok: false, source: 'store', data: [], date, count: 0, code: 'BUILDING', error, progress })
      }
      const error = `the market-kline of ${date} is not in the store yet (built after the close by the scheduled job, or by the backfill); no partial day is served`
      return answer(c, 'market-kline', { ok: false, source: 'store', data: [], date, count: 0, code: 'NO_DATA', error })
    }
    const rows = Number(obj.customMetadata?.rows)
    const count = Number.isInteger(rows) ? rows : null
    const outcome = { ok: true, rows: count ?? 0 }
    if (wantsCsv(c)) {
      // The blob's rows become lines as they stream by, one parsed object at a time (src/http/csv-stream.ts).
      const csv = obj.body.pipeThrough(new TextDecoderStream()).pipeThrough(jsonArrayToCsv(MARKET_KLINE_COLUMNS)).pipeThrough(new TextEncoderStream())
      return csvStreamResponse(c, csv, outcome) as never
    }
    // The blob is the `data` array itself: stream it, never parse it.
    return streamEnvelope(c, { ok: true, endpoint: 'market-kline', tier: c.get('tier'), source: 'store', date, count }, obj, outcome) as never
  })
}

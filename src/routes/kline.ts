import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable } from '../http/csv-answer'
import { BAR_ROW_COLUMNS } from '../http/format'
import { admittedRoute, registerAdmitted } from '../access/route'
import { callerCaps, type AccessPolicy } from '../access/tiers'
import { mapLimit } from '../domain/concurrency'
import { KEYED_CAPS, KLINE_LIMITS, planKline } from '../domain/kline-rules'
import { MINUTE_PERIODS, PERIODS } from '../domain/period'
import type { Context } from 'hono'
import type { AppEnv } from '../http/context'
import { keptAnswerFields } from '../http/outcome'
import { planOr422 } from '../http/validation'
import type { Services } from '../services/types'
import { CODE_EXAMPLES, DateParam, IntParam, SERIES_HISTORY, SeriesDataSchema } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { answerSeries, type SymbolOutcome } from '../http/series-body'
import { barAsOf } from '../domain/instant'

const KlineQuery = z.object({
  code: z.string({ error: 'code is required' }).openapi({
    description: 'Stock, index, sector, ETF, HK, US, convertible bond, futures or forex code with prefix (futures: fuRB2701 a contract, fuRB0 the main continuous contract; forex: fxUSDCNH); comma-separated for several (anonymous at most 5)',
    example: 'sh600519',
    // Named examples per instrument class (futures main contract, forex), listed in the document.
    param: { examples: CODE_EXAMPLES },
  }),
  period: z
    .enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` })
    .default('day')
    .openapi({ description: 'Bar period. Minute periods need an API key of tier standard or above; not for Beijing exchange, futures, forex, US indexes. Futures and forex: day, week, month. US indexes: day.', example: 'day' }),
  count: IntParam('count', 1, KLINE_LIMITS.maxCount)
    .optional()
    .openapi({ description: 'Bars per symbol, 1..1212; default 30, or 1212 with start/end. symbols × count ≤ 60,000.', example: 30, type: 'integer', minimum: 1, maximum: 1212 }),
  start: DateParam('start')
    .optional()
    .openapi({ description: 'Range start YYYY-MM-DD (day and minute periods; paired with end; not for HK, US, futures, forex)', example: '2026-10-08' }),
  end: DateParam('end').optional().openapi({ description: 'Range end YYYY-MM-DD, inclusive (paired with start)', example: '2026-11-20' }),
})

const KlineResponse = envelopeSchema('KlineEnvelope', SeriesDataSchema, AS_OF.either('the newest bar\'s: its session date for day and longer bars, its end (exchange time) as an instant for minute bars (`2026-11-20T10:35:00+08:00`)'), SERIES_HISTORY).openapi({
  example: {
    ok: true,
    endpoint: 'kline',
    tier: 'free',
    elapsed_ms: 35,
    source: 'eastmoney',
    as_of: '2026-11-20',
    data: [
      { date: '2026-11-20', open: '1510.00', last: '1520.00', high: '1525.00', low: '1505.20', volume: '2134500', amount: '3243567890.00', turnover: '0.17' },
    ],
  },
})

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

/**
 * Minute periods require tier standard or above (and so a key). Only for codes that have
 * minute bars: the route's `check` refuses the others with a 422 first.
 */
const minuteNeedsStandard = (c: Context<AppEnv>): Partial<AccessPolicy> | undefined => {
  const p = c.req.query('period')
  return p && (MINUTE_PERIODS as readonly string[]).includes(p) ? { group: 'keyed', minTier: 'standard' } : undefined
}

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/kline',
  operationId: 'kline',
  tags: ['Free'],
  summary: 'K-line bars',
  description:
    'Exactly 8 string columns per bar, newest first. Day/week/month/season/year prices are forward-adjusted (qfq; do not adjust again); ' +
    'minute bars are unadjusted and cover about the last month (from the first day of the previous calendar month; HK/US about five trading days); ' +
    'outside that window the result is empty with a `notice`. Several codes: `data` maps each code to its bars. ' +
    'Day bars without start/end (up to 120) are /v1/quote\'s: the past bars may be reused for up to ten minutes, never from another day, and today\'s ' +
    'bar is the channel\'s live line, shared for at most 3 s while the A-share market moves; past the service\'s request budget for the hosts, or ' +
    'while they ban it (GET /v1/status), the last answer kept is served with `stale` (at most 15 minutes old).',
  request: { query: KlineQuery },
  responses: {
    200: { description: 'Bars (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: KlineResponse } } },
    ...COMMON_ERRORS,
  },
}, {
  refine: minuteNeedsStandard,
  anonCache: true,
  csv: dataTable(BAR_ROW_COLUMNS),
  // Periods a code's kind never has (futures, forex and US-index minute bars, Beijing minute bars),
  // ranges it never takes, the keyed caps: a 422 for every tier, before the minute periods' 403.
  check: (_c, q) => void planOr422(planKline(q)),
  // Then an anonymous caller's lower caps (5 symbols, 250 bars).
  tierCheck: (c, q) => {
    const caps = callerCaps(c.get('tier'))
    if (caps !== KEYED_CAPS) planOr422(planKline(q, caps))
  },
})

/** GET /v1/kline */
export function registerKline(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const plan = planOr422(planKline(c.req.valid('query'), callerCaps(c.get('tier'))))
    const outcomes = await mapLimit(plan.instruments, 4, async (instrument): Promise<SymbolOutcome> => {
      const r = await services.market.series({ ...plan, instrument })
      if (!r.ok) return { instrument, ok: false, attempts: r.attempts }
      return { instrument, ok: true, bars: r.bars, channel: r.channel, history: r.history, asOf: r.bars.length ? barAsOf(instrument.prefix, r.bars[r.bars.length - 1].date) : undefined, notice: r.notice, ...(r.stale ? keptAnswerFields(r.attempts ?? []) : {}) }
    })
    return answerSeries(c, 'kline', outcomes, services.sourcePrefix)
  })
}

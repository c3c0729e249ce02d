import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable } from '../http/csv-answer'
import { BAR_ROW_COLUMNS } from '../http/format'
import { admittedRoute, registerAdmitted } from '../access/route'
import { callerCaps, type AccessPolicy, type Tier } from '../access/tiers'
import type { Instrument } from '../domain/instrument'
import { mapLimit } from '../domain/concurrency'
import { parseCodes } from '../domain/kline-rules'
import type { AppEnv } from '../http/context'
import { keptAnswerFields } from '../http/outcome'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Services } from '../services/types'
import { CODE_EXAMPLES, IntParam, SERIES_HISTORY, SeriesDataSchema } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { answerSeries, type SymbolOutcome } from '../http/series-body'
import { quoteAsOf } from '../domain/instant'

const QuoteQuery = z.object({
  code: z.string({ error: 'code is required' }).openapi({
    description: 'One code or several comma-separated codes with market prefix (sh, sz, bj, hk, us, pt, fu, fx; futures fuRB2701 or the main continuous contract fuRB0, forex fxUSDCNH); anonymous callers at most 5',
    example: 'sh600519',
    // Named examples per instrument class (futures main contract, forex), listed in the document.
    param: { examples: CODE_EXAMPLES },
  }),
  count: IntParam('count', 1, 1212)
    .optional()
    .openapi({ description: 'Daily bars per symbol, newest first (default 30)', example: 30, type: 'integer', minimum: 1, maximum: 1212 }),
})

const QuoteResponse = envelopeSchema('QuoteEnvelope', SeriesDataSchema, AS_OF.instant('the live line\'s time stamp (the newest one with several codes); a date when the line carries no time (Sina\'s US lines)'), SERIES_HISTORY).openapi({
  example: {
    ok: true,
    endpoint: 'quote',
    tier: 'free',
    elapsed_ms: 42,
    source: 'tencent',
    as_of: '2026-11-20T15:00:03+08:00',
    history: 'store',
    data: [
      { date: '2026-11-20', open: '1510.00', last: '1520.00', high: '1525.00', low: '1505.20', volume: '2134500', amount: '3243567890.00', turnover: '0.17' },
      { date: '2026-11-19', open: '1502.00', last: '1508.50', high: '1512.00', low: '1498.00', volume: '1987600', amount: '2991234000.00', turnover: '0.16' },
    ],
  },
})

/** The symbols and bar count a valid query asks for under the caller's tier; throws the 422. */
function planQuote(q: z.output<typeof QuoteQuery>, tier: Tier): { instruments: Instrument[]; count: number } {
  const issues: ValidationIssue[] = []
  const caps = callerCaps(tier)
  const instruments = parseCodes(q.code, issues, caps)
  if (q.count !== undefined && q.count > caps.maxCount) {
    issues.push(queryIssue('count', `${caps.who} may request at most ${caps.maxCount} bars`, q.count, 'less_than_equal'))
  }
  if (issues.length) throw new ValidationError(issues)
  return { instruments, count: Math.min(q.count ?? 30, caps.maxCount) }
}

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/quote',
  operationId: 'quote',
  tags: ['Free'],
  summary: 'Real-time quote with recent daily bars',
  description:
    'Daily bars newest first; `data[0]` is today\'s live bar, so `data[0].last` is the current price. 8 string fields per bar ' +
    '(prices forward-adjusted, volume in shares, amount in CNY, turnover in percent). No valuation or market cap. ' +
    'Several codes: `data` maps each code to its bars. The real-time quote comes from the channel named in `source`; an A-share stock\'s past bars from the service\'s stored history when it joins the quote exactly, else from the same channel (`history` says which). ' +
    'With a key the live bar is the source\'s latest snapshot, shared with other callers for at most 3 s while the A-share market moves ' +
      '(09:00–16:30 on trading days; a minute outside those hours, when the line does not change); `as_of` is its time stamp. ' +
      'The past bars may be reused for up to ten minutes, never from another day. ' +
      'Past the service\'s request budget for the hosts, or while they ban it (GET /v1/status), the last line kept is served with `stale` (at most 15 minutes old). ' +
    'Anonymous answers come from a cache refreshed at most every five minutes (`cached: true`).',
  request: { query: QuoteQuery },
  responses: {
    200: { description: 'Quote series (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: QuoteResponse } } },
    ...COMMON_ERRORS,
  },
}, { anonCache: true, csv: dataTable(BAR_ROW_COLUMNS), check: (c, q) => void planQuote(q, c.get('tier')) })

/** GET /v1/quote */
export function registerQuote(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const { instruments, count } = planQuote(c.req.valid('query'), c.get('tier'))

    const outcomes = await mapLimit(instruments, 4, async (instrument): Promise<SymbolOutcome> => {
      const r = await services.market.quoteSeries(instrument, count)
      if (!r.ok) return { instrument, ok: false, attempts: r.attempts }
      const asOf = quoteAsOf(instrument.prefix, r.quote.date, r.quote.time)
      return { instrument, ok: true, bars: r.bars, channel: r.channel, history: r.history, asOf, ...(r.stale ? keptAnswerFields(r.attempts ?? []) : {}) }
    })
    return answerSeries(c, 'quote', outcomes, services.sourcePrefix)
  })
}

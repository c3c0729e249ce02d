import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable, schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { Attempt } from '../services/types'
import { addDays, beijing, weekday } from '../domain/dates'
import type { Instrument } from '../domain/instrument'
import { isTradingDay, previousTradingDay, tradingDayOnOrBefore } from '../domain/trading-calendar'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError, type ValidationIssue } from '../http/validation'
import type { Services } from '../services/types'
import { blockTrades, type BlockTrade, type BlockTradeQuery } from '../services/trading-records'
import { isIssue, oneStockOrIssue } from './shared/stock-code'
import { DateParam, futureDateIssue } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { upstreamFailure } from '../http/outcome'
import { BlockTradeRowSchema, blockTradeRow, eastmoneySource, type BlockTradeRow, EVENT_WINDOW_DAYS } from './shared/trading-rows'

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** Block trades are reported after the close: a session's list is complete from this Beijing minute (15:30). */
const PUBLISHED_MINUTE = 15 * 60 + 30
/** Sessions walked back for the whole market's latest list when `date` is blank. */
const LOOKBACK_SESSIONS = 5
/** The earliest date served (the report's depth we rely on). */
const FIRST_DATE = '2015-01-05'

const Query = z.object({
  code: z.string().optional().openapi({ description: 'One A-share stock with its sh, sz or bj prefix; blank = the whole A-share market', example: 'sh600519' }),
  date: DateParam('date').optional().openapi({ description: 'Trading day `YYYY-MM-DD`; blank = the latest trading day with block trades (for a stock: its latest within 365 days)', example: '2026-11-20' }),
})

const Response = envelopeSchema('BlockTradeEnvelopeBase', z.array(BlockTradeRowSchema).openapi({ description: 'Block trades, by code then report order' }), AS_OF.date('the session of the trades'))
  .extend({ date: z.string().optional().openapi({ description: 'The trading day the rows are from' }) })
  .openapi('BlockTradeEnvelope', {
    example: {
      ok: true,
      endpoint: 'block-trade',
      tier: 'trial',
      elapsed_ms: 21,
      source: 'eastmoney',
      date: '2026-11-20',
      as_of: '2026-11-20',
      data: [
        { code: 'sh600519', name: '贵州茅台', date: '2026-11-20', price: 1398.0, close: 1520.0, premium_pct: -8.03, volume: 2000, amount: 2796000, buyer: '机构专用', seller: '中信证券股份有限公司上海分公司', change_pct: 0.76, float_pct: 0.0001 },
      ],
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/block-trade',
  operationId: 'blockTrade',
  tags: ['Pro'],
  summary: 'Block trades of one stock or of the whole A-share market on a day',
  description:
    'Negotiated block trades (大宗交易) as the exchanges report them after the close: deal price, the day\'s close, premium (+) or ' +
    'discount (−) in percent, volume in shares, amount in CNY, buying and selling brokerage branches. `date` blank: the latest trading ' +
    'day with block trades (a session\'s list is complete from 15:30 Beijing). With `code` and no `date`: that stock\'s latest block-trade ' +
    'day within 365 days. A date that is not a trading day, in the future, or before 2015-01-05 is a 422 naming the nearest trading day. ' +
    'No trades on the day asked: ok:false NO_DATA (not counted). The same rows as the `block_trades` section of /v1/fund.',
  request: { query: Query },
  responses: {
    200: { description: 'Block trades (ok:false NO_DATA when there are none, UPSTREAM_UNAVAILABLE when the upstream failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (c, q) => void planOf(q, c.get('services').now()), csv: dataTable(schemaColumns(BlockTradeRowSchema)) })

/** The latest session whose block-trade list is complete at `now`. */
function lastPublished(now: number): string {
  const bj = beijing(now)
  const d = isTradingDay(bj.date) && bj.minute >= PUBLISHED_MINUTE ? bj.date : previousTradingDay(bj.date)
  return tradingDayOnOrBefore(d)
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** The stock (if any) and the date (if given) a valid query asks for; throws the 422 naming every wrong field. */
function planOf(q: z.output<typeof Query>, now: number): { inst: Instrument | null; date: string | null } {
  const issues: ValidationIssue[] = []
  let inst: Instrument | null = null
  if (q.code !== undefined && q.code !== '') {
    const r = oneStockOrIssue(q.code, 'block-trade')
    if (isIssue(r)) issues.push(r)
    else inst = r
  }
  const d = q.date ?? null
  if (d) {
    const today = beijing(now).date
    const future = futureDateIssue('date', d, today)
    if (future) issues.push(future)
    else if (d < FIRST_DATE) issues.push(queryIssue('date', `date must be ${FIRST_DATE} or later`, d))
    else if (!isTradingDay(d)) {
      const why = weekday(d) === 0 || weekday(d) === 6 ? `a ${WEEKDAYS[weekday(d)]}` : 'an exchange holiday'
      issues.push(queryIssue('date', `${d} is not a trading day (${why}); the trading day before it is ${previousTradingDay(d)}`, d))
    }
  }
  if (issues.length) throw new ValidationError(issues)
  return { inst, date: d }
}

type Outcome = { ok: true; trades: BlockTrade[]; date: string | null } | { ok: false; attempts: Attempt[] }

/** The trades a plan asks for; `date` null only when there were none to find. */
async function tradesOf(services: Services, plan: { inst: Instrument | null; date: string | null }): Promise<Outcome> {
  const ask = async (query: BlockTradeQuery) => {
    const r = await services.market.fetch('block-trade', ['eastmoney'], blockTrades(query))
    return r
  }
  const latest = lastPublished(services.now())
  if (plan.date) {
    const day = plan.date
    const r = await ask(plan.inst ? { code: plan.inst.code, from: day, to: day } : { date: day })
    return r.ok ? { ok: true, trades: r.value, date: day } : r
  }
  if (plan.inst) {
    const r = await ask({ code: plan.inst.code, from: addDays(latest, -EVENT_WINDOW_DAYS), to: latest })
    if (!r.ok) return r
    const day = r.value[0]?.date ?? null
    return { ok: true, trades: r.value.filter((t) => t.date === day), date: day }
  }
  let day = latest
  for (let k = 0; k < LOOKBACK_SESSIONS; k++, day = previousTradingDay(day)) {
    const r = await ask({ date: day })
    if (!r.ok) return r
    if (r.value.length) return { ok: true, trades: r.value, date: day }
  }
  return { ok: true, trades: [], date: null }
}

/** The envelope body for a plan: the trades, or why there are none. */
async function blockTradeBody(services: Services, plan: { inst: Instrument | null; date: string | null }) {
  const source = eastmoneySource(services.sourcePrefix)
  const out = await tradesOf(services, plan)
  if (!out.ok) return { ok: false, source, data: [] as BlockTradeRow[], ...upstreamFailure(out.attempts) }
  if (out.trades.length === 0) {
    const who = plan.inst ? plan.inst.code : 'the A-share market'
    const when = plan.date ? `on ${plan.date}` : plan.inst ? `in the last ${EVENT_WINDOW_DAYS} days` : `in the last ${LOOKBACK_SESSIONS} sessions`
    return { ok: false, source, data: [] as BlockTradeRow[], code: 'NO_DATA' as const, error: `no block trades of ${who} ${when}` }
  }
  const data = out.trades.map(blockTradeRow).sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
  return { ok: true, source, data, date: out.date!, as_of: out.date! }
}

/** GET /v1/block-trade */
export function registerBlockTrade(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const plan = planOf(c.req.valid('query'), services.now())
    const body = await services.reference.withLastGood(c, { cls: 'blockTrade', key: `block-trade?code=${plan.inst?.code ?? ''}&date=${plan.date ?? ''}` }, await blockTradeBody(services, plan))
    return answer(c, 'block-trade', body)
  })
}

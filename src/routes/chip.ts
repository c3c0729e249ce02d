import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { CHIP_BUCKETS, chipDistribution } from '../domain/chip'
import { beijing } from '../domain/dates'
import type { Instrument } from '../domain/instrument'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { isIssue, oneStockOrIssue } from './shared/stock-code'
import { DateParam, futureDateIssue } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { chipBars } from '../features/technical/chip-bars'
import { upstreamFailure } from '../http/outcome'

/** Who may call it and what it costs: the pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** Daily bars the distribution is built over: the window akshare asks Eastmoney for (upstreams.md §5.15). */
const CHIP_WINDOW = 210

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock with its sh, sz or bj prefix', example: 'sh600519' }),
  date: DateParam('date')
    .optional()
    .openapi({ description: 'The day to compute for, YYYY-MM-DD, not after today (default: the latest trading day, today\'s live bar included during the session). A non-trading day means the last session before it; trust the returned `date`.', example: '2026-11-20' }),
})

const pct = (d: string) => z.number().openapi({ description: d })

const ChipSchema = z
  .object({
    code: z.string().openapi({ description: 'Stock code with prefix' }),
    date: z.string().openapi({ description: 'Trading day the distribution is for, `YYYY-MM-DD`' }),
    close: z.number().openapi({ description: 'Close (during the session: the last price) of that day, CNY, forward-adjusted (qfq) like every price here' }),
    profit_ratio: pct('Share of chips bought at or below the close (获利比例), percent 0..100, 2 decimals'),
    average_cost: z.number().openapi({ description: 'Average holding cost (平均成本; the median of the distribution, as Eastmoney computes it), CNY qfq' }),
    cost_90_low: z.number().openapi({ description: 'Low end of the range holding the middle 90% of chips (cost at 5%), CNY qfq' }),
    cost_90_high: z.number().openapi({ description: 'High end of the 90% range (cost at 95%), CNY qfq' }),
    concentration_90: pct('90% concentration: (high − low) / (high + low) of the 90% range, percent, 2 decimals; smaller is more concentrated'),
    cost_70_low: z.number().openapi({ description: 'Low end of the middle-70% range (cost at 15%), CNY qfq' }),
    cost_70_high: z.number().openapi({ description: 'High end of the 70% range (cost at 85%), CNY qfq' }),
    concentration_70: pct('70% concentration, percent, 2 decimals'),
    bars: z.number().int().openapi({ description: `Daily bars the distribution was built over (at most ${CHIP_WINDOW})` }),
    first_date: z.string().openapi({ description: 'Date of the first of those bars' }),
    distribution: z
      .array(
        z.object({
          price: z.number().openapi({ description: 'Bucket price, CNY qfq, 2 decimals' }),
          share: z.number().openapi({ description: 'Fraction of all chips held at this price, 0..1, 6 decimals; the buckets sum to 1' }),
        })
      )
      .openapi({ description: `${CHIP_BUCKETS} price buckets evenly spaced from the window's lowest low to its highest high, lowest first` }),
  })
  .openapi('Chip')

const Response = envelopeSchema('ChipEnvelopeBase', z.union([ChipSchema, z.object({})]).openapi({ description: 'The distribution; `{}` with ok:false' }), AS_OF.date('the session of the distribution'))
  .extend({
    history: z.enum(['store', 'channel']).optional().openapi({
      description:
        '`store`: the bars are the history store\'s (forward-adjusted as /v1/kline-full, with each day\'s stored turnover rate), ' +
        'joined during a session to the channel in `source` for the live day; `source` is `store` when no upstream was asked. ' +
        '`channel`: the store lacked the stock (or its turnover rates), so the channel in `source` served the whole window',
    }),
  })
  .openapi('ChipEnvelope', {
    example: {
      ok: true,
      endpoint: 'chip',
      tier: 'pro',
      elapsed_ms: 12,
      source: 'eastmoney',
      history: 'store',
      as_of: '2026-11-20',
      data: {
        code: 'sh600519', date: '2026-11-20', close: 1520, profit_ratio: 63.18, average_cost: 1487.35,
        cost_90_low: 1391.2, cost_90_high: 1588.46, concentration_90: 6.62, cost_70_low: 1430.66, cost_70_high: 1550.1, concentration_70: 4.01,
        bars: 210, first_date: '2026-01-08', distribution: [{ price: 1380.02, share: 0.000412 }, { price: 1381.75, share: 0.000533 }],
      },
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/chip',
  operationId: 'chip',
  tags: ['Pro'],
  summary: 'Chip (holding cost) distribution of one A-share stock',
  description:
    `Computed by the service from the last ${CHIP_WINDOW} forward-adjusted daily bars up to \`date\` with Eastmoney's CYQ algorithm: ` +
    'each day its turnover rate of the old chips is replaced by new ones spread as a triangle over the day\'s low..high, peaking at ' +
    `(open + high + low + close) / 4. Gives ${CHIP_BUCKETS} price buckets with their share of chips, the profit ratio at the close, the average ` +
    'cost, the 90% and 70% cost ranges and their concentration. A-share stocks only (422 otherwise). Bars come from the history store ' +
    '(raw daily bars, corporate actions and each day\'s turnover rate; a past day, or the latest one outside a session, costs no upstream ' +
    'request, during a session the latest day adds a short channel tail for the live bar) and, when the store lacks the stock, from the day K-line channels (`history` says which, `source` names ' +
    'the channel or `store`); a channel without turnover rates is skipped.',
  request: { query: Query },
  responses: {
    200: { description: 'Distribution (ok:false when no channel had the bars; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (c, q) => void checkQuery(q, beijing(c.get('services').now()).date) })

/** The stock asked for, or the 422: a code that is not one A-share stock, a date in the future. */
function checkQuery(q: z.output<typeof Query>, today: string): Instrument {
  const inst = oneStockOrIssue(q.code, 'chip')
  const future = futureDateIssue('date', q.date, today)
  if (isIssue(inst) || future) throw new ValidationError([...(isIssue(inst) ? [inst] : []), ...(future ? [future] : [])])
  return inst
}

const r2 = (v: number) => Math.round(v * 100) / 100
const r6 = (v: number) => Math.round(v * 1e6) / 1e6

/** GET /v1/chip */
export function registerChip(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const inst = checkQuery(q, beijing(services.now()).date)
    const r = await chipBars(services, c, inst, CHIP_WINDOW, q.date)
    if (!r.ok || r.bars.length === 0) {
      const failure = r.ok ? { code: 'NO_DATA' as const, error: `${inst.code}: no daily bars up to ${q.date}` } : upstreamFailure(r.attempts, inst.code)
      return answer(c, 'chip', { ok: false, source: 'none', data: {}, ...failure })
    }
    const x = chipDistribution(r.bars)
    const source = r.channel ? services.sourcePrefix + r.channel : 'store'
    if (x.distribution.every((b) => b.share === 0)) {
      // No turnover in the whole window (a long suspension): there is no distribution to speak of.
      const error = `${inst.code}: no turnover in the ${r.bars.length} bars up to ${x.date}`
      return answer(c, 'chip', { ok: false, source, history: r.history, data: {}, code: 'NO_DATA', error })
    }
    const data = {
      code: inst.code,
      date: x.date,
      close: x.close,
      profit_ratio: r2(x.profitRatio * 100),
      average_cost: x.averageCost,
      cost_90_low: x.range90[0],
      cost_90_high: x.range90[1],
      concentration_90: r2(x.concentration90 * 100),
      cost_70_low: x.range70[0],
      cost_70_high: x.range70[1],
      concentration_70: r2(x.concentration70 * 100),
      bars: r.bars.length,
      first_date: r.bars[0].date,
      distribution: x.distribution.map((b) => ({ price: b.price, share: r6(b.share) })),
    }
    return answer(c, 'chip', { ok: true, source, history: r.history, data, as_of: x.date })
  })
}

import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable, schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { dividendPlans, planDate, type DividendPlan } from '../services/dividends'
import { oneStock } from './shared/stock-code'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { staleOf } from '../services/reference'

/** Who may call it and what it costs: the pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const DIVIDEND_YEARS = { default: 3, max: 20 } as const

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock with its sh, sz or bj prefix', example: 'sh600519' }),
  years: IntParam('years', 1, DIVIDEND_YEARS.max)
    .default(DIVIDEND_YEARS.default)
    .openapi({ description: `Plans of the last N years (by ex-date, or announcement date while there is none), 1..${DIVIDEND_YEARS.max}, default ${DIVIDEND_YEARS.default}`, example: 3, type: 'integer', minimum: 1, maximum: DIVIDEND_YEARS.max }),
})

const dateOrNull = (d: string) => z.string().nullable().openapi({ description: `${d}, \`YYYY-MM-DD\`; null until the upstream sets it` })
const perShare = (d: string) => z.number().openapi({ description: d })

const DividendRow = z
  .object({
    report_date: z.string().nullable().openapi({ description: 'Financial period the distribution belongs to, `YYYY-MM-DD` (e.g. 2025-12-31 for the annual one); null from Sina, whose page does not say' }),
    plan_notice_date: dateOrNull('Date the board announced the plan (null from Sina, whose page gives only the latest announcement)'),
    notice_date: dateOrNull('Date of the latest announcement about the plan (proposal, approval or implementation)'),
    cash: perShare('Cash dividend per share, CNY, pre-tax (0 when the plan pays none)'),
    bonus_shares: perShare('Bonus shares (送股) per share; null when the upstream gives only the sum with transferred shares').nullable(),
    transfer_shares: perShare('Shares transferred from capital reserve (转增) per share; null as for bonus_shares').nullable(),
    bonus_transfer_shares: perShare('Bonus plus transferred shares per share (10送3转2 → 0.5)'),
    record_date: dateOrNull('Record date (股权登记日)'),
    ex_date: dateOrNull('Ex-date (除权除息日): the day /v1/kline-full and /v1/kline adjust prices for this distribution'),
    pay_date: dateOrNull('Cash payment date (派息日); null also when the plan pays no cash, and from Sina, whose page does not give it'),
    status: z.enum(['proposed', 'approved', 'implemented', 'cancelled']).nullable().openapi({
      description: 'Stage as the upstream says: proposed (董事会预案), approved by the shareholders (股东大会决议通过), implemented (实施分配; dates set, the ex-date may still lie ahead), cancelled; null for a stage text we do not know (see status_text)',
    }),
    status_text: z.string().openapi({ description: 'The upstream\'s own words for the stage' }),
    plan: z.string().nullable().openapi({ description: 'The plan as the upstream words it, per 10 shares, e.g. `10派276.73元(含税)`; null from Sina' }),
  })
  .openapi('DividendRow')

const Response = envelopeSchema('DividendEnvelope', z.array(DividendRow).openapi({ description: 'Plans, newest first' }), AS_OF.date('the day the plans were read (Beijing)')).openapi({
  example: {
    ok: true,
    endpoint: 'dividend',
    tier: 'pro',
    elapsed_ms: 40,
    source: 'eastmoney',
    as_of: '2026-11-20',
    data: [
      {
        report_date: '2025-12-31', plan_notice_date: '2026-04-02', notice_date: '2026-06-12', cash: 27.673, bonus_shares: 0, transfer_shares: 0, bonus_transfer_shares: 0,
        record_date: '2026-06-18', ex_date: '2026-06-19', pay_date: '2026-06-19', status: 'implemented', status_text: '实施分配', plan: '10派276.73元(含税)',
      },
    ],
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/dividend',
  operationId: 'dividend',
  tags: ['Pro'],
  summary: 'Dividend, bonus-share and transfer history of one A-share stock',
  description:
    'Every distribution plan of the last `years` years, newest first: cash per share (pre-tax), bonus and transferred shares per share, ' +
    'record, ex- and payment dates, and the plan\'s stage. Announced plans whose ex-date has not come yet are included with their stage. ' +
    'The ex-dates and amounts of implemented plans are the corporate actions /v1/kline-full uses for qfq/hfq. Source: Eastmoney datacenter ' +
    '`RPT_SHAREBONUS_DET`; when it fails, Sina\'s distribution page (`vISSUE_ShareBonus`), which has no report period, first announcement, payment ' +
    'date or plan text (null). Kept for every caller for six hours; when every upstream fails, the last good answer is served with `stale` (up to ' +
    '7 days old). A-share stocks only (422 otherwise). A stock without any plan answers ok:false NO_DATA (not counted).',
  request: { query: Query },
  responses: {
    200: { description: 'Plans (ok:false when the upstream failed or knows no plan; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneStock(q.code, 'dividend'), csv: dataTable(schemaColumns(DividendRow)) })

/** The first day of the window: the same calendar day `years` years before `today`. */
function windowStart(today: string, years: number): string {
  return `${String(Number(today.slice(0, 4)) - years).padStart(4, '0')}${today.slice(4)}`
}

const toRow = (p: DividendPlan) => ({
  report_date: p.reportDate,
  plan_notice_date: p.planNoticeDate,
  notice_date: p.noticeDate,
  cash: p.cash,
  bonus_shares: p.bonusShares,
  transfer_shares: p.transferShares,
  bonus_transfer_shares: p.bonusTransferShares,
  record_date: p.recordDate,
  ex_date: p.exDate,
  pay_date: p.payDate,
  status: p.status,
  status_text: p.statusText,
  plan: p.profile,
})

/** The channels that serve dividend plans, in order. */
const DIVIDEND_CHANNELS: readonly ChannelName[] = ['eastmoney', 'sina']

/** GET /v1/dividend */
export function registerDividend(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const inst = oneStock(q.code, 'dividend')
    const r = await services.reference.fetch(c, `dividend?${inst.code}`, DIVIDEND_CHANNELS, dividendPlans(inst), { cls: 'dividend' })
    if (!r.ok) return answer(c, 'dividend', { ok: false, source: r.source, data: [], code: r.code, error: `${inst.code}: ${r.error}` })
    const source = r.source
    const plans = r.value
    if (plans.length === 0) {
      return answer(c, 'dividend', { ok: false, source, data: [], code: 'NO_DATA', error: `${inst.code}: the upstream knows no dividend plan of this stock` })
    }
    const today = beijing(services.now()).date
    const from = windowStart(today, q.years)
    const data = plans.filter((p) => planDate(p) >= from).map(toRow)
    const notice = data.length === 0 ? `no plan of ${inst.code} since ${from}; the latest is of ${planDate(plans[0])}` : undefined
    return answer(c, 'dividend', { ok: true, source, data, as_of: today, ...staleOf([r], notice) })
  })
}

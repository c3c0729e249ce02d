import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { sectionTable } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { Ask, Attempt, FailoverResult } from '../services/types'
import { flowRankOf, flowRanks, moneyFlow, ORDER_CLASSES, type DayFlowRow, type FlowRanks, type TodayFlow } from '../services/money-flow'
import { blockTrades, boardDays, marginDays, type BoardDay, type MarginDay } from '../services/trading-records'
import { addDays, beijing } from '../domain/dates'
import type { Instrument } from '../domain/instrument'
import { beijingInstant, isoInstant } from '../domain/instant'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { isIssue, oneStockOrIssue } from './shared/stock-code'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { describeAttempts, upstreamFailure } from '../http/outcome'
import { BlockTradeRowSchema, blockTradeRow, eastmoneySource, EVENT_WINDOW_DAYS } from './shared/trading-rows'

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const DEFAULT_DAYS = 20
/**
 * How long a call without `rank` waits for a ranking nobody has computed this minute. The walk
 * goes on after the answer (waitUntil), so the next call finds it; `rank=true` always waits.
 */
const RANK_WAIT_MS = 1500
const MAX_DAYS = 120

const Query = z.object({
  code: z.string({ error: 'code is required' }).openapi({ description: 'One A-share stock with its sh, sz or bj prefix', example: 'sh600519' }),
  days: IntParam('days', 1, MAX_DAYS)
    .optional()
    .openapi({ description: `Sessions of money flow and margin trading, newest first (default ${DEFAULT_DAYS})`, example: DEFAULT_DAYS, type: 'integer', minimum: 1, maximum: MAX_DAYS }),
  rank: z
    .enum(['true', 'false'], { error: 'rank must be true or false' })
    .optional()
    .openapi({
      description:
        'Today\'s place in the whole A-share market by main net inflow (`main_net_rank` of `ranked`). Absent: included when the shared ' +
        `ranking is ready within ${RANK_WAIT_MS} ms (it is computed once a minute for all callers); true: wait for it; false: leave it out`,
      example: 'true',
    }),
})

// ---------------------------------------------------------------------------------------------
// Row schemas

const cny = (what: string) => z.number().nullable().openapi({ description: `${what}, CNY` })
const pct = (what: string) => z.number().openapi({ description: `${what}, percent of the day's turnover amount` })

const classColumns = Object.fromEntries(
  ORDER_CLASSES.flatMap((c) => {
    const label = { super: 'Super-large orders (≥ 1 million CNY or 500,000 shares)', large: 'Large orders (200,000–1 million CNY)', medium: 'Medium orders (40,000–200,000 CNY)', small: 'Small orders (< 40,000 CNY)' }[c]
    return [
      [`${c}_inflow`, cny(`${label}: active buying; null on past days (the daily upstream gives nets only)`)],
      [`${c}_outflow`, cny(`${label}: active selling; null on past days`)],
      [`${c}_net`, z.number().openapi({ description: `${label}: net inflow (inflow − outflow), CNY` })],
      [`${c}_ratio`, pct(`${label}: net inflow`)],
    ]
  })
) as Record<string, z.ZodType>

const MoneyFlowRow = z
  .object({
    date: z.string().openapi({ description: 'Session `YYYY-MM-DD`; today\'s row grows during the session' }),
    amount: cny('The day\'s turnover amount (the same as /v1/kline\'s `amount`); null on past days, where the upstream does not repeat it'),
    main_net: z.number().openapi({ description: 'Main force (super-large + large orders) net inflow, CNY' }),
    main_ratio: pct('Main-force net inflow'),
    main_net_rank: z.number().int().nullable().openapi({ description: 'Today: the stock\'s place among all traded A-share stocks by main net inflow (1 = the largest inflow); null on past days, with `rank=false`, or while the shared ranking is not ready (see `rank`)' }),
    ranked: z.number().int().nullable().openapi({ description: 'Today: how many stocks were ranked (halted ones are not); null when `main_net_rank` is' }),
    ...classColumns,
    close: z.number().nullable().openapi({ description: 'Close (today: last) price, CNY' }),
    change_pct: z.number().nullable().openapi({ description: 'Change of the day, percent' }),
  })
  .openapi('MoneyFlowRow')

const SeatSchema = z.object({
  name: z.string().openapi({ description: 'Brokerage branch (`机构专用` = an institution seat)' }),
  buy: z.number().openapi({ description: 'Bought through the seat that day, CNY' }),
  sell: z.number().openapi({ description: 'Sold through the seat that day, CNY' }),
  net: z.number().openapi({ description: 'buy − sell, CNY' }),
})

const TopTraderRow = z
  .object({
    date: z.string().openapi({ description: 'Day the stock was on the dragon-tiger board, `YYYY-MM-DD`' }),
    reasons: z.array(z.string()).openapi({ description: 'Listing reasons as the exchange words them (e.g. 日涨幅偏离值达到7%的前5只证券)' }),
    close: z.number().nullable().openapi({ description: 'Close that day, CNY' }),
    change_pct: z.number().nullable().openapi({ description: 'Change that day, percent' }),
    buy_amount: z.number().openapi({ description: 'Bought by the listed seats, CNY' }),
    sell_amount: z.number().openapi({ description: 'Sold by the listed seats, CNY' }),
    net_amount: z.number().openapi({ description: 'buy_amount − sell_amount, CNY' }),
    amount: z.number().nullable().openapi({ description: 'The stock\'s whole turnover that day, CNY' }),
    buyers: z.array(SeatSchema).openapi({ description: 'The five seats that bought most, largest first' }),
    sellers: z.array(SeatSchema).openapi({ description: 'The five seats that sold most, largest first' }),
  })
  .openapi('TopTraderRow')

const MarginRow = z
  .object({
    date: z.string().openapi({ description: 'Session `YYYY-MM-DD` (published the next morning)' }),
    financing_balance: z.number().openapi({ description: 'Financing balance (融资余额) at the close, CNY' }),
    financing_buy: z.number().openapi({ description: 'Bought on margin that day (融资买入额), CNY' }),
    financing_repay: z.number().openapi({ description: 'Financing repaid that day (融资偿还额), CNY' }),
    financing_net_buy: z.number().openapi({ description: 'financing_buy − financing_repay, CNY' }),
    lending_balance: z.number().openapi({ description: 'Securities-lending balance (融券余额), CNY' }),
    lent_shares: z.number().nullable().openapi({ description: 'Lent shares outstanding (融券余量), shares' }),
    lent_sold: z.number().nullable().openapi({ description: 'Lent shares sold that day, shares' }),
    lent_repaid: z.number().nullable().openapi({ description: 'Lent shares repaid that day, shares' }),
    total_balance: z.number().openapi({ description: 'financing_balance + lending_balance, CNY' }),
    close: z.number().nullable().openapi({ description: 'Close that day, CNY' }),
  })
  .openapi('MarginRow')

const FUND_SECTIONS = [
  { slug: 'money_flow', title: 'Money flow by order size', row: MoneyFlowRow },
  { slug: 'top_traders', title: 'Dragon-tiger board appearances (last 365 days)', row: TopTraderRow },
  { slug: 'block_trades', title: 'Block trades (last 365 days)', row: BlockTradeRowSchema },
  { slug: 'margin', title: 'Margin trading', row: MarginRow },
] as const
type Slug = (typeof FUND_SECTIONS)[number]['slug']

const Section = z.object({
  title: z.string().openapi({ description: 'Section title' }),
  slug: z.enum(FUND_SECTIONS.map((s) => s.slug) as [Slug, ...Slug[]]).openapi({ description: 'Section key, also the key in `data.data`' }),
  rows: z.array(z.union([MoneyFlowRow, TopTraderRow, BlockTradeRowSchema, MarginRow])).openapi({ description: 'The section\'s rows, newest first (row shape per slug: see `data.data`)' }),
})

const FundData = z
  .object({
    code: z.string().openapi({ description: 'The stock, e.g. `sh600519`' }),
    tables: z.array(Section).openapi({ description: 'Sections in this order: money_flow, top_traders, block_trades, margin' }),
    data: z
      .object({ money_flow: z.array(MoneyFlowRow), top_traders: z.array(TopTraderRow), block_trades: z.array(BlockTradeRowSchema), margin: z.array(MarginRow) })
      .openapi({ description: 'The same rows indexed by slug' }),
  })
  .openapi('FundData')

/** One row per section, as the emulator answers sz000003 after the close of 2026-11-20 (seats cut to two). */
const EXAMPLE_ROWS = {
  money_flow: [
    {"date": "2026-11-20", "amount": 151042858.76, "main_net": -473988.76, "main_ratio": -0.31, "main_net_rank": null, "ranked": null, "super_inflow": 14274949.85, "super_outflow": 14366901.18, "super_net": -91951.33, "super_ratio": -0.06, "large_inflow": 16289172.28, "large_outflow": 16671209.71, "large_net": -382037.43, "large_ratio": -0.25, "medium_inflow": 19954463.05, "medium_outflow": 19665307.59, "medium_net": 289155.46, "medium_ratio": 0.19, "small_inflow": 24876703.84, "small_outflow": 24944151.26, "small_net": -67447.42, "small_ratio": -0.04, "close": 12.78, "change_pct": 0.16},
  ],
  top_traders: [
    {"date": "2026-09-03", "reasons": ["日跌幅偏离值达到7%的前5只证券"], "close": 14.61, "change_pct": -9.98, "buy_amount": 23736792.78, "sell_amount": 26964388.17, "net_amount": -3227595.39, "amount": 176359090.28, "buyers": [{"name": "中国国际金融股份有限公司上海分公司", "buy": 5402311.05, "sell": 397674.96, "net": 5004636.09}, {"name": "华泰证券股份有限公司深圳益田路荣超商务中心证券营业部", "buy": 4145432.55, "sell": 15848.3, "net": 4129584.25}], "sellers": [{"name": "东方财富证券股份有限公司拉萨团结路第二证券营业部", "buy": 1666605.8, "sell": 8893049.04, "net": -7226443.24}, {"name": "机构专用", "buy": 185010.28, "sell": 4993944.26, "net": -4808933.98}]},
  ],
  block_trades: [
    {"code": "sz000003", "name": "昊德", "date": "2026-11-19", "price": 12.58, "close": 12.76, "premium_pct": -1.41, "volume": 1700800, "amount": 21396064, "buyer": "银河证券股份有限公司北京中关村大街证券营业部", "seller": "国泰君安证券股份有限公司上海江苏路证券营业部", "change_pct": -0.31, "float_pct": 0.3598},
  ],
  margin: [
    {"date": "2026-11-19", "financing_balance": 106867118.16, "financing_buy": 3855707.46, "financing_repay": 15992032.5, "financing_net_buy": -12136325.04, "lending_balance": 8823540, "lent_shares": 691500, "lent_sold": 2300, "lent_repaid": 15400, "total_balance": 115690658.16, "close": 12.76},
  ],
}

const Response = envelopeSchema(
  'FundEnvelopeBase',
  FundData.nullable().openapi({ description: 'The sections; null with ok:false' }),
  AS_OF.either('with today\'s live money-flow row, its time stamp (an instant); otherwise the newest money-flow row\'s session date')
)
  .openapi('FundEnvelope', {
    example: {
      ok: true,
      endpoint: 'fund',
      tier: 'trial',
      elapsed_ms: 38,
      source: 'eastmoney',
      as_of: '2026-11-20T15:00:00+08:00',
      data: {
        code: 'sz000003',
        tables: FUND_SECTIONS.map((s) => ({ title: s.title, slug: s.slug, rows: EXAMPLE_ROWS[s.slug] })),
        data: EXAMPLE_ROWS,
      },
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/fund',
  operationId: 'fund',
  tags: ['Pro'],
  summary: 'Money flow, dragon-tiger board, block trades and margin trading of one A-share stock',
  description:
    'Sectioned (`data.tables` of `{title, slug, rows}`, `data.data` slug → rows). `money_flow`: the last `days` sessions, ' +
    'newest first, the day\'s turnover split by order size (super-large, large, medium, small; main force = super-large + large) into ' +
    'inflow (active buying), outflow (active selling), net and net ratio (percent of the day\'s amount). Each trade counts once, on its ' +
    'active side, so today\'s eight inflows and outflows add up to the day\'s amount while the four nets do not cancel out (as on Eastmoney). ' +
    'Past sessions carry nets and ratios only (inflow/outflow null), which is all the daily upstream publishes. Today\'s row also carries ' +
    '`main_net_rank`, the stock\'s place among all traded A-share stocks by main net inflow, of `ranked`: one walk of the market list a minute ' +
    `shared by every caller (a call waits up to ${RANK_WAIT_MS} ms for a walk under way; \`rank=true\` waits for it, \`rank=false\` skips it). \`top_traders\`: the days ` +
    'the stock was on the dragon-tiger board in the last 365 days, with reasons and the top five buying and selling seats. `block_trades`: ' +
    'its block trades in the last 365 days (the same rows as /v1/block-trade). `margin`: financing and securities lending per session. ' +
    'A-share stocks only (422 otherwise). ok:false (not counted) when the money flow cannot be had; a failed other section is listed ' +
    'in `errors` with its rows empty.',
  request: { query: Query },
  responses: {
    200: { description: 'Sections (ok:false when the money flow upstream failed or knows no such stock; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void stockOf(q), csv: sectionTable(Object.fromEntries(FUND_SECTIONS.map((s) => [s.slug, s.row]))) })

function stockOf(q: z.output<typeof Query>): Instrument {
  const inst = oneStockOrIssue(q.code, 'fund')
  if (isIssue(inst)) throw new ValidationError([inst])
  return inst
}

// ---------------------------------------------------------------------------------------------
// Rows

type MoneyFlow = z.infer<typeof MoneyFlowRow>

const r2 = (x: number) => Math.round(x * 100) / 100

function pastRow(d: DayFlowRow): MoneyFlow {
  const row: Record<string, unknown> = { date: d.date, amount: null, main_net: d.main.net, main_ratio: d.main.ratio, main_net_rank: null, ranked: null }
  for (const c of ORDER_CLASSES) Object.assign(row, { [`${c}_inflow`]: null, [`${c}_outflow`]: null, [`${c}_net`]: d.classes[c].net, [`${c}_ratio`]: d.classes[c].ratio })
  return { ...row, close: d.close, change_pct: d.changePct } as MoneyFlow
}

function todayRow(t: TodayFlow, d: DayFlowRow | undefined, rank: Rank | null): MoneyFlow {
  const row: Record<string, unknown> = { date: t.date, amount: t.amount, main_net: t.main.net, main_ratio: t.main.ratio, main_net_rank: rank?.rank ?? null, ranked: rank?.of ?? null }
  for (const c of ORDER_CLASSES) {
    const f = t.classes[c]
    Object.assign(row, { [`${c}_inflow`]: f.inflow, [`${c}_outflow`]: f.outflow, [`${c}_net`]: f.net, [`${c}_ratio`]: f.ratio })
  }
  return { ...row, close: d?.close ?? null, change_pct: d?.changePct ?? null } as MoneyFlow
}

/** Today's place by main net inflow, of how many. */
type Rank = { rank: number; of: number }

/** Daily rows newest first, today's replaced by the live row that carries inflows and outflows (and the rank, when asked). */
function moneyFlowRows(today: TodayFlow | null, days: DayFlowRow[], n: number, rank: Rank | null = null): MoneyFlow[] {
  const rows = [...days].reverse().map(pastRow)
  if (today) {
    const i = rows.findIndex((r) => r.date === today.date)
    if (i >= 0) rows[i] = todayRow(today, days.find((d) => d.date === today.date), rank)
    else if (!rows.length || rows[0].date < today.date) rows.unshift(todayRow(today, undefined, rank))
  }
  return rows.slice(0, n)
}

const seat = (s: BoardDay['buyers'][number]) => ({ name: s.name, buy: r2(s.buy), sell: r2(s.sell), net: r2(s.net) })
const boardRow = (d: BoardDay) => ({
  date: d.date,
  reasons: d.reasons,
  close: d.close,
  change_pct: d.changePct === null ? null : r2(d.changePct),
  buy_amount: d.buyAmount,
  sell_amount: d.sellAmount,
  net_amount: d.netAmount,
  amount: d.dayAmount,
  buyers: d.buyers.map(seat),
  sellers: d.sellers.map(seat),
})

const marginRow = (m: MarginDay): z.infer<typeof MarginRow> => ({
  date: m.date,
  financing_balance: m.financingBalance,
  financing_buy: m.financingBuy,
  financing_repay: m.financingRepay,
  financing_net_buy: m.financingNetBuy,
  lending_balance: m.lendingBalance,
  lent_shares: m.lentShares,
  lent_sold: m.lentSold,
  lent_repaid: m.lentRepaid,
  total_balance: m.totalBalance,
  close: m.close,
})

/**
 * The market's ranks by main net inflow from the service's shared cache: the walk costs about 56
 * upstream requests, so it runs once per freshness window for every caller (a failed walk is not
 * kept: the next call tries again).
 */
async function marketRanks(services: Services): Promise<FailoverResult<FlowRanks>> {
  const compute = () => services.market.fetch('fund:rank', ['eastmoney'], flowRanks())
  return (await services.market.shared('fund:rank', 'flowRank', compute, (r) => r.ok)).value
}

/** Not ready in time: the call answers without the rank. */
const NOT_READY = Symbol('not ready')

/** The ranks as `rank` asks: none, waited for, or whatever is ready within {@link RANK_WAIT_MS}. */
function ranksFor(services: Services, rank: 'true' | 'false' | undefined, waitUntil: (p: Promise<unknown>) => void): Promise<FailoverResult<FlowRanks> | typeof NOT_READY> | null {
  if (rank === 'false') return null
  const ranks = marketRanks(services)
  if (rank === 'true') return ranks
  waitUntil(ranks)
  let timer: ReturnType<typeof setTimeout> | null = null
  const late = new Promise<typeof NOT_READY>((resolve) => (timer = setTimeout(() => resolve(NOT_READY), RANK_WAIT_MS)))
  return Promise.race([ranks, late]).finally(() => clearTimeout(timer))
}

/** Beijing `HH:MM:SS` of Unix seconds. */
const clockOf = (unix: number) => isoInstant(unix * 1000).slice(11, 19)

/** GET /v1/fund */
export function registerFund(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const inst = stockOf(q)
    const n = q.days ?? DEFAULT_DAYS
    const today = beijing(services.now()).date
    const since = addDays(today, -EVENT_WINDOW_DAYS)
    const run = <T>(slug: string, call: Ask<T>): Promise<FailoverResult<T>> => services.market.fetch(`fund:${slug}`, ['eastmoney'], call)

    const [flow, board, blocks, margin, ranks] = await Promise.all([
      run('money_flow', moneyFlow(inst)),
      run('top_traders', boardDays(inst.code, since)),
      run('block_trades', blockTrades({ code: inst.code, from: since, to: today })),
      // Margin rows are per session: ask far enough back for `n` of them.
      run('margin', marginDays(inst.code, addDays(today, -Math.ceil(n * 1.6) - 14))),
      ranksFor(services, q.rank, (p) => c.executionCtx.waitUntil(p)),
    ])
    const source = eastmoneySource(services.sourcePrefix)
    // The last good answer stands in while it holds the latest complete session (STALE_IF_ERROR.fundFlow).
    const lastGood = <B extends { ok: boolean; source: string; data: unknown }>(body: B) => services.reference.withLastGood(c, { cls: 'fundFlow', key: `fund?${inst.code}&days=${n}` }, body)
    if (!flow.ok) {
      return answer(c, 'fund', await lastGood({ ok: false, source, data: null, ...upstreamFailure(flow.attempts) }))
    }
    const { today: live, days } = flow.value
    if (!live && days.length === 0) {
      return answer(c, 'fund', { ok: false, source, data: null, code: 'NO_DATA', error: `no money flow for ${inst.code}: not a listed A-share stock, or it has not traded` })
    }

    const ready = ranks === NOT_READY ? null : ranks
    const ranked = ready?.ok ? ready.value : null
    const place = live && ranked && flowRankOf(ranked, inst)
    const rows = {
      money_flow: moneyFlowRows(live, days, n, place && ranked ? { rank: place, of: ranked.ranked } : null),
      top_traders: board.ok ? board.value.map(boardRow) : [],
      block_trades: blocks.ok ? blocks.value.map(blockTradeRow) : [],
      margin: margin.ok ? margin.value.slice(0, n).map(marginRow) : [],
    }
    const errors = Object.fromEntries(
      ([['top_traders', board], ['block_trades', blocks], ['margin', margin], ['rank', ready]] as const)
        .filter(([, r]) => r !== null && !r.ok)
        .map(([slug, r]) => [slug, describeAttempts((r as { attempts: Attempt[] }).attempts)])
    )
    const notices = [
      ...(Object.keys(errors).length ? [`parts without data because their upstream failed: ${Object.keys(errors).join(', ')}`] : []),
      ...(ranks === NOT_READY && live ? [`main_net_rank is null: the market's money-flow ranking was not ready within ${RANK_WAIT_MS} ms; it is being computed, ask again shortly (or pass rank=true to wait)`] : []),
    ]
    const asOf = live ? beijingInstant(live.date, clockOf(live.time)) : rows.money_flow[0]?.date
    const tables = FUND_SECTIONS.map((s) => ({ title: s.title, slug: s.slug, rows: rows[s.slug] }))
    return answer(
      c,
      'fund',
      await lastGood({
        ok: true,
        source,
        data: { code: inst.code, tables, data: rows },
        ...(asOf ? { as_of: asOf } : {}),
        ...(Object.keys(errors).length ? { errors } : {}),
        ...(notices.length ? { notice: notices.join('; ') } : {}),
      })
    )
  })
}

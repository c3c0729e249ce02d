import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { INTERVAL_SESSIONS, OVERVIEW_INDEXES } from '../data/overview-indexes'
import { boardTurnover } from '../domain/board-turnover'
import { changePct } from '../domain/change-distribution'
import { valuationByBoard, valuedFromFactors } from '../domain/market-valuation'
import { addDays, beijing } from '../domain/dates'
import { isoInstant, newestAsOf, quoteAsOf } from '../domain/instant'
import { latestSession } from '../domain/market-phase'
import { lastSettledDay } from '../domain/settled-day'
import { parseSymbol } from '../domain/symbols'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Freshness } from '../services/shared-answers'
import { industryBoards, marketMargin, marketValuation, upDownCounts, type BoardRow, type UpDownCounts } from '../services/market-figures'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { sessionFigures, type SessionFigures } from '../services/session-figures'
import { technicalBreadth } from '../domain/technical-breadth'
import type { StoreRequest } from '../services/types'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { describeAttempts, upstreamFailureBody } from '../http/outcome'

const OVERVIEW_TYPES = ['summary', 'trade', 'interval', 'technical', 'margin', 'valuation', 'rotation', 'updown'] as const
type OverviewType = (typeof OVERVIEW_TYPES)[number]

/** Types whose data the service does not have yet: a 422 naming the reason (not counted). */
const NOT_YET: Partial<Record<OverviewType, string>> = {}

/** Freshness class of each served type (src/services/shared-answers.ts). */
const FRESHNESS: Record<OverviewType, Freshness> = {
  summary: 'overviewIntraday', trade: 'overviewIntraday', rotation: 'overviewIntraday',
  interval: 'overviewDaily', updown: 'overviewDaily', technical: 'overviewDaily', margin: 'overviewDaily', valuation: 'overviewDaily',
}

const OverviewQuery = z.object({
  type: z
    .enum(OVERVIEW_TYPES, { error: `type must be one of ${OVERVIEW_TYPES.join(', ')}` })
    .optional()
    .openapi({ description: 'What to return (default summary); see the operation description for each', example: 'summary' }),
})

// ---------------------------------------------------------------------------------------------
// Schemas, one per type, discriminated by `type`

const IndexQuoteSchema = z
  .object({
    code: z.string().openapi({ description: 'Index code with our prefix' }),
    name: z.string().openapi({ description: 'Index name' }),
    last: z.number().openapi({ description: 'Current level (points), equal to /v1/quote `data[0].last`' }),
    change: z.number().nullable().openapi({ description: 'Change against the previous close, points; null before the first trade of the session' }),
    change_pct: z.number().nullable().openapi({ description: 'Change against the previous close, percent (2 decimals); null before the first trade of the session' }),
    amount: z.number().nullable().openapi({ description: 'Amount traded by the index\'s members this session, CNY; null when the channel does not carry it' }),
  })
  .openapi('OverviewIndexQuote')

const BreadthSchema = z
  .object({
    date: z.string().openapi({ description: 'Session counted, YYYY-MM-DD' }),
    computed_at: z.string().openapi({ description: 'When counted, an instant (ISO 8601 with its offset, `2026-11-20T10:30:00+08:00`)' }),
    traded: z.number().int().openapi({ description: 'A-share stocks that traded this session' }),
    advancers: z.number().int().openapi({ description: 'Stocks up' }),
    decliners: z.number().int().openapi({ description: 'Stocks down' }),
    unchanged: z.number().int().openapi({ description: 'Stocks unchanged' }),
    limit_up: z.number().int().openapi({ description: 'Stocks at limit-up (board rules as /v1/changedist)' }),
    limit_down: z.number().int().openapi({ description: 'Stocks at limit-down' }),
    turnover_sh_sz: z.number().openapi({ description: 'Two-market (SH + SZ) A-share stock turnover, CNY' }),
  })
  .openapi('OverviewBreadth')

const SummarySchema = z
  .object({
    type: z.literal('summary'),
    date: z.string().openapi({ description: 'The latest session, YYYY-MM-DD: today from the 09:25 opening match, before it the previous session (whose figures the indexes show)' }),
    indexes: z.array(IndexQuoteSchema).openapi({ description: 'SSE Composite, SZSE Component, ChiNext, STAR 50, BSE 50 (those that answered)' }),
    breadth: BreadthSchema.nullable().openapi({ description: 'The same counts as /v1/changedist; null (with a notice) when the market list is unavailable or nothing traded yet' }),
  })
  .openapi('OverviewSummary')

const BoardTradeSchema = z
  .object({
    board: z.enum(['sh-main', 'star', 'sz-main', 'chinext', 'bj']).openapi({ description: 'Board id' }),
    name: z.string().openapi({ description: 'Board name' }),
    stocks: z.number().int().openapi({ description: 'Stocks listed' }),
    traded: z.number().int().openapi({ description: 'Stocks that traded this session' }),
    volume: z.number().openapi({ description: 'Shares traded' }),
    amount: z.number().openapi({ description: 'Amount traded, CNY' }),
    amount_share_pct: z.number().openapi({ description: 'Share of the whole A-share amount, percent' }),
  })
  .openapi('OverviewBoardTrade')

const TradeSchema = z
  .object({
    type: z.literal('trade'),
    date: z.string().openapi({ description: 'Session counted, YYYY-MM-DD' }),
    computed_at: z.string().openapi({ description: 'When counted, an instant (ISO 8601 with its offset, `2026-11-20T10:30:00+08:00`)' }),
    boards: z.array(BoardTradeSchema).openapi({ description: 'Per board, in the order SSE main, STAR, SZSE main, ChiNext, BSE' }),
    total: z
      .object({
        stocks: z.number().int().openapi({ description: 'Stocks listed' }),
        traded: z.number().int().openapi({ description: 'Stocks that traded' }),
        volume: z.number().openapi({ description: 'Shares' }),
        amount: z.number().openapi({ description: 'CNY' }),
      })
      .openapi({ description: 'All A-share stocks (the sums of the boards)' }),
  })
  .openapi('OverviewTrade')

const IntervalIndexSchema = z
  .object({
    code: z.string().openapi({ description: 'Index code with our prefix' }),
    name: z.string().openapi({ description: 'Index name' }),
    last: z.number().openapi({ description: 'Current level, points (/v1/quote `data[0].last`)' }),
    ...Object.fromEntries(
      INTERVAL_SESSIONS.map((n) => [
        `change_pct_${n}`,
        z.number().nullable().openapi({ description: `Change over the last ${n} sessions in percent: last against the close ${n} sessions before the newest bar; null when the history is shorter` }),
      ])
    ),
  })
  .openapi('OverviewIntervalIndex')

const IntervalSchema = z
  .object({
    type: z.literal('interval'),
    date: z.string().openapi({ description: 'Date of the newest bar, YYYY-MM-DD (today during a session)' }),
    indexes: z.array(IntervalIndexSchema).openapi({ description: 'The headline indexes that answered' }),
  })
  .openapi('OverviewInterval')

const UpDownBucketSchema = z
  .object({
    key: z.number().int().openapi({ description: 'Eastmoney bucket key, -11..11' }),
    label: z.string().openapi({ description: '`limit-down`, `-10%+` … `-1%`, `0`, `+1%` … `+10%+`, `limit-up`: bucket ±k holds moves of k-1 to k percent (±10: 9 percent or more, not at the limit)' }),
    count: z.number().int().openapi({ description: 'Stocks' }),
  })
  .openapi('OverviewUpDownBucket')

const UpDownSchema = z
  .object({
    type: z.literal('updown'),
    date: z.string().openapi({ description: 'Data date: the newest closed session (the previous one during trading hours), YYYY-MM-DD' }),
    total: z.number().int().openapi({ description: 'Stocks counted (traded that session)' }),
    advancers: z.number().int().openapi({ description: 'Stocks up, limit-ups included' }),
    decliners: z.number().int().openapi({ description: 'Stocks down, limit-downs included' }),
    unchanged: z.number().int().openapi({ description: 'Stocks unchanged' }),
    limit_up: z.number().int().openapi({ description: 'Stocks closing at limit-up' }),
    limit_down: z.number().int().openapi({ description: 'Stocks closing at limit-down' }),
    buckets: z.array(UpDownBucketSchema).openapi({ description: 'From limit-down to limit-up, 23 buckets' }),
  })
  .openapi('OverviewUpDown')

/** Boards shown at each end of a rotation ranking. */
const ROTATION_TOP = 5

const RotationBoardSchema = z
  .object({
    code: z.string().openapi({ description: 'Industry board code with our prefix (`pt0477`), usable with /v1/quote and /v1/kline' }),
    name: z.string().openapi({ description: 'Board name' }),
    last: z.number().nullable().openapi({ description: 'Board index level, points; null before its first trade of the session' }),
    change_pct: z.number().nullable().openapi({ description: 'Today\'s change, percent; null before its first trade of the session' }),
    change_pct_5: z.number().nullable().openapi({ description: 'Change over the last 5 sessions (today included), percent; null when the board is younger' }),
  })
  .openapi('OverviewRotationBoard')

const RankingSchema = z
  .object({
    best: z.array(RotationBoardSchema).openapi({ description: `The ${ROTATION_TOP} boards with the largest rise, largest first` }),
    worst: z.array(RotationBoardSchema).openapi({ description: `The ${ROTATION_TOP} boards with the largest fall, largest fall first` }),
  })
  .openapi('OverviewRotationRanking')

const RotationSchema = z
  .object({
    type: z.literal('rotation'),
    date: z.string().openapi({ description: 'Trading date of the board quotes, YYYY-MM-DD' }),
    boards: z.number().int().openapi({ description: 'Industry boards ranked (Eastmoney industry boards)' }),
    today: RankingSchema.openapi({ description: 'Ranked by today\'s change' }),
    five_days: RankingSchema.openapi({ description: 'Ranked by the change over the last 5 sessions' }),
  })
  .openapi('OverviewRotation')

const valuationFields = {
  stocks: z.number().int().openapi({ description: 'Stocks with a market cap' }),
  pe_ttm_median: z.number().nullable().openapi({ description: 'Median PE TTM (price / EPS of the last four quarters) of the profitable stocks; null when none' }),
  pe_ttm_overall: z.number().nullable().openapi({ description: 'Total market cap / total TTM earnings of the stocks with a PE, losses included (the aggregate PE an index quotes); null when earnings are not positive' }),
  loss_making: z.number().int().openapi({ description: 'Stocks with a negative PE TTM (a loss over the last four quarters)' }),
  pb_median: z.number().nullable().openapi({ description: 'Median PB (price / book value per share) of the stocks with a positive PB; from the stored factor table (`source: store`), the table\'s PB (close / the latest report\'s BPS)' }),
  pb_overall: z.number().nullable().openapi({ description: 'Total market cap / total book value of the stocks with a PB; from the stored factor table (`source: store`), book value = market cap / the table\'s PB' }),
  market_cap: z.number().openapi({ description: 'Total market cap, CNY' }),
}

const BoardValuationSchema = z
  .object({
    board: z.enum(['sh-main', 'star', 'sz-main', 'chinext', 'bj']).openapi({ description: 'Board id' }),
    name: z.string().openapi({ description: 'Board name' }),
    ...valuationFields,
  })
  .openapi('OverviewBoardValuation')

const ValuationSchema = z
  .object({
    type: z.literal('valuation'),
    date: z.string().openapi({ description: 'Trading date of the prices, YYYY-MM-DD; earnings and book values are those published by then' }),
    ...valuationFields,
    boards: z.array(BoardValuationSchema).openapi({ description: 'The same per board' }),
  })
  .openapi('OverviewValuation')

const MarginSchema = z
  .object({
    type: z.literal('margin'),
    date: z.string().openapi({ description: 'Data date: the newest session whose margin figures are published (the exchanges publish the next day), YYYY-MM-DD' }),
    financing_balance: z.number().openapi({ description: 'Financing balance (融资余额), CNY' }),
    lending_balance: z.number().openapi({ description: 'Securities-lending balance (融券余额), CNY' }),
    total_balance: z.number().openapi({ description: 'Margin balance (融资融券余额) = financing + lending, CNY' }),
    financing_buy: z.number().openapi({ description: 'Financing buys that session (融资买入额), CNY' }),
    lending_sell: z.number().openapi({ description: 'Securities-lending sales that session (融券卖出额), CNY' }),
    previous_date: z.string().nullable().openapi({ description: 'The session before, YYYY-MM-DD; null when not published' }),
    financing_balance_change: z.number().nullable().openapi({ description: 'Financing balance minus the previous session\'s, CNY; null without it' }),
    total_balance_change: z.number().nullable().openapi({ description: 'Margin balance minus the previous session\'s, CNY; null without it' }),
  })
  .openapi('OverviewMargin')

const AboveSchema = z.object({
  stocks: z.number().int().openapi({ description: 'Stocks that have the average (history long enough)' }),
  above: z.number().int().openapi({ description: 'Of those, stocks that closed above it' }),
  pct: z.number().nullable().openapi({ description: 'above / stocks, percent (2 decimals); null when no stock has the average' }),
})

const TechnicalSchema = z
  .object({
    type: z.literal('technical'),
    date: z.string().openapi({ description: 'The session counted: the newest with a technicals table (the previous one during a session), YYYY-MM-DD' }),
    stocks: z.number().int().openapi({ description: 'A-share stocks that traded that session' }),
    above_ma20: AboveSchema.openapi({ description: 'Closes above the 20-day average (forward-adjusted to the date)' }),
    above_ma60: AboveSchema.openapi({ description: 'Closes above the 60-day average' }),
    above_ma250: AboveSchema.openapi({ description: 'Closes above the 250-day average' }),
    new_highs_52w: z.number().int().openapi({ description: 'Stocks whose high was the highest of the last 250 sessions (52 weeks)' }),
    new_lows_52w: z.number().int().openapi({ description: 'Stocks whose low was the lowest of the last 250 sessions' }),
  })
  .openapi('OverviewTechnical')

const OverviewDataSchema = z.discriminatedUnion('type', [SummarySchema, TradeSchema, IntervalSchema, UpDownSchema, RotationSchema, ValuationSchema, MarginSchema, TechnicalSchema]).openapi('OverviewData')

type OverviewData = z.infer<typeof OverviewDataSchema>
type OverviewBody = { ok: boolean; source: string; data: OverviewData | null } & Record<string, unknown>

const OverviewResponse = envelopeSchema(
  'MarketOverviewEnvelope',
  OverviewDataSchema.nullable().openapi({ description: 'By `type`; null with ok:false' }),
  AS_OF.either('by `type`. An instant for the live types: summary and interval the newest index quote\'s time stamp, trade (= `computed_at`), rotation and valuation when the list was read. ' +
    'A date for the daily types: updown, margin and technical the session counted, valuation from the stored factors that table\'s session')
).openapi({
  example: {
    ok: true,
    endpoint: 'market-overview',
    tier: 'free',
    elapsed_ms: 5,
    source: 'multi',
    as_of: '2026-11-20T10:29:58+08:00',
    data: {
      type: 'summary',
      date: '2026-11-20',
      indexes: [
        { code: 'sh000001', name: '上证指数', last: 3351.2, change: 12.31, change_pct: 0.37, amount: 412345678901 },
        { code: 'sz399001', name: '深证成指', last: 11502.33, change: -20.5, change_pct: -0.18, amount: 523456789012 },
      ],
      breadth: { date: '2026-11-20', computed_at: '2026-11-20T10:30:00+08:00', traded: 5301, advancers: 3120, decliners: 2010, unchanged: 171, limit_up: 48, limit_down: 6, turnover_sh_sz: 1146913569024.68 },
    },
  },
})

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

function checkType(type: OverviewType | undefined) {
  const why = type && NOT_YET[type]
  if (why) throw new ValidationError([queryIssue('type', `type=${type} is not available yet: it ${why}`, type)])
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/market-overview',
    operationId: 'marketOverview',
    tags: ['Free'],
    summary: 'Market-level overview',
    description:
      '`data.type` says which shape `data` has; every number carries its unit in the schema and every type its data date. ' +
      '**summary** (default): the headline indexes (SSE Composite, SZSE Component, ChiNext, STAR 50, BSE 50) from the same quotes as /v1/quote, and the session\'s breadth (the /v1/changedist counts). ' +
      '**trade**: shares and CNY traded per board (SSE main, STAR, SZSE main, ChiNext, BSE) from the whole-market list. ' +
      '**interval**: each headline index\'s change over 5, 20, 60 and 250 sessions, from its /v1/quote series. ' +
      '**updown**: the newest closed session\'s up/down distribution (T-1 during trading hours) in Eastmoney\'s 23 buckets, with its own `date`. ' +
      '**rotation**: the industry boards with the largest rise and fall today and over 5 sessions. ' +
      '**valuation**: median and aggregate PE TTM and PB of the whole A-share market and of each board, from Eastmoney\'s whole-market list (no historical percentile yet); when the list fails, the same over the newest factor table the after-close job stored (`source: store`, that session\'s close as `date`, and a `notice`). ' +
      '**margin**: the whole market\'s margin balances (financing, securities lending) of the newest published session (the day before, as the exchanges publish) and their change from the session before, from Eastmoney\'s RPTA_WEB_MARGIN_DAILYTRADE. ' +
      '**technical**: the share of stocks above their 20-, 60- and 250-day averages and the count of 52-week highs and lows, over the technicals table the after-close job builds (the newest session with one, with its own `date`; ok:false NO_DATA before the first is built). ' +
      'Answers are the same for every caller and are computed at most every 20 s (summary, trade, rotation) or 30 s (interval, updown, valuation, margin, technical) for the whole service; `as_of` says when the data was true.',
    request: { query: OverviewQuery },
    responses: {
      200: { description: 'The overview (ok:false when the upstreams failed; not counted)', content: { 'application/json': { schema: OverviewResponse } } },
      ...COMMON_ERRORS,
    },
  },
  { check: (_c, q) => checkType(q.type) }
)

// ---------------------------------------------------------------------------------------------
// Computation per type

const INDEXES = OVERVIEW_INDEXES.map((c) => parseSymbol(c))
const sourceOf = (services: Services, channels: Set<string>) => (channels.size === 1 ? services.sourcePrefix + [...channels][0] : 'multi')

async function summary(services: Services): Promise<OverviewBody> {
  const [{ quotes, failed }, counted] = await Promise.all([services.market.liveQuotes(INDEXES), services.market.changedist()])
  if (quotes.size === 0) return upstreamFailureBody(failed.flatMap((f) => f.attempts), 'index quotes', null)
  const channels = new Set<string>()
  const stamps: string[] = []
  const figures = await Promise.all(INDEXES.map(async (inst): Promise<SessionFigures | null> => {
    const hit = quotes.get(inst.code)
    if (!hit) return null
    const q = hit.quote
    channels.add(hit.channel)
    stamps.push(quoteAsOf(inst.prefix, q.date, q.time))
    return (await sessionFigures(services.market, inst, q)) ?? { last: q.last, change: null, change_pct: null, amount: null }
  }))
  const indexes = INDEXES.flatMap((inst, k) => {
    const f = figures[k]
    const q = quotes.get(inst.code)?.quote
    return f && q ? [{ code: inst.code, name: q.name, ...f, last: Number(f.last.toFixed(2)) }] : []
  })
  const c = counted.value
  const breadth = c.ok && c.data
    ? { date: c.data.date, computed_at: c.data.computed_at, traded: c.data.traded, advancers: c.data.advancers, decliners: c.data.decliners, unchanged: c.data.unchanged, limit_up: c.data.limit_up, limit_down: c.data.limit_down, turnover_sh_sz: c.data.turnover.sh_sz }
    : null
  if (breadth) channels.add(c.source.replace(services.sourcePrefix, ''))
  const notices = [
    ...(breadth ? [] : [`breadth unavailable: ${String(c.error ?? 'no data')}`]),
    ...(indexes.length < INDEXES.length ? [`no quote for ${INDEXES.filter((i) => !quotes.has(i.code)).map((i) => i.code).join(', ')}`] : []),
  ]
  return {
    ok: true,
    source: sourceOf(services, channels),
    data: { type: 'summary', date: latestSession(services.now()), indexes, breadth },
    as_of: newestAsOf(stamps),
    ...(notices.length ? { notice: notices.join('; ') } : {}),
  }
}

async function trade(services: Services): Promise<OverviewBody> {
  const r = await services.market.marketList()
  if (!r.ok) return upstreamFailureBody(r.attempts, 'whole-market list', null)
  const rows = r.value
  const traded = rows.filter((x) => x.traded)
  if (traded.length === 0) return { ok: false, source: services.sourcePrefix + r.channel, data: null, code: 'NO_DATA', error: 'no A-share stock has traded in the current session yet' }
  const computedAt = isoInstant(services.now())
  const { boards, total } = boardTurnover(rows)
  const date = traded.map((x) => x.date).sort().pop()!
  return { ok: true, source: services.sourcePrefix + r.channel, data: { type: 'trade', date, computed_at: computedAt, boards, total }, as_of: computedAt }
}

async function interval(services: Services): Promise<OverviewBody> {
  const longest = INTERVAL_SESSIONS[INTERVAL_SESSIONS.length - 1] + 1
  const series = await Promise.all(INDEXES.map((inst) => services.market.quoteSeries(inst, longest).then((r) => ({ inst, r }))))
  const channels = new Set<string>()
  const stamps: string[] = []
  let date = ''
  const failed: string[] = []
  const indexes = series.flatMap(({ inst, r }) => {
    if (!r.ok) {
      failed.push(`${inst.code}: ${describeAttempts(r.attempts)}`)
      return []
    }
    channels.add(r.channel)
    const bars = r.bars
    const last = bars[bars.length - 1]
    stamps.push(quoteAsOf(inst.prefix, r.quote.date, r.quote.time))
    if (last.date > date) date = last.date
    const changes = Object.fromEntries(
      INTERVAL_SESSIONS.map((n) => {
        const base = bars[bars.length - 1 - n]
        return [`change_pct_${n}`, base ? changePct(last.close, base.close) : null]
      })
    )
    return [{ code: inst.code, name: r.quote.name, last: Number(last.close.toFixed(2)), ...changes }]
  })
  if (indexes.length === 0) {
    const all = series.flatMap(({ r }) => (r.ok ? [] : r.attempts))
    return upstreamFailureBody(all, 'index series', null)
  }
  return {
    ok: true,
    source: sourceOf(services, channels),
    data: { type: 'interval', date, indexes } as OverviewData,
    as_of: newestAsOf(stamps),
    ...(failed.length ? { notice: `no series for ${failed.join('; ')}` } : {}),
  }
}

/** Labels of the 23 Eastmoney buckets. */
function bucketLabel(k: number): string {
  if (k === 11) return 'limit-up'
  if (k === -11) return 'limit-down'
  if (k === 0) return '0'
  const sign = k > 0 ? '+' : '-'
  return Math.abs(k) === 10 ? `${sign}9%+` : `${sign}${Math.abs(k)}%`
}

function upDownData(u: UpDownCounts): OverviewData {
  const keys = Array.from({ length: 23 }, (_, i) => i - 11)
  const count = (k: number) => u.counts.get(k) ?? 0
  const sum = (pred: (k: number) => boolean) => keys.filter(pred).reduce((s, k) => s + count(k), 0)
  return {
    type: 'updown',
    date: u.date,
    total: sum(() => true),
    advancers: sum((k) => k > 0),
    decliners: sum((k) => k < 0),
    unchanged: count(0),
    limit_up: count(11),
    limit_down: count(-11),
    buckets: keys.map((k) => ({ key: k, label: bucketLabel(k), count: count(k) })),
  }
}

async function updown(services: Services): Promise<OverviewBody> {
  const date = lastSettledDay(services.now())
  const r = await services.market.fetch('updown', ['eastmoney'], upDownCounts(date))
  if (!r.ok) return upstreamFailureBody(r.attempts, `up/down distribution of ${date}`, null)
  return { ok: true, source: services.sourcePrefix + r.channel, data: upDownData(r.value), as_of: date }
}

function ranking(rows: readonly BoardRow[], by: (r: BoardRow) => number | null) {
  const ranked = rows.filter((r) => by(r) !== null).sort((a, b) => by(b)! - by(a)! || (a.code < b.code ? -1 : 1))
  const view = (r: BoardRow) => ({ code: r.code, name: r.name, last: r.last, change_pct: r.changePct, change_pct_5: r.change5dPct === null ? null : Math.round(r.change5dPct * 100) / 100 })
  return { best: ranked.slice(0, ROTATION_TOP).map(view), worst: ranked.slice(-ROTATION_TOP).reverse().map(view) }
}

async function rotation(services: Services): Promise<OverviewBody> {
  const r = await services.market.fetch('industry-boards', ['eastmoney'], industryBoards())
  if (!r.ok) return upstreamFailureBody(r.attempts, 'industry board list', null)
  const date = r.value.map((b) => b.date).sort().pop()!
  return {
    ok: true,
    source: services.sourcePrefix + r.channel,
    data: { type: 'rotation', date, boards: r.value.length, today: ranking(r.value, (b) => b.changePct), five_days: ranking(r.value, (b) => b.change5dPct) },
    as_of: isoInstant(services.now()),
  }
}

async function valuation(services: Services, c: StoreRequest): Promise<OverviewBody> {
  const r = await services.market.fetch('market-valuation', ['eastmoney'], marketValuation())
  if (!r.ok) return storedValuation(services, c, upstreamFailureBody(r.attempts, 'valuation list', null))
  const date = r.value.map((v) => v.date).sort().pop()!
  const { all, boards } = valuationByBoard(r.value)
  return { ok: true, source: services.sourcePrefix + r.channel, data: { type: 'valuation', date, ...all, boards }, as_of: isoInstant(services.now()) }
}

/**
 * Stored data standing in for Eastmoney's valuation list: the same statistics over the newest A-share
 * factor table the after-close job wrote (that session's close), with a notice saying so; the
 * upstream's failure when no table is built yet.
 */
async function storedValuation(services: Services, c: StoreRequest, failed: ReturnType<typeof upstreamFailureBody<null>>): Promise<OverviewBody> {
  const table = await services.store.factorTable(c, 'hs')
  const rows = table ? valuedFromFactors(table) : []
  if (!table || rows.every((v) => v.marketCap === null)) return failed
  const { all, boards } = valuationByBoard(rows)
  return {
    ok: true,
    source: 'store',
    data: { type: 'valuation', date: table.date, ...all, boards },
    as_of: table.date,
    notice: `${failed.error}; computed instead from the factor table of ${table.date} (that session's close)`,
  }
}

/** Calendar days of margin history asked for: enough for the newest two sessions over any holiday. */
const MARGIN_LOOKBACK_DAYS = 14

async function margin(services: Services): Promise<OverviewBody> {
  const from = addDays(beijing(services.now()).date, -MARGIN_LOOKBACK_DAYS)
  const r = await services.market.fetch('market-margin', ['eastmoney'], marketMargin(from))
  if (!r.ok) return upstreamFailureBody(r.attempts, 'market margin', null)
  const [last, prev] = r.value
  const diff = (a: number, b: number | undefined) => (b === undefined ? null : Math.round((a - b) * 100) / 100)
  return {
    ok: true,
    source: services.sourcePrefix + r.channel,
    data: {
      type: 'margin',
      date: last.date,
      financing_balance: last.financingBalance,
      lending_balance: last.lendingBalance,
      total_balance: last.totalBalance,
      financing_buy: last.financingBuy,
      lending_sell: last.lendingSell,
      previous_date: prev?.date ?? null,
      financing_balance_change: diff(last.financingBalance, prev?.financingBalance),
      total_balance_change: diff(last.totalBalance, prev?.totalBalance),
    },
    as_of: last.date,
  }
}

async function technical(services: Services, c: StoreRequest): Promise<OverviewBody> {
  const date = await services.store.latestTechnicalsDate(c)
  const day = date ? await services.store.technicals(c, date) : undefined
  if (!day) {
    return { ok: false, source: 'store', data: null, code: 'NO_DATA', error: 'no technicals table is built yet (the after-close job builds one each session; locally, the backfill)' }
  }
  return { ok: true, source: 'store', data: { type: 'technical', date: day.date, ...technicalBreadth(day) }, as_of: day.date }
}

const COMPUTE: Record<OverviewType, (s: Services, c: StoreRequest) => Promise<OverviewBody>> = { summary, trade, interval, updown, rotation, valuation, margin, technical }

/** GET /v1/market-overview */
export function registerMarketOverview(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const type = c.req.valid('query').type ?? 'summary'
    checkType(type)
    const compute = COMPUTE[type]
    const { value: fresh } = await services.market.shared(`overview:${type}`, FRESHNESS[type], () => compute(services, c), (b) => b.ok, {
      waitUntil: (p) => c.executionCtx.waitUntil(p),
    })
    // Daily types stand in with their last good answer when every upstream fails; intraday ones never do.
    const value = FRESHNESS[type] === 'overviewDaily' ? await services.reference.withLastGood(c, { cls: 'overviewDaily', key: `overview:${type}` }, fresh) : fresh
    // One answer is one row (the envelope would count the arrays inside it).
    return answer(c, 'market-overview', value, { rows: value.ok ? 1 : 0 })
  })
}

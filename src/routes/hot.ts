import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { dataTable, schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { Attempt } from '../services/types'
import type { Quote } from '../domain/bar'
import { beijing } from '../domain/dates'
import { newestAsOf, quoteAsOf } from '../domain/instant'
import type { InstrumentKind } from '../domain/instrument'
import type { AppEnv } from '../http/context'
import { sharedEnvelopeAnswer } from '../http/shared-envelope'
import { PRICE_DECIMALS } from '../http/format'
import type { Services } from '../services/types'
import { hotRank, type HotList, type HotRankEntry } from '../services/hot-lists'
import { sessionFigures, type SessionFigures } from '../services/session-figures'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { describeAttempts, upstreamFailureBody } from '../http/outcome'

/** Rows computed once and shared: the largest `limit`. */
const MAX_LIMIT = 100
const DEFAULT_LIMIT = 30

const HotQuery = z.object({
  limit: IntParam('limit', 1, MAX_LIMIT)
    .optional()
    .openapi({ description: `Rows, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT})`, example: 30, type: 'integer', minimum: 1, maximum: MAX_LIMIT }),
})

const HotRowSchema = z
  .object({
    rank: z.number().int().openapi({ description: 'Rank in its list (1 = most attention)' }),
    rank_change: z.number().int().nullable().openapi({ description: 'Places moved (positive = up) as the ranking source reports it: Eastmoney since the previous day, THS its own `hot_rank_chg`; null when the source does not say' }),
    rank_source: z.enum(['eastmoney', 'ths']).openapi({ description: 'Which ranking the row comes from: `eastmoney` (Guba popularity rank; the US list always) or `ths` (同花顺 hot list, A-share stocks only, used when Eastmoney\'s A-share list fails)' }),
    market: z.enum(['cn', 'us']).openapi({ description: 'Which list the row comes from: `cn` A-shares and ETFs, `us` US stocks' }),
    code: z.string().openapi({ description: 'Code with our prefix (`sh600519`, `sz159915`, `usAAPL`)' }),
    kind: z.enum(['stock', 'etf', 'us']).openapi({ description: 'stock (A-share), etf, or us (US stock)' }),
    name: z.string().nullable().openapi({ description: 'Name, from the quote; null when no quote was available' }),
    last: z.number().nullable().openapi({ description: 'Current price in the trading currency (CNY, USD), equal to /v1/quote `data[0].last`; the last close when not traded today; null when no quote was available' }),
    change_pct: z.number().nullable().openapi({ description: 'Change against the previous close in percent, 2 decimals; of the latest session: a line not yet traded today (before the 09:25 match) or suspended shows its last session\'s change, as /v1/quote does; null when no quote or bars were available' }),
  })
  .openapi('HotRow')

type HotRow = z.infer<typeof HotRowSchema>

const HotResponse = envelopeSchema(
  'HotEnvelope',
  z.array(HotRowSchema).openapi({ description: 'Rows by rank; at equal rank the A-share row first' }),
  AS_OF.instant('the newest quote time among the rows (by the instant; a US quote keeps its own offset)')
).openapi({
  example: {
    ok: true,
    endpoint: 'hot',
    tier: 'free',
    elapsed_ms: 3,
    source: 'multi',
    as_of: '2026-11-20T10:29:57+08:00',
    data: [
      { rank: 1, rank_change: 2, rank_source: 'eastmoney', market: 'cn', code: 'sh600519', kind: 'stock', name: '贵州茅台', last: 1520, change_pct: 0.76 },
      { rank: 1, rank_change: 0, rank_source: 'eastmoney', market: 'us', code: 'usNVDA', kind: 'us', name: '英伟达', last: 181.2, change_pct: -1.05 },
      { rank: 2, rank_change: -1, rank_source: 'eastmoney', market: 'cn', code: 'sh510300', kind: 'etf', name: '沪深300ETF', last: 4.012, change_pct: 0.3 },
    ],
  },
})

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/hot',
  operationId: 'hot',
  tags: ['Free'],
  summary: 'Hot list: the most-followed A-shares, ETFs and US stocks',
  description:
    'Eastmoney Guba\'s popularity rank (人气榜) of A-shares with ETFs, and of US stocks, merged by rank (the A-share row first at equal rank); ' +
    'when Eastmoney\'s A-share list fails, THS\'s hot list (同花顺热股, stocks only) takes its place, each row naming its ranking in `rank_source`. ' +
    'each row joined with its real-time quote from the same channels as /v1/quote, so `last` equals /v1/quote\'s `data[0].last`. ' +
    'The answer is the same for every caller and is computed at most every 15 seconds for the whole service; `as_of` is the newest quote time, an instant. ' +
    'When the US list is unavailable the A-share list is served alone with a `notice`. ok:false (not counted) when the A-share list or every quote failed.',
  request: { query: HotQuery },
  responses: {
    200: { description: 'Hot list (ok:false when the upstreams failed; not counted)', content: { 'application/json': { schema: HotResponse } } },
    ...COMMON_ERRORS,
  },
}, { csv: dataTable(schemaColumns(HotRowSchema)) })

type HotBody = { ok: boolean; source: string; data: HotRow[] } & Record<string, unknown>

const LISTS: readonly HotList[] = ['cn', 'us']

/** The channels that rank each list, in order: THS has an A-share stock list, no US list. */
const RANKERS = { cn: ['eastmoney', 'ths'], us: ['eastmoney'] } as const satisfies Record<HotList, readonly ('eastmoney' | 'ths')[]>

async function rankList(services: Services, list: HotList) {
  return services.market.fetch(`hot-rank:${list}`, RANKERS[list], hotRank(list))
}

/** Both lists joined with quotes, the top {@link MAX_LIMIT} rows. */
async function computeHot(services: Services): Promise<HotBody> {
  const [cn, us] = await Promise.all(LISTS.map((l) => rankList(services, l)))
  if (!cn.ok) return upstreamFailureBody(cn.attempts, 'popularity rank', [] as HotRow[])
  const notices: string[] = []
  if (!us.ok) notices.push(`US list unavailable (${describeAttempts(us.attempts)}); A-shares and ETFs only`)
  const tagged = [
    ...cn.value.map((e) => ({ e, market: 'cn' as const, ranker: cn.channel })),
    ...(us.ok ? us.value.map((e) => ({ e, market: 'us' as const, ranker: us.channel })) : []),
  ]
  // The lists are of stocks and ETFs; anything else they might name (a bond, an index) is left out rather than mislabelled.
  const top = tagged
    .filter((t) => KIND_OF[t.e.instrument.kind] !== undefined)
    .sort((a, b) => a.e.rank - b.e.rank || (a.market === 'cn' ? -1 : 1))
    .slice(0, MAX_LIMIT)

  const { quotes, failed } = await services.market.liveQuotes(top.map((t) => t.e.instrument))
  if (quotes.size === 0) {
    const attempts: Attempt[] = failed.flatMap((f) => f.attempts)
    return upstreamFailureBody(attempts, 'quotes for the hot list', [] as HotRow[])
  }
  if (failed.length) notices.push(`no quotes for ${failed.map((f) => f.group).join(', ')}: ${failed.map((f) => describeAttempts(f.attempts)).join('; ')}`)

  const channels = new Set<string>([cn.channel, ...(us.ok ? [us.channel] : [])])
  const stamps: string[] = []
  const data = await Promise.all(top.map(async ({ e, market, ranker }) => {
    const q = quotes.get(e.instrument.code)
    if (q) {
      channels.add(q.channel)
      stamps.push(quoteAsOf(e.instrument.prefix, q.quote.date, q.quote.time))
    }
    // A line without a trade in its session (before the match, suspended) shows its latest session's change, as /v1/quote does.
    return toRow(e, market, ranker, q?.quote, q ? await sessionFigures(services.market, e.instrument, q.quote) : null)
  }))
  return {
    ok: true,
    source: channels.size === 1 ? services.sourcePrefix + [...channels][0] : 'multi',
    data,
    as_of: newestAsOf(stamps) ?? beijing(services.now()).date,
    ...(notices.length ? { notice: notices.join('; ') } : {}),
  }
}

/** Row `kind` per instrument kind the hot list serves. */
const KIND_OF: Partial<Record<InstrumentKind, HotRow['kind']>> = { stock: 'stock', etf: 'etf', us: 'us' }

function toRow(e: HotRankEntry, market: 'cn' | 'us', ranker: HotRow['rank_source'], q: Quote | undefined, figures: SessionFigures | null): HotRow {
  const kind = KIND_OF[e.instrument.kind]!
  const d = PRICE_DECIMALS[e.instrument.kind]
  const last = figures?.last ?? q?.last
  return {
    rank: e.rank,
    rank_change: e.rankChange,
    rank_source: ranker,
    market,
    code: e.instrument.code,
    kind,
    name: q?.name || null,
    last: last === undefined ? null : Number(last.toFixed(d)),
    change_pct: figures?.change_pct ?? null,
  }
}

/** GET /v1/hot */
export function registerHot(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const limit = c.req.valid('query').limit ?? DEFAULT_LIMIT
    const { value } = await services.market.shared('hot', 'hot', () => computeHot(services), (b) => b.ok, { waitUntil: (p) => c.executionCtx.waitUntil(p) })
    // The shared answer's rows are serialised once per limit (src/http/shared-envelope.ts).
    const outcome = { ok: value.ok, rows: Math.min(value.data.length, limit) }
    return sharedEnvelopeAnswer(c, 'hot', outcome, value, String(limit), () => ({ ...value, data: value.data.slice(0, limit) }))
  })
}

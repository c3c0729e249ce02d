import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { LINE_STATUSES, STATUS_TEXT } from '../domain/market-phase'
import { SECURITY_TYPES } from '../domain/snapshot'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { liveSnapshot } from '../services/live-book'
import { notThisMarket, oneCode, StockCodeParam } from './shared/stock-code'
import { keptAnswerFields, upstreamFailure } from '../http/outcome'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { beijingStampInstant } from '../domain/instant'

/** Who may call it and what it costs: pro and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'pro', cost: 1, counted: true }

const Query = z.object({ code: StockCodeParam })

const num = (description: string) => z.number().openapi({ description })
const optNum = (description: string) => z.number().nullable().openapi({ description: `${description}; null when the channel does not carry it` })
const Level = z.tuple([z.number().nullable(), z.number().int()]).openapi({
  description: '`[price CNY, volume in lots]`; `[null, 0]` for an empty level (never a price of 0). In the opening call auction level 1 is the indicative price with the matched volume on both sides and level 2 `[null, lots]` the unmatched volume',
})
const Levels = (side: string) => z.array(Level).length(5).openapi({ description: `Five ${side} levels, best first` })

/** The 35 fields, in the groups marked below. */
const SnapshotRow = z
  .object({
    // identity
    code: z.string().openapi({ description: 'Identity: the stock, e.g. `sh600519`' }),
    name: z.string().openapi({ description: 'Identity: short name' }),
    time: z.string().openapi({ description: 'Data time `YYYY-MM-DD HH:MM:SS` (Beijing)' }),
    security_type: z.enum(SECURITY_TYPES).nullable().openapi({ description: 'Identity: board (sh_main, sz_main, star, chinext, bse), from the code' }),
    status: z.enum(LINE_STATUSES).openapi({ description: `Identity: ${STATUS_TEXT}` }),
    currency: z.string().openapi({ description: 'Identity: trading currency (CNY)' }),
    // price
    last: num('Price: current price, CNY (the previous close while halted)'),
    change: num('Price: change against the previous close, CNY'),
    change_pct: num('Price: change against the previous close, percent'),
    open: optNum('Price: open, CNY (null while halted)'),
    high: optNum('Price: high, CNY'),
    low: optNum('Price: low, CNY'),
    pre_close: num('Price: previous close, CNY'),
    avg_price: optNum('Price: volume-weighted average price today, CNY'),
    volume: num('Price: volume today in lots (×100 = shares)'),
    amount: optNum('Price: amount today in 10,000 CNY'),
    turnover: optNum('Price: turnover rate today, percent of float shares (the same value as /v1/quote data[0].turnover)'),
    // order book
    bids: Levels('bid'),
    asks: Levels('ask'),
    order_imbalance: optNum('Order book: 委比, (bid lots − ask lots) / (bid lots + ask lots) over the five levels, percent'),
    // valuation
    pe_ttm: optNum('Valuation: price / EPS of the last four published quarters (negative for a loss)'),
    pe_dynamic: optNum('Valuation: price / latest cumulative EPS annualised'),
    pe_static: optNum('Valuation: price / EPS of the last annual report'),
    pb: optNum('Valuation: price / book value per share of the latest report'),
    // market cap, share capital
    float_market_cap: optNum('Market cap: float market value, 100 million CNY'),
    total_market_cap: optNum('Market cap: total market value, 100 million CNY'),
    float_shares: optNum('Share capital: float shares, shares'),
    total_shares: optNum('Share capital: total shares, shares'),
    // limit-chasing
    limit_up: optNum('Limit-chasing: limit-up price today, CNY'),
    limit_down: optNum('Limit-chasing: limit-down price today, CNY'),
    volume_ratio: optNum('Limit-chasing: 量比, volume per minute today over the 5-day average per minute'),
    amplitude: optNum('Limit-chasing: (high − low) / previous close, percent'),
    rise_speed: optNum('Limit-chasing: 涨速, change over the last 5 minutes, percent (Eastmoney only)'),
    // outer / inner volume
    outer_volume: optNum('外盘: buy-initiated volume today, lots'),
    inner_volume: optNum('内盘: sell-initiated volume today, lots'),
  })
  .openapi('Snapshot')

const Response = envelopeSchema('SnapshotEnvelopeBase', z.union([SnapshotRow, z.array(z.unknown()).max(0)]).openapi({ description: 'The 35-field profile; `[]` when the code is not an A-share stock or every channel failed' }), AS_OF.instant('the profile\'s data time (`data.time`) as an instant'))
  .openapi('SnapshotEnvelope', {
    example: {
      ok: true, endpoint: 'snapshot', tier: 'pro', elapsed_ms: 24, source: 'eastmoney', as_of: '2026-11-20T10:30:00+08:00',
      data: {
        code: 'sh600519', name: '贵州茅台', time: '2026-11-20 10:30:00', security_type: 'sh_main', status: 'trading', currency: 'CNY',
        last: 1520, change: 11.5, change_pct: 0.76, open: 1510, high: 1525, low: 1505.2, pre_close: 1508.5, avg_price: 1519.62,
        volume: 21345, amount: 324356.79, turnover: 0.17,
        bids: [[1519.99, 3], [1519.98, 2], [1519.9, 5], [1519.8, 1], [1519.5, 4]],
        asks: [[1520, 6], [1520.1, 2], [1520.5, 1], [1520.88, 3], [1521, 10]],
        order_imbalance: -20.69, pe_ttm: 22.35, pe_dynamic: 21.8, pe_static: 23.1, pb: 7.85,
        float_market_cap: 19094.2, total_market_cap: 19094.2, float_shares: 1256197800, total_shares: 1256197800,
        limit_up: 1659.35, limit_down: 1357.65, volume_ratio: 0.92, amplitude: 1.31, rise_speed: 0.05,
        outer_volume: 11020, inner_volume: 10325,
      },
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/snapshot',
  operationId: 'snapshot',
  tags: ['Pro'],
  summary: 'Real-time 35-field profile of one A-share stock',
  description:
    'Price; five levels each side with the order imbalance; valuation (PE TTM, dynamic, static; PB); float and total market cap ' +
    '(100 million CNY); float and total shares (shares); limit-up and limit-down price, volume ratio, amplitude, rise speed; ' +
    'security type, status, currency; outer and inner volume. `volume` in lots, `amount` in 10,000 CNY, ratios and changes in percent; ' +
    '`turnover` is the same value as /v1/quote\'s. Tier pro or above; one call is one billed call. Eastmoney stock/get first, ' +
    'Tencent\'s quote line second (it has no rise speed: null). A-share stocks only: another code answers ok:true with an empty ' +
    '`data` and a `notice`, never wrong data.',
  request: { query: Query },
  responses: {
    200: { description: 'The profile (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneCode(q.code) })

/** Channels in order of preference. */
const SNAPSHOT_CHANNELS: readonly ChannelName[] = ['eastmoney', 'tencent']

/** GET /v1/snapshot */
export function registerSnapshot(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = oneCode(c.req.valid('query').code)
    const notice = notThisMarket('snapshot', inst)
    if (notice) return answer(c, 'snapshot', { ok: true, source: 'none', data: [], notice })

    const r = await services.market.live('snapshot:cn', SNAPSHOT_CHANNELS, liveSnapshot(inst))
    if (!r.ok) return answer(c, 'snapshot', { ok: false, source: 'none', data: [], ...upstreamFailure(r.attempts, inst.code) })
    // One profile is one row (the envelope would count the book's levels).
    return answer(c, 'snapshot', { ok: true, source: services.sourcePrefix + r.channel, data: r.value, as_of: beijingStampInstant(r.value.time), ...(r.stale ? keptAnswerFields(r.attempts) : {}) }, { rows: 1 })
  })
}

import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { LINE_STATUSES, lineStatus, STATUS_TEXT, type LineStatus } from '../domain/market-phase'
import { BOOK_LEVELS, isAuctionBook, type OrderBook } from '../domain/orderbook'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { liveBook } from '../services/live-book'
import { notThisMarket, oneCode, StockCodeParam } from './shared/stock-code'
import { keptAnswerFields, upstreamFailure } from '../http/outcome'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { beijingStampInstant } from '../domain/instant'

/** Who may call it and what it costs (pro group, trial and above). */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const Query = z.object({
  code: StockCodeParam.openapi({ description: 'One A-share stock, ETF or convertible bond with its sh, sz or bj prefix (one code per call)', example: 'sh600519' }),
})

/** What has a five-level book here. */
const BOOK_KINDS = ['stock', 'etf', 'bond'] as const

const LEVELS = Array.from({ length: BOOK_LEVELS }, (_, k) => k + 1)

const bookShape: Record<string, z.ZodType> = {
  code: z.string().openapi({ description: 'The instrument, e.g. `sh600519`' }),
  time: z.string().openapi({ description: 'Data time `YYYY-MM-DD HH:MM:SS` (Beijing); outside a session, the time of the latest session\'s last update' }),
  status: z.enum(LINE_STATUSES).openapi({ description: STATUS_TEXT }),
  last: z.number().openapi({ description: 'Current price, CNY (the previous close while halted; the indicative price in the call auction); prices have 2 decimals for stocks, 3 for ETFs and bonds' }),
  change: z.number().openapi({ description: 'Change against the previous close, CNY' }),
  change_pct: z.number().openapi({ description: 'Change against the previous close, percent' }),
}
for (const k of LEVELS) bookShape[`b${k}_p`] = z.number().nullable().openapi({ description: `Bid level ${k} price, CNY; null when the level is empty (limit-down: all bids null), never 0` })
for (const k of LEVELS) bookShape[`b${k}_v`] = z.number().int().openapi({ description: `Bid level ${k} volume in lots (×100 = shares)` })
for (const k of LEVELS) bookShape[`a${k}_p`] = z.number().nullable().openapi({ description: `Ask level ${k} price, CNY; null when the level is empty (limit-up: all asks null), never 0` })
for (const k of LEVELS) bookShape[`a${k}_v`] = z.number().int().openapi({ description: `Ask level ${k} volume in lots (×100 = shares)` })

const BookRow = z.object(bookShape).openapi('OrderBook')

const Response = envelopeSchema('OrderBookEnvelopeBase', z.union([BookRow, z.array(z.unknown()).max(0)]).openapi({ description: 'The book; `[]` when the code is not an A-share stock or every channel failed' }), AS_OF.instant('the book\'s data time (`data.time`) as an instant'))
  .openapi('OrderBookEnvelope', {
    example: {
      ok: true, endpoint: 'orderbook', tier: 'pro', elapsed_ms: 21, source: 'tencent', as_of: '2026-11-20T10:30:00+08:00',
      data: {
        code: 'sh600519', time: '2026-11-20 10:30:00', status: 'trading', last: 1520, change: 11.5, change_pct: 0.76,
        b1_p: 1519.99, b2_p: 1519.98, b3_p: 1519.9, b4_p: 1519.8, b5_p: 1519.5, b1_v: 3, b2_v: 2, b3_v: 5, b4_v: 1, b5_v: 4,
        a1_p: 1520, a2_p: 1520.1, a3_p: 1520.5, a4_p: 1520.88, a5_p: 1521, a1_v: 6, a2_v: 2, a3_v: 1, a4_v: 3, a5_v: 10,
      },
    },
  })

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/orderbook',
  operationId: 'orderbook',
  tags: ['Pro'],
  summary: 'Five-level order book of one A-share stock, ETF or convertible bond',
  description:
    'Flat columns `b1_p`..`b5_p` (bid prices, best first), `b1_v`..`b5_v` (bid volume in lots), `a1_p`..`a5_p`, `a1_v`..`a5_v` ' +
    '(asks), with the current price `last`, `change`, `change_pct`, the data time `time` and the line\'s `status`. An empty level ' +
    'has a null price, never 0: at limit-down every bid level, at limit-up every ask level, a suspended stock every level (with a ' +
    '`notice`). Outside a session it is the latest session\'s closing book with that session\'s `time`; in the opening call ' +
    'auction (09:15–09:25) level 1 is the indicative price with the matched volume on both sides. Channels: Tencent, then Sina, then Eastmoney. A-share stocks, ETFs and convertible bonds: an index or ' +
    'another market answers ok:true with an empty `data` and a `notice`.',
  request: { query: Query },
  responses: {
    200: { description: 'The book (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneCode(q.code) })

/** Channels in order of preference. */
const ORDERBOOK_CHANNELS: readonly ChannelName[] = ['tencent', 'sina', 'eastmoney']

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

/** The flat row of a book. */
function bookRow(b: OrderBook, status: LineStatus): Record<string, number | string | null> {
  const change = round(b.last - b.preClose, 4)
  const row: Record<string, number | string | null> = {
    code: b.code,
    time: b.time,
    status,
    last: b.last,
    change: round(change, 3),
    change_pct: b.preClose > 0 ? round((change / b.preClose) * 100, 2) : 0,
  }
  b.bids.forEach(([p], k) => (row[`b${k + 1}_p`] = p))
  b.bids.forEach(([, v], k) => (row[`b${k + 1}_v`] = v))
  b.asks.forEach(([p], k) => (row[`a${k + 1}_p`] = p))
  b.asks.forEach(([, v], k) => (row[`a${k + 1}_v`] = v))
  return row
}

/** Why a book has no price on any level. */
function emptyBookNotice(status: LineStatus): string {
  if (status === 'halted') return 'suspended: the book is empty'
  return 'no orders in the book at this time (the upstream has reset the line for the new session and the auction has not begun)'
}

/** GET /v1/orderbook */
export function registerOrderbook(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const inst = oneCode(c.req.valid('query').code)
    const notice = notThisMarket('orderbook', inst, BOOK_KINDS)
    if (notice) return answer(c, 'orderbook', { ok: true, source: 'none', data: [], notice })

    const r = await services.market.live('orderbook:cn', ORDERBOOK_CHANNELS, liveBook(inst))
    if (!r.ok) return answer(c, 'orderbook', { ok: false, source: 'none', data: [], ...upstreamFailure(r.attempts, inst.code) })
    const b = r.value
    const status = lineStatus({ ...b, date: b.time.slice(0, 10) }, isAuctionBook(b, b.traded), services.now())
    const empty = [...b.bids, ...b.asks].every(([p]) => p === null)
    const bookNotice = empty ? emptyBookNotice(status) : undefined
    // One book is one row (the envelope counts arrays only).
    return answer(c, 'orderbook', { ok: true, source: services.sourcePrefix + r.channel, data: bookRow(b, status), as_of: beijingStampInstant(b.time), ...(bookNotice ? { notice: bookNotice } : {}), ...(r.stale ? keptAnswerFields(r.attempts) : {}) }, { rows: 1 })
  })
}

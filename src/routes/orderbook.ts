import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { guardedRoute } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { fetchStockGet } from '../channels/eastmoney/stock-get'
import { fetchSinaBook } from '../channels/sina/orderbook'
import { fetchFullQuote } from '../channels/tencent/full-quote'
import type { ChannelName } from '../channels/types'
import { BOOK_LEVELS, type OrderBook } from '../domain/orderbook'
import type { AppEnv } from '../http/context'
import { envelope, recordOutcome } from '../http/envelope'
import type { Services } from '../services'
import { failure, notThisMarket, oneCode, StockCodeParam } from './per-stock'
import { COMMON_ERRORS, envelopeSchema } from './schemas'

/** Who may call it and what it costs (DESIGN §12: pro group, trial and above). */
export const POLICY: AccessPolicy = { group: 'pro', minTier: 'trial', cost: 1, counted: true }

const Query = z.object({
  code: StockCodeParam.openapi({ description: 'One A-share stock, ETF or convertible bond with its sh, sz or bj prefix (one code per call)', example: 'sh600519' }),
})

/** What has a five-level book here. */
const BOOK_KINDS = ['stock', 'etf', 'bond'] as const

const LEVELS = Array.from({ length: BOOK_LEVELS }, (_, k) => k + 1)

const bookShape: Record<string, z.ZodType> = {
  code: z.string().openapi({ description: 'The instrument, e.g. `sh600519`' }),
  time: z.string().openapi({ description: 'Data time `YYYY-MM-DD HH:MM:SS` (Beijing); after the close, the last snapshot of the day' }),
  last: z.number().openapi({ description: 'Current price, CNY (the previous close while halted); prices have 2 decimals for stocks, 3 for ETFs and bonds' }),
  change: z.number().openapi({ description: 'Change against the previous close, CNY' }),
  change_pct: z.number().openapi({ description: 'Change against the previous close, percent' }),
}
for (const k of LEVELS) bookShape[`b${k}_p`] = z.number().openapi({ description: `Bid level ${k} price, CNY; 0 when the level is empty (limit-down: all bids 0)` })
for (const k of LEVELS) bookShape[`b${k}_v`] = z.number().int().openapi({ description: `Bid level ${k} volume in lots (×100 = shares)` })
for (const k of LEVELS) bookShape[`a${k}_p`] = z.number().openapi({ description: `Ask level ${k} price, CNY; 0 when the level is empty (limit-up: all asks 0)` })
for (const k of LEVELS) bookShape[`a${k}_v`] = z.number().int().openapi({ description: `Ask level ${k} volume in lots (×100 = shares)` })

const BookRow = z.object(bookShape).openapi('OrderBook')

const Response = envelopeSchema('OrderBookEnvelopeBase', z.union([BookRow, z.array(z.unknown()).max(0)]).openapi({ description: 'The book; `[]` when the code is not an A-share stock or every channel failed' }))
  .openapi('OrderBookEnvelope', {
    example: {
      ok: true, endpoint: 'orderbook', tier: 'pro', elapsed_ms: 21, source: 'tencent', as_of: '2026-11-20 10:30:00',
      data: {
        code: 'sh600519', time: '2026-11-20 10:30:00', last: 1520, change: 11.5, change_pct: 0.76,
        b1_p: 1519.99, b2_p: 1519.98, b3_p: 1519.9, b4_p: 1519.8, b5_p: 1519.5, b1_v: 3, b2_v: 2, b3_v: 5, b4_v: 1, b5_v: 4,
        a1_p: 1520, a2_p: 1520.1, a3_p: 1520.5, a4_p: 1520.88, a5_p: 1521, a1_v: 6, a2_v: 2, a3_v: 1, a4_v: 3, a5_v: 10,
      },
    },
  })

const route = guardedRoute(POLICY, {
  method: 'get',
  path: '/v1/orderbook',
  operationId: 'orderbook',
  tags: ['Pro'],
  summary: 'Five-level order book of one A-share stock, ETF or convertible bond',
  description:
    'Flat columns `b1_p`..`b5_p` (bid prices, best first), `b1_v`..`b5_v` (bid volume in lots), `a1_p`..`a5_p`, `a1_v`..`a5_v` ' +
    '(asks), with the current price `last`, `change`, `change_pct` and the data time `time`. At limit-down all bid levels are 0; ' +
    'at limit-up all ask levels are 0; a halted stock has an empty book. Meaningful intraday; after the close it is the last ' +
    'snapshot of the day. Channels: Tencent, then Sina, then Eastmoney. A-share stocks, ETFs and convertible bonds: an index or ' +
    'another market answers ok:true with an empty `data` and a `notice`.',
  request: { query: Query },
  responses: {
    200: { description: 'The book (ok:false when every channel failed; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void oneCode(q.code) })

/** Channels in order of preference. */
export const ORDERBOOK_CHANNELS: readonly ChannelName[] = ['tencent', 'sina', 'eastmoney']

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

/** The flat row of a book. */
export function bookRow(b: OrderBook): Record<string, number | string> {
  const change = round(b.last - b.preClose, 4)
  const row: Record<string, number | string> = {
    code: b.code,
    time: b.time,
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

/** GET /v1/orderbook */
export function registerOrderbook(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, async (c) => {
    const inst = oneCode(c.req.valid('query').code)
    const notice = notThisMarket('orderbook', inst, BOOK_KINDS)
    if (notice) return c.json(envelope(c, 'orderbook', { ok: true, source: 'none', data: [], notice }), 200)

    const ctx = services.channelContext
    const r = await services.router.run('orderbook:cn', ORDERBOOK_CHANNELS, async (name): Promise<OrderBook> => {
      if (name === 'tencent') return (await fetchFullQuote(ctx, inst)).book
      if (name === 'sina') return fetchSinaBook(ctx, inst)
      return (await fetchStockGet(ctx, inst)).book
    })
    if (!r.ok) return c.json(envelope(c, 'orderbook', { ok: false, source: 'none', data: [], ...failure(inst.code, r.attempts) }), 200)
    const body = envelope(c, 'orderbook', { ok: true, source: services.sourcePrefix + r.channel, data: bookRow(r.value), as_of: r.value.time })
    // One book is one row (the envelope counts arrays only).
    recordOutcome(c, { ok: true, rows: 1 })
    return c.json(body, 200)
  })
}

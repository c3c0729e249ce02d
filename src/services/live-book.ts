import { fetchStockGet } from '../channels/eastmoney/stock-get'
import { fetchSinaBook } from '../channels/sina/orderbook'
import { fetchFullQuote } from '../channels/tencent/full-quote'
import type { ChannelContext } from '../channels/types'
import type { Instrument } from '../domain/instrument'
import type { OrderBook } from '../domain/orderbook'
import type { Snapshot } from '../domain/snapshot'
import type { Ask } from './types'

// One A-share stock's live book and 35-field profile (/v1/orderbook, /v1/snapshot), served through
// `services.market.live`: the lines are shared within the source's cadence, and past the budget the
// kept ones answer (src/services/live-answer.ts).

/** The service's clock as the channel's context carries it (src/services/index.ts sets it). */
const clockOf = (ctx: ChannelContext) => (ctx.now ? ctx.now() : Date.now())

/** The 35-field profile: Eastmoney's stock/get (with the rise speed), or Tencent's full quote line. */
export const liveSnapshot =
  (inst: Instrument): Ask<Snapshot> =>
  async (channel, ctx) =>
    channel === 'eastmoney' ? (await fetchStockGet(ctx, inst, clockOf(ctx), true)).snapshot : (await fetchFullQuote(ctx, inst, clockOf(ctx))).snapshot

/** The five-level book: Tencent's full quote line, Sina's hq line, or Eastmoney's stock/get. */
export const liveBook =
  (inst: Instrument): Ask<OrderBook> =>
  async (channel, ctx) => {
    if (channel === 'tencent') return (await fetchFullQuote(ctx, inst, clockOf(ctx))).book
    if (channel === 'sina') return fetchSinaBook(ctx, inst)
    return (await fetchStockGet(ctx, inst, clockOf(ctx))).book
  }

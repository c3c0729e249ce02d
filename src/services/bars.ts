import { aggregateBars, sourceCount } from '../domain/aggregate'
import { minuteWindowStart } from '../domain/minute-window'
import { isMinutePeriod } from '../domain/period'
import { tradingDaysBetween } from '../domain/trading-calendar'
import type { MarketDeps } from './market-deps'
import type { SeriesRequest, SeriesResult } from './types'
import { klinePlans, kindGroup } from '../channels/channel-tables'
import { ChannelError } from '../channels/errors'
import { fetchLive } from './live-answer'
import { overlayQuote, recentBarsOf } from './quote-series'
import { joinStored } from './stored-bars'

/**
 * Day bars asked for without a range, up to this many, are composed as /v1/quote's are: the past
 * bars the isolate keeps (ten minutes) with the live line (shared for the source's cadence) laid
 * over today. So a busy symbol's K-line costs one bars request per ten minutes, not one a call.
 * Larger counts go to the upstream each time: kept, they would crowd the recent-bars cache.
 */
const LIVE_DAY_MAX_COUNT = 120

/**
 * Fetches one instrument's K-line through the failover: the channel table decides the order, each
 * channel fetches its native period (aggregating season/year/m120 where needed), minute bars are
 * clipped to the minute window, and the newest `count` bars are kept.
 */
export async function fetchSeries(services: MarketDeps, req: SeriesRequest): Promise<SeriesResult> {
  const { instrument, period, count } = req
  const minute = isMinutePeriod(period)
  let start = req.start
  let notice: string | undefined

  if (minute) {
    const windowStart = minuteWindowStart(instrument.kind, services.now())
    notice = `minute bars cover ${windowStart} onwards`
    if (req.end !== undefined && req.end < windowStart) return { ok: true, bars: [], channel: null, notice }
    if (start !== undefined && start < windowStart) start = windowStart
  } else if (req.start && req.end && tradingDaysBetween(req.start, req.end).length === 0) {
    return { ok: true, bars: [], channel: null, notice: `no trading days between ${req.start} and ${req.end}` }
  }

  const plans = klinePlans(instrument.kind, period)
  if (period === 'day' && start === undefined && req.end === undefined && count <= LIVE_DAY_MAX_COUNT) return liveDaySeries(services, req, plans)
  const key = `kline:${kindGroup(instrument.kind)}:${minute ? 'minute' : 'day'}`
  const r = await services.failover.run(key, plans.map((p) => p.channel), async (name) => {
    const plan = plans.find((p) => p.channel === name)!
    const want = plan.aggregate ? sourceCount(count, plan.aggregate) : count
    let bars = await services.channels[name].kline(
      { instrument, period: plan.fetch, count: want, start, end: req.end },
      services.channelContext
    )
    if (plan.aggregate) bars = aggregateBars(bars, plan.aggregate)
    if (minute) {
      const windowStart = minuteWindowStart(instrument.kind, services.now())
      bars = bars.filter((b) => b.date.slice(0, 10) >= windowStart)
    }
    return bars.slice(-count)
  })
  if (!r.ok) return { ok: false, attempts: r.attempts }
  return { ok: true, bars: r.value, channel: r.channel, notice }
}

/**
 * The newest `count` day bars, past bars with a channel's live line over today; a channel without
 * a live line for the instrument gives its K-line as asked. An A-share stock's past bars come from
 * the store when they join the line (src/services/stored-bars.ts), else from the channel. Past the request
 * budget or during a ban, the kept answer with `stale` (src/services/live-answer.ts).
 */
async function liveDaySeries(services: MarketDeps, req: SeriesRequest, plans: ReturnType<typeof klinePlans>): Promise<SeriesResult> {
  const { instrument, count } = req
  const native = plans.filter((p) => !p.aggregate && p.fetch === 'day').map((p) => p.channel)
  const tail = await services.storedBars.tail(instrument, count, services.now())
  const r = await fetchLive(services, `kline:${kindGroup(instrument.kind)}:day`, native, async (name, ctx) => {
    const lineOf = () =>
      services.channels[name].quotes([instrument], ctx).then(
        (quotes) => quotes.get(instrument.code),
        // A channel with no live line for this kind of instrument still has its K-line.
        (e) => (e instanceof ChannelError && (e.kind === 'unsupported' || e.kind === 'empty') ? undefined : Promise.reject(e))
      )
    if (tail) {
      // A stock the store keeps: its past bars from there when they join the line (no bars request).
      const quote = await lineOf()
      const fromStore = quote && joinStored(tail, quote, count)
      if (fromStore) return { bars: overlayQuote(fromStore, quote, count), history: 'store' as const }
      if (quote) return { bars: overlayQuote(await recentBarsOf(services, name, instrument, count, ctx), quote, count), history: 'channel' as const }
    } else {
      // The bars first: a channel that fails them (a ban, a fault) is left after one request, not two.
      const bars = await recentBarsOf(services, name, instrument, count, ctx)
      const quote = await lineOf()
      if (quote) return { bars: overlayQuote(bars, quote, count), history: 'channel' as const }
    }
    return { bars: (await services.channels[name].kline({ instrument, period: 'day', count }, ctx)).slice(-count), history: 'channel' as const }
  })
  if (!r.ok) return { ok: false, attempts: r.attempts }
  return { ok: true, bars: r.value.bars, history: r.value.history, channel: r.channel, ...(r.stale ? { stale: true, attempts: r.attempts } : {}) }
}

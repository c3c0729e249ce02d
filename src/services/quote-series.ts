import type { Bar, Quote } from '../domain/bar'
import type { Instrument } from '../domain/instrument'
import type { MarketDeps } from './market-deps'
import { barsWindowOf, type RecentBarsCache } from '../channels/recent-bars'
import { ChannelError, empty } from '../channels/errors'
import { fetchLive } from './live-answer'
import type { QuoteResult } from './types'
import { quoteChannels, kindGroup } from '../channels/channel-tables'
import type { FailoverResult } from '../channels/failover'
import type { SeriesChannelName } from '../domain/channel-name'
import { joinStored } from './stored-bars'

/**
 * Lays a real-time quote over the recent daily bars: today's bar becomes the live one (replacing
 * the upstream's possibly older partial bar), so `bars[last].close` is the current price. A line
 * without a trade in its session (suspended, re-stamped before the open, in the auction) adds no bar:
 * the last session's bars stand. Oldest first, at most `count`.
 */
export function overlayQuote(bars: readonly Bar[], q: Quote, count: number): Bar[] {
  const out = [...bars]
  if (q.traded) {
    const live: Bar = {
      date: q.date, open: q.open, close: q.last, high: q.high, low: q.low,
      volume: q.volume, amount: q.amount, turnover: q.turnover,
    }
    const last = out[out.length - 1]
    if (last && last.date === q.date) out[out.length - 1] = live
    else if (!last || q.date > last.date) out.push(live)
  }
  return out.slice(-count)
}

/**
 * The /v1/quote series for one instrument: the live line of the first channel that answers, over
 * past daily bars. An A-share stock's past bars come from the store's own history when it joins the
 * line (src/services/stored-bars.ts: no upstream request), else from the same channel as the line,
 * so that `source` names one upstream and the numbers agree with each other; `history` says which.
 * Past bars may come from the isolate's {@link RecentBarsCache}; the live line never does.
 * `history: 'channel'` asks for the channel's bars whatever the store holds (/v1/technical checks
 * the store against them).
 */
export async function fetchQuoteSeries(services: MarketDeps, instrument: Instrument, count: number, history: 'any' | 'channel' = 'any'): Promise<QuoteResult> {
  const key = `quote:${kindGroup(instrument.kind)}`
  // The store first (an R2 read once per symbol per ten minutes): without a stored history to try,
  // the line and the channel's bars go out together.
  const tail = history === 'any' ? await services.storedBars.tail(instrument, count, services.now()) : undefined
  const r = await fetchLive(services, key, quoteChannels(instrument.kind), async (name, ctx) => {
    const [quotes, channelBars] = await Promise.all([
      services.channels[name].quotes([instrument], ctx),
      tail ? undefined : recentBarsOf(services, name, instrument, count, ctx),
    ])
    const quote = quotes.get(instrument.code)
    if (!quote) throw empty(name, `no quote for ${instrument.code}`)
    const fromStore = tail && joinStored(tail, quote, count)
    const bars = fromStore ?? channelBars ?? (await recentBarsOf(services, name, instrument, count, ctx))
    return { quote, bars: overlayQuote(bars, quote, count), history: fromStore ? ('store' as const) : ('channel' as const) }
  })
  if (!r.ok) return { ok: false, attempts: r.attempts }
  return { ok: true, ...r.value, channel: r.channel, ...(r.stale ? { stale: true, attempts: r.attempts } : {}) }
}

/**
 * The past daily bars of one channel, the newest `count`, from the isolate's {@link RecentBarsCache}
 * when it has them (loaded {@link barsWindowOf} at a time); with a `keptOnly` context, the bars it
 * loaded today whatever their age, or a failure.
 */
export function recentBarsOf(services: MarketDeps, name: SeriesChannelName, instrument: Instrument, count: number, ctx = services.channelContext): Promise<Bar[]> {
  const window = barsWindowOf(count)
  if (ctx.keptOnly) {
    const kept = services.recentBars.kept(name, instrument.code, window, services.now())
    return kept ? Promise.resolve(kept.slice(-count)) : Promise.reject(new ChannelError('over_budget', name, 'no daily bars kept to serve; nothing sent'))
  }
  return services.recentBars
    .get(name, instrument.code, window, services.now(), () => services.channels[name].kline({ instrument, period: 'day', count: window }, ctx))
    .then((bars) => bars.slice(-count))
}

/**
 * The newest `count` daily bars alone, through the same channels and cache as /v1/quote's series:
 * for a view that already has the live quote and needs only the sessions behind it.
 */
export async function fetchRecentBars(services: MarketDeps, instrument: Instrument, count: number): Promise<FailoverResult<Bar[]>> {
  return services.failover.run(`bars:${kindGroup(instrument.kind)}`, quoteChannels(instrument.kind), (name) => recentBarsOf(services, name, instrument, count))
}

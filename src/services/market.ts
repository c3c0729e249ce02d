import { fetchSeries } from './bars'
import { fetchLive } from './live-answer'
import { fetchLiveQuotes, fetchStockQuotes } from './live-quotes'
import { sharedChangedist, sharedMarketList } from './market-breadth'
import type { MarketDeps } from './market-deps'
import { fetchQuoteSeries, fetchRecentBars } from './quote-series'
import { fetchTurnoverBars } from './turnover-bars'
import type { MarketViews } from './types'

/**
 * `services.market` over `deps`: every answer a route asks of the upstreams while the market
 * moves, through the failover (in the channel table's order, breakers) and, for answers
 * the same for every caller, the isolate's shared cache. The shape is `MarketViews` (src/services/types.ts).
 */
export function marketViews(deps: MarketDeps): MarketViews {
  return {
    fetch: (key, chain, call) => deps.failover.run(key, chain, (channel) => call(channel, deps.channelContext)),
    live: (key, chain, call) => fetchLive(deps, key, chain, call),
    shared: (key, freshness, compute, keep, opts) => deps.sharedAnswers.answer(key, freshness, deps.now(), compute, keep, opts),
    quoteSeries: (instrument, count, history) => fetchQuoteSeries(deps, instrument, count, history),
    recentBars: (instrument, count) => fetchRecentBars(deps, instrument, count),
    series: (req) => fetchSeries(deps, req),
    turnoverBars: (instrument, count, end) => fetchTurnoverBars(deps, instrument, count, end),
    liveQuotes: (instruments) => fetchLiveQuotes(deps, instruments),
    stockQuotes: (instruments) => fetchStockQuotes(deps, instruments),
    ask: (channel, call) => call(channel, deps.channelContext),
    changedist: (opts) => sharedChangedist(deps, opts),
    marketList: () => sharedMarketList(deps),
  }
}

import type { Attempt, RouteResult } from '../channels/router'
import type { ChannelContext, ChannelName } from '../channels/types'
import type { Instrument } from '../domain/instrument'
import { fetchSeries, type SeriesRequest, type SeriesResult } from './bars'
import { fetchLiveQuotes, type LiveQuotes } from './live-quotes'
import { sharedChangedist, sharedMarketList } from './market-breadth'
import type { MarketDeps } from './market-deps'
import { fetchQuoteSeries, type QuoteResult } from './quote-series'
import { fetchTurnoverBars, type TurnoverBarsResult } from './turnover-bars'
import type { Freshness, SharedOptions } from './shared-answers'

export type { Attempt, RouteResult }

/**
 * Live market views (`services.market`): every answer a route asks of the upstreams while the
 * market moves, through the router (failover in the channel table's order, breakers) and, for
 * answers the same for every caller, the isolate's shared cache.
 */
export interface MarketViews {
  /**
   * One live answer from the first channel of `chain` that gives one, tried in the router's order
   * under `key` (the last good channel first, open circuits skipped); `call` gets the channel and
   * the context its client needs. Why each channel failed is in the result's `attempts`.
   */
  fetch<T, C extends ChannelName = ChannelName>(key: string, chain: readonly C[], call: (channel: C, ctx: ChannelContext) => Promise<T>): Promise<RouteResult<T, C>>
  /**
   * The answer under `key` computed once per freshness window for every caller (src/services/shared-answers.ts);
   * `keep` says whether it may be kept, `opts.waitUntil` lets an expired one be served while it refreshes.
   */
  shared<T>(key: string, freshness: Freshness, compute: () => Promise<T>, keep: (value: T) => boolean, opts?: SharedOptions): Promise<{ value: T; hit: boolean }>
  /** /v1/quote's series of one instrument: the live quote over the recent daily bars, from one channel. */
  quoteSeries(instrument: Instrument, count: number): Promise<QuoteResult>
  /** One instrument's K-line of any period (src/services/bars.ts). */
  series(req: SeriesRequest): Promise<SeriesResult>
  /** The newest `count` daily bars up to `end`, from a channel that gives every bar's turnover rate (/v1/chip). */
  turnoverBars(instrument: Instrument, count: number, end?: string): Promise<TurnoverBarsResult>
  /** Real-time quotes of many instruments in as few requests as the channels allow. */
  liveQuotes(instruments: readonly Instrument[]): Promise<LiveQuotes>
  /** The whole A-share market's change distribution, shared (/v1/changedist's body). */
  changedist(opts?: SharedOptions): ReturnType<typeof sharedChangedist>
  /** The whole A-share market list, shared. */
  marketList(): ReturnType<typeof sharedMarketList>
}

/** `services.market` over `deps`. */
export function marketViews(deps: MarketDeps): MarketViews {
  return {
    fetch: (key, chain, call) => deps.router.run(key, chain, (channel) => call(channel, deps.channelContext)),
    shared: (key, freshness, compute, keep, opts) => deps.sharedAnswers.answer(key, freshness, deps.now(), compute, keep, opts),
    quoteSeries: (instrument, count) => fetchQuoteSeries(deps, instrument, count),
    series: (req) => fetchSeries(deps, req),
    turnoverBars: (instrument, count, end) => fetchTurnoverBars(deps, instrument, count, end),
    liveQuotes: (instruments) => fetchLiveQuotes(deps, instruments),
    changedist: (opts) => sharedChangedist(deps, opts),
    marketList: () => sharedMarketList(deps),
  }
}

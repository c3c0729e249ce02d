import type { RecentBarsCache } from '../channels/recent-bars'
import type { StoredBars } from './stored-bars'
import type { Failover } from '../channels/failover'
import type { Channel, ChannelContext, SeriesChannelName } from '../channels/types'
import type { SharedAnswers } from './shared-answers'

/**
 * What the market views need of `Services`: the channels and their context, the failover (its order
 * and breakers), the isolate's market caches and the clock. Narrow on purpose: the views are wired
 * into `Services` (src/services/index.ts) and must not import it back.
 */
export interface MarketDeps {
  channels: Record<SeriesChannelName, Channel>
  channelContext: ChannelContext
  failover: Failover
  /** Past daily bars /v1/quote reuses for a minute (this isolate only). */
  recentBars: RecentBarsCache
  /** Past daily bars of A-share stocks from the store's histories (src/services/stored-bars.ts). */
  storedBars: StoredBars
  /** Market-level answers computed once per freshness window for every caller (this isolate only). */
  sharedAnswers: SharedAnswers
  now: () => number
  /** Prepended to the channel name in `source`: '' live, 'emulator:' under the emulator. */
  sourcePrefix: string
}

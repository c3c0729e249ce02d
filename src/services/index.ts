import { eastmoney } from '../channels/eastmoney/index'
import { RecentBarsCache } from '../channels/recent-bars'
import { DEFAULT_ROUTER_OPTIONS, ChannelRouter } from '../channels/router'
import { sina } from '../channels/sina/index'
import { tencent } from '../channels/tencent/index'
import type { Channel, ChannelContext, SeriesChannelName } from '../channels/types'
import { clearIsolateCaches } from '../runtime/isolate-caches'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'

/**
 * Everything a route needs from outside the request: the channels and the fetch they use, the
 * clock, and how `source` is labelled. Production wires the live upstreams; the emulator entry
 * wires the emulator's fetch and clock and labels sources `emulator:<channel>`.
 */
export interface Services {
  channels: Record<SeriesChannelName, Channel>
  channelContext: ChannelContext
  router: ChannelRouter
  /** Past daily bars /v1/quote reuses for a minute (this isolate only). */
  recentBars: RecentBarsCache
  now: () => number
  /** Prepended to the channel name in `source`: '' live, 'emulator:' under the emulator. */
  sourcePrefix: string
  /** When this isolate started (health's uptime_s). */
  startedAt: number
  /** True under the emulator: data is simulated. */
  simulated: boolean
  /** Every request answers within this many ms (see src/http/deadline.ts); the emulator's tests shorten it. */
  deadlineMs: number
  /**
   * Forgets what this isolate caches between requests: breakers and failover, recent
   * daily bars, and every cache registered in src/runtime/isolate-caches.ts (API key records,
   * anonymous answers and leases, keyed leases, shared market answers, live technical rows, the
   * latest technicals date, parsed factor tables, the refreshed calendar, reference answers). The
   * emulator's reset; production never calls it. Not forgotten: proof-of-work proofs already
   * accepted (replay protection), pure memos (parsed IPs, trading-day walks), and the parsed
   * indicator-state shards, kept by session as production keeps them (tests that rewrite a
   * session's states call forgetStateShards).
   */
  reset(): void
}

export interface ServiceOptions {
  fetch: typeof fetch
  now?: () => number
  sourcePrefix?: string
  simulated?: boolean
  timeoutMs?: number
  deadlineMs?: number
}

export function createServices(opts: ServiceOptions): Services {
  const now = opts.now ?? Date.now
  const router = new ChannelRouter({ ...DEFAULT_ROUTER_OPTIONS, now })
  const recentBars = new RecentBarsCache()
  return {
    channels: { eastmoney, tencent, sina },
    channelContext: { fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? 4000 },
    router,
    recentBars,
    now,
    sourcePrefix: opts.sourcePrefix ?? '',
    startedAt: Date.now(),
    simulated: opts.simulated ?? false,
    deadlineMs: opts.deadlineMs ?? REQUEST_DEADLINE_MS,
    reset: () => {
      router.reset()
      recentBars.clear()
      clearIsolateCaches()
    },
  }
}

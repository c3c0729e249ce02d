import { eastmoney } from '../channels/eastmoney/index'
import { RecentBarsCache } from '../channels/recent-bars'
import { DEFAULT_ROUTER_OPTIONS, ChannelRouter } from '../channels/router'
import { sina } from '../channels/sina/index'
import { tencent } from '../channels/tencent/index'
import { clearIsolateCaches } from '../runtime/isolate-caches'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'
import { marketViews } from './market'
import type { MarketDeps } from './market-deps'
import { FactorTables } from '../store/factor-table'
import { ReferenceCache } from '../store/reference-cache'
import { referenceData } from './reference'
import { SharedAnswers } from './shared-answers'
import { storeReads } from './store'
import type { Services } from './types'

export interface ServiceOptions {
  fetch: typeof fetch
  now?: () => number
  sourcePrefix?: string
  simulated?: boolean
  timeoutMs?: number
  deadlineMs?: number
}

/**
 * The `Services` of one deployment (its shape: src/services/types.ts). Production wires the live
 * upstreams; the emulator entry wires the emulator's fetch and clock and labels sources
 * `emulator:<channel>`.
 *
 * `reset()` forgets what this isolate caches between requests: breakers and failover, recent daily
 * bars, shared market answers, reference answers, parsed factor tables, and every cache registered in
 * src/runtime/isolate-caches.ts (API key records, anonymous answers and leases, keyed leases,
 * live technical rows, the latest technicals date, the refreshed calendar). The
 * emulator's reset; production never calls it. Not forgotten: proof-of-work proofs already
 * accepted (replay protection), pure memos (parsed IPs, trading-day walks), the parsed
 * industry-chain members (checked against the object's etag on every read), and the parsed
 * indicator-state shards, kept by session as production keeps them (tests that rewrite a
 * session's states call forgetStateShards).
 */
export function createServices(opts: ServiceOptions): Services & MarketDeps {
  const now = opts.now ?? Date.now
  const router = new ChannelRouter({ ...DEFAULT_ROUTER_OPTIONS, now })
  const recentBars = new RecentBarsCache()
  const sharedAnswers = new SharedAnswers()
  const referenceCache = new ReferenceCache()
  const factorTables = new FactorTables()
  const deps: MarketDeps = {
    channels: { eastmoney, tencent, sina },
    channelContext: { fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? 4000 },
    router,
    recentBars,
    sharedAnswers,
    now,
    sourcePrefix: opts.sourcePrefix ?? '',
  }
  return {
    ...deps,
    market: marketViews(deps),
    reference: referenceData({ ...deps, referenceCache }),
    store: storeReads(factorTables),
    startedAt: Date.now(),
    simulated: opts.simulated ?? false,
    deadlineMs: opts.deadlineMs ?? REQUEST_DEADLINE_MS,
    reset: () => {
      router.reset()
      recentBars.clear()
      sharedAnswers.clear()
      referenceCache.clear()
      factorTables.clear()
      clearIsolateCaches()
    },
  }
}

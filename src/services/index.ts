import { CacheApiLines, type LineCache } from '../channels/line-cache'
import { eastmoney } from '../channels/eastmoney/index'
import { HostBudgets } from '../channels/budget/host-budget'
import { LinePool } from '../channels/live-lines'
import { HostHealth } from '../channels/host-health'
import { RecentBarsCache } from '../channels/recent-bars'
import { DEFAULT_FAILOVER_OPTIONS, Failover } from '../channels/failover'
import { sina } from '../channels/sina/index'
import { tencent } from '../channels/tencent/index'
import { IsolateCaches } from '../runtime/isolate-caches'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'
import { marketViews } from './market'
import type { MarketDeps } from './market-deps'
import { FactorTables } from '../store/factor-table'
import { ReferenceCache } from '../store/reference-cache'
import { referenceData } from './reference'
import { SharedAnswers } from './shared-answers'
import { storeReads } from './store'
import type { Services } from './types'
import type { ChannelName } from '../domain/channel-name'
import { upstreamStatus } from './upstream-status'

export interface ServiceOptions {
  fetch: typeof fetch
  now?: () => number
  sourcePrefix?: string
  simulated?: boolean
  timeoutMs?: number
  deadlineMs?: number
  /** Requests per minute per upstream family; the defaults of src/data/upstream-budgets.ts without it, none with `{}`. */
  budgets?: Partial<Record<ChannelName, number>>
  /** Where live lines are shared with the location's other isolates (src/channels/line-cache.ts); none without it. */
  lineCache?: LineCache
}

/**
 * The `Services` of one deployment (its shape: src/services/types.ts). Production wires the live
 * upstreams; the emulator entry wires the emulator's fetch and clock and labels sources
 * `emulator:<channel>`.
 *
 * `Services` owns every cache this isolate keeps between requests, and `reset()` (the emulator's
 * reset; production never calls it) forgets them all:
 * - its own: breakers and failover, the per-host request counters (/v1/status), the live quote
 *   lines (src/channels/live-lines.ts), recent daily bars, shared market answers, reference answers;
 * - the store facade's: the calendar, the latest technicals date, parsed technicals tables,
 *   indicator-state shards and factor tables (kept: the industry-chain members, checked against
 *   the object's etag on every read, and the owned tables, static assets fixed for the deployment);
 * - `caches`, for layers services/ may not import (src/runtime/isolate-caches.ts): API key
 *   records, keyed and anonymous leases, anonymous answers, live technical rows.
 *
 * Not caches, and kept: proof-of-work proofs already accepted (replay protection) and pure memos of
 * computations (parsed IPs, trading-day walks, Beijing days, MCP tool schemas, the rows of bar
 * objects already formatted, held weakly by bar: src/http/series-body.ts; the last /v1/kline-full
 * rows written of each history, held weakly by the history: src/features/technical/kline-full-rows.ts).
 */
/**
 * The live lines of the location's isolates, shared through the Workers Cache API
 * (src/channels/line-cache.ts); `namespace` apart, every isolate reads what the others wrote.
 */
export const locationLines = (namespace?: string): LineCache => new CacheApiLines(() => caches.open('live-lines'), namespace)

export function createServices(opts: ServiceOptions): Services & MarketDeps {
  const now = opts.now ?? Date.now
  const failover = new Failover({ ...DEFAULT_FAILOVER_OPTIONS, now })
  const hostHealth = new HostHealth(now)
  const recentBars = new RecentBarsCache()
  const lines = new LinePool(now)
  lines.shared = opts.lineCache
  const budgets = new HostBudgets(opts.budgets)
  const sharedAnswers = new SharedAnswers()
  const referenceCache = new ReferenceCache()
  const factorTables = new FactorTables()
  const caches = new IsolateCaches()
  const deps: MarketDeps = {
    channels: { eastmoney, tencent, sina },
    channelContext: { fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? 4000, lines, budgets, now, health: hostHealth },
    failover,
    recentBars,
    sharedAnswers,
    now,
    sourcePrefix: opts.sourcePrefix ?? '',
  }
  const store = storeReads(factorTables)
  return {
    ...deps,
    market: marketViews(deps),
    reference: referenceData({ ...deps, referenceCache }),
    store,
    startedAt: Date.now(),
    simulated: opts.simulated ?? false,
    deadlineMs: opts.deadlineMs ?? REQUEST_DEADLINE_MS,
    caches,
    upstreamStatus: () =>
      upstreamStatus({
        breaker: (c) => failover.breaker(c),
        routes: () => failover.routes(),
        serving: (key, chain) => failover.serving(key, chain),
        counts: (c) => hostHealth.counts(c),
        budget: (c) => (Number.isFinite(budgets.limitOf(c)) ? budgets.limitOf(c) : null),
        now: now(),
      }),
    reset: () => {
      failover.reset()
      hostHealth.clear()
      recentBars.clear()
      lines.clear()
      budgets.clear()
      sharedAnswers.clear()
      referenceCache.clear()
      store.forget()
      caches.clear()
    },
  }
}

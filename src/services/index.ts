import { CacheApiLines, type LineCache } from '../channels/line-cache'
import { eastmoney } from '../channels/eastmoney/index'
import { HostBudgets } from '../channels/budget/host-budget'
import { LIVE_LINES } from '../channels/live-lines'
import { HostHealth } from '../channels/host-health'
import { RECENT_BARS } from '../channels/recent-bars'
import { DEFAULT_FAILOVER_OPTIONS, Failover } from '../channels/failover'
import { sina } from '../channels/sina/index'
import { tencent } from '../channels/tencent/index'
import { IsolateCaches } from '../runtime/isolate-caches'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'
import { marketViews } from './market'
import type { MarketDeps } from './market-deps'
import { REFERENCE_ANSWERS } from '../store/reference-cache'
import { referenceData } from './reference'
import { SHARED_ANSWERS } from './shared-answers'
import { storeReads } from './store'
import { StoredBars } from './stored-bars'
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
 * What this isolate keeps between requests is of two sorts, and `reset()` (the emulator's reset;
 * production never calls it) forgets both:
 * - caches, all in `caches` (src/runtime/isolate-caches.ts; the table of kinds: docs/architecture.md,
 *   "Caches"), each kind declared beside its class by the module that owns its data; `caches.clear()`
 *   is the one way they are forgotten. The services' own (live lines, recent bars, shared answers,
 *   reference answers, the store facade's) are made here, the others (the access layer's, the
 *   answer pipeline's, the technical feature's, /v1/status's) on first use;
 * - state, below the line and reset one by one: the breakers and failover routes, the per-host
 *   request counters (/v1/status) and the per-host request budgets. These are not caches: they
 *   record what happened (failures, requests made, requests granted), and making them again from
 *   nothing would change what the isolate does, not only what it costs.
 *
 * Not caches, and kept at module scope: proof-of-work proofs already accepted (each checked again
 * against its expiry: a pure function of the proof, the secret and the clock) and pure memos of
 * computations (parsed IPs, trading-day walks, Beijing days, the A-share cadence of a minute, MCP
 * tool schemas, the rows of bar objects already formatted, held weakly by bar:
 * src/http/series-body.ts; the last /v1/kline-full rows written of each history, held weakly by the
 * history: src/features/technical/kline-full-rows.ts).
 */
/**
 * The live lines of the location's isolates, shared through the Workers Cache API
 * (src/channels/line-cache.ts); `namespace` apart, every isolate reads what the others wrote.
 */
export const locationLines = (namespace?: string): LineCache => new CacheApiLines(() => caches.open('live-lines'), namespace)

export function createServices(opts: ServiceOptions): Services & MarketDeps {
  const now = opts.now ?? Date.now
  const caches = new IsolateCaches({ now })
  const recentBars = caches.of(RECENT_BARS)
  const lines = caches.of(LIVE_LINES)
  lines.shared = opts.lineCache
  const sharedAnswers = caches.of(SHARED_ANSWERS)
  const referenceCache = caches.of(REFERENCE_ANSWERS)
  // State, not caches (see above): reset apart.
  const failover = new Failover({ ...DEFAULT_FAILOVER_OPTIONS, now })
  const hostHealth = new HostHealth(now)
  const budgets = new HostBudgets(opts.budgets)
  const deps: MarketDeps = {
    channels: { eastmoney, tencent, sina },
    channelContext: { fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? 4000, lines, budgets, now, health: hostHealth },
    failover,
    recentBars,
    storedBars: new StoredBars(recentBars),
    sharedAnswers,
    now,
    sourcePrefix: opts.sourcePrefix ?? '',
  }
  const store = storeReads(caches)
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
      caches.clear()
      // State, not caches.
      failover.reset()
      hostHealth.clear()
      budgets.clear()
    },
  }
}

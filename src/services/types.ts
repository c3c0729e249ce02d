/**
 * The shape of `Services` as routes, features and jobs see it: the three facades (`market`,
 * `reference`, `store`) and the few plain values beside them. Types only, so that a route depends
 * on what it may ask, not on everything behind the answer: src/services/index.ts builds it.
 */
import type { StoredBars } from './stored-bars'
import type { LiveResult } from './live-answer'
import type { Attempt, Failover, FailoverResult } from '../channels/failover'
import type { RankListRow } from '../channels/tencent/rank-list-row'
import type { ChannelContext, ChannelName, SeriesChannelName } from '../channels/types'
import type { Bar, Quote } from '../domain/bar'
import type { CalendarTable } from '../domain/calendar-table'
import type { ChangeDistribution } from '../domain/change-distribution'
import type { Instrument } from '../domain/instrument'
import type { Period } from '../domain/period'
import type { ScreenMarket } from '../data/factors'
import type { ChainThemes } from '../data/industry-chains'
import type { UpstreamFailureCode } from '../http/outcome'
import type { AssetsRequest, Building, History, LoadedFactorTable, MembersDoc, PickedStates, StoredEvidence, TechnicalsDay, Universe } from '../store/shapes'
import type { StaleClass, StaleOptions } from '../store/reference-cache'
import type { IsolateCaches } from '../runtime/isolate-caches'
import type { Freshness, SharedOptions } from './shared-answers'
import type { UpstreamStatus } from './upstream-status'

export type { Attempt, FailoverResult }

/**
 * How one kind of data is asked of a channel: which client function, with what arguments. Built by
 * the data-family modules of src/services/ (a route names what it asks for, `dividendPlans(inst)`),
 * run by the facades (`services.reference.fetch`, `services.market.fetch` and `live`) with the
 * context the channel's client needs; a route never sees a channel's client.
 */
export type Ask<T, C extends ChannelName = ChannelName> = (channel: C, ctx: ChannelContext) => Promise<T>

/**
 * Everything a route needs from outside the request. A route gets its data through one of three
 * facades: `market` (live views: failover over the channels, the shared answers), `reference`
 * (cached reference data, stale-if-error) and `store` (R2 reads). Below them: the context the
 * channels' clients use, the clock, and how `source` is labelled. Production wires the live upstreams;
 * the emulator entry wires the emulator's fetch and clock and labels sources `emulator:<channel>`.
 */
export interface Services {
  /** Live market views: src/services/market.ts. */
  market: MarketViews
  /** Cached reference data: src/services/reference.ts. */
  reference: ReferenceData
  /** The R2 reads routes make: src/services/store.ts. */
  store: StoreReads
  /** Past daily bars from the store's histories (src/services/stored-bars.ts); the pipeline attaches each request's bucket. */
  storedBars: Pick<StoredBars, 'attach'>
  /**
   * What a channel's client needs: the fetch to use and its timeout. For the jobs a route runs
   * (admin-jobs.ts); a route's own data comes through the facades, which hand it to the Asks.
   */
  channelContext: ChannelContext
  /** Failover and breakers; routes read only whether any channel is up (/health). */
  failover: Pick<Failover, 'anyAvailable'>
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
   * Every cache this isolate keeps between requests, by kind (src/runtime/isolate-caches.ts; the
   * kinds: docs/architecture.md, "Caches"), each kind declared by the module that owns its data.
   */
  caches: IsolateCaches
  /** Every upstream host's state and the channel serving each data family, this isolate's view (GET /v1/status). */
  upstreamStatus(): UpstreamStatus
  /**
   * Forgets what this isolate keeps between requests: `caches.clear()`, and the state beside them
   * (breakers, host counters, budgets: `createServices` in src/services/index.ts). The emulator's
   * reset; production never calls it.
   */
  reset(): void
}

// ---- services.market ----

/** One instrument's K-line request (src/services/bars.ts). */
export interface SeriesRequest {
  instrument: Instrument
  period: Period
  count: number
  start?: string
  end?: string
}

/** Bars oldest first, or why none could be had. `channel` is null when no upstream was needed. */
export type SeriesResult =
  /** `stale` when served from kept answers past the budget or a ban (src/services/live-answer.ts), with why in `attempts`. */
  | { ok: true; bars: Bar[]; channel: string | null; history?: 'store' | 'channel'; notice?: string; stale?: true; attempts?: Attempt[] }
  | { ok: false; attempts: Attempt[] }

/** /v1/quote's series: the live quote over the recent daily bars, both from `channel`. */
export type QuoteResult =
  /** `stale` when the quote was served from kept lines past the budget or a ban (src/services/live-answer.ts), with why in `attempts`. */
  | { ok: true; bars: Bar[]; quote: Quote; channel: string; history: 'store' | 'channel'; stale?: true; attempts?: Attempt[] }
  | { ok: false; attempts: Attempt[] }

/** A daily bar that carries its turnover rate (percent). */
export type TurnoverBar = Bar & { turnover: number }

export type TurnoverBarsResult = { ok: true; bars: TurnoverBar[]; channel: string } | { ok: false; attempts: Attempt[] }

export interface LiveQuotes {
  /** By canonical code: the quote and the channel that gave it. */
  quotes: Map<string, { quote: Quote; channel: ChannelName }>
  /** Groups (cn, us, …) no channel could quote, with what each channel answered. */
  failed: Array<{ group: string; attempts: Attempt[] }>
}

/** What the counts read of a whole-market row; both channels' rows have it. */
export type ListRow = RankListRow

/** What /v1/changedist's `data` holds: the counts, the session they are of, and when they were counted. */
type ChangedistData = ChangeDistribution & { date: string; computed_at: string }

export type ChangedistBody = { ok: boolean; source: string; data: ChangedistData | null } & Record<string, unknown>

/**
 * Live market views (`services.market`): every answer a route asks of the upstreams while the
 * market moves, through the failover (in the channel table's order, breakers) and, for
 * answers the same for every caller, the isolate's shared cache.
 */
export interface MarketViews {
  /**
   * One live answer from the first channel of `chain` that gives one, tried in the failover's order
   * under `key` (the last good channel first, open circuits skipped); `call` gets the channel and
   * the context its client needs. Why each channel failed is in the result's `attempts`.
   */
  fetch<T, C extends ChannelName = ChannelName>(key: string, chain: readonly C[], call: Ask<T, C>): Promise<FailoverResult<T, C>>
  /**
   * As {@link fetch}, for an answer that moves with the market (a quote line, a book): past the
   * request budget or during a ban, the freshest answer the isolate keeps, with `stale`
   * (src/services/live-answer.ts). `call` must use the context it is given.
   */
  live<T, C extends ChannelName = ChannelName>(key: string, chain: readonly C[], call: Ask<T, C>): Promise<LiveResult<T, C>>
  /**
   * The answer under `key` computed once per freshness window for every caller (src/services/shared-answers.ts);
   * `keep` says whether it may be kept, `opts.waitUntil` lets an expired one be served while it refreshes.
   */
  shared<T>(key: string, freshness: Freshness, compute: () => Promise<T>, keep: (value: T) => boolean, opts?: SharedOptions): Promise<{ value: T; hit: boolean }>
  /** /v1/quote's series of one instrument: the live quote over the recent daily bars, from one channel. */
  quoteSeries(instrument: Instrument, count: number, history?: 'any' | 'channel'): Promise<QuoteResult>
  /** The newest `count` daily bars alone, through /v1/quote's channels and bar cache: for a view that has the live quote already. */
  recentBars(instrument: Instrument, count: number): Promise<FailoverResult<Bar[]>>
  /** One instrument's K-line of any period (src/services/bars.ts). */
  series(req: SeriesRequest): Promise<SeriesResult>
  /** The newest `count` daily bars up to `end`, from a channel that gives every bar's turnover rate (/v1/chip). */
  turnoverBars(instrument: Instrument, count: number, end?: string): Promise<TurnoverBarsResult>
  /** Real-time quotes of many instruments in as few requests as the channels allow. */
  liveQuotes(instruments: readonly Instrument[]): Promise<LiveQuotes>
  /**
   * Real-time quotes of A-share stocks in one batch, under /v1/quote's key and chain (`quote:cn`),
   * so both show the same price; a channel that knows none of them answers an empty map.
   */
  stockQuotes(instruments: Instrument[]): Promise<FailoverResult<Map<string, Quote>, SeriesChannelName>>
  /**
   * One call of one channel, outside failover and its breaker: for what an answer already found
   * leads to (the page of each report a listing gave), whose failure the caller forgives.
   */
  ask<T, C extends ChannelName>(channel: C, call: Ask<T, C>): Promise<T>
  /** The whole A-share market's change distribution, shared (/v1/changedist's body). */
  changedist(opts?: SharedOptions): Promise<{ value: ChangedistBody; hit: boolean }>
  /** The whole A-share market list, shared. */
  marketList(): Promise<FailoverResult<ListRow[], 'eastmoney' | 'tencent'>>
}

// ---- services.reference ----

/** What reference data needs of the request: the KV cache and `waitUntil` (a hono `Context` is one). */
export interface ReferenceRequest {
  env: { CACHE: KVNamespace }
  executionCtx: { waitUntil(p: Promise<unknown>): void }
}

/**
 * The envelope fields of an answer served stale (every channel failed; the last good copy was
 * served instead): `stale`, `as_of` = when that copy was fetched, and a `notice` naming the failure.
 */
export interface StaleFields {
  stale: true
  as_of: string
  notice: string
}

/** What a reference route got: the value and who served it when, or why nothing came. */
export type ReferenceResult<T> =
  | { ok: true; value: T; source: string; as_of: string; stale?: StaleFields }
  | { ok: false; source: string; code: UpstreamFailureCode; error: string }

/** An envelope body as a handler builds it, before `envelope` adds the standard fields. */
export type Body = { ok: boolean; source: string; data: unknown } & Record<string, unknown>

/**
 * Cached reference data (`services.reference`): answers the same for every caller, kept for hours
 * in this isolate and in KV, with stale-if-error (src/store/reference-cache.ts).
 */
export interface ReferenceData {
  /**
   * One answer through the service-wide cache, with failover over `chain`; with `stale`, the last
   * good answer when every channel fails (src/services/reference.ts `fetchReference`). `call` gets
   * the channel and the context its client needs.
   */
  fetch<T>(c: ReferenceRequest, key: string, chain: readonly ChannelName[], call: Ask<T>, stale?: StaleOptions): Promise<ReferenceResult<T>>
  /** Stale-if-error for a body computed on every call (src/services/reference.ts `withLastGood`). */
  withLastGood<B extends Body>(c: ReferenceRequest, stale: { cls: StaleClass; key: string }, body: B): Promise<B>
  /**
   * The cached value of `key` while younger than `ttlMs`, else `make()`'s, kept when `keep` says so:
   * for answers a route assembles itself (several upstream calls, its own failure).
   */
  cached<T>(c: ReferenceRequest, key: string, make: () => Promise<{ value: T; keep: boolean }>, ttlMs: number): Promise<T>
}

// ---- services.store ----

/** What a store read needs of the request: the R2 bucket (a hono `Context` is one). */
export interface StoreRequest {
  env: { STORE: R2Bucket }
}

/**
 * The R2 reads routes make (`services.store`), each named for what it reads; the layout of the
 * objects lives in src/store/.
 */
export interface StoreReads {
  /** The trading calendar in force (holidays table, refreshed by the calendar job). */
  calendar(c: StoreRequest): Promise<CalendarTable>
  /** Drops this isolate's copy of the calendar: the refresh job calls it after writing a new one. */
  forgetCalendar(): void
  /** The newest factor table of `market` (the screen's and the overview's valuation fallback). */
  factorTable(c: StoreRequest, market: ScreenMarket): Promise<LoadedFactorTable | undefined>
  /** One stock's daily history since HISTORY_START, or undefined when it is not built. */
  history(c: StoreRequest, code: string): Promise<History | undefined>
  /** The A-share list of the last build. */
  universe(c: StoreRequest): Promise<Universe | undefined>
  /** The playbooks' backtest evidence. */
  playbookEvidence(c: StoreRequest): Promise<StoredEvidence | undefined>
  /** The session of the newest technicals table, if any is built. */
  latestTechnicalsDate(c: StoreRequest): Promise<string | undefined>
  /** Drops this isolate's copy of the latest pointer: a job calls it after writing a day's table. */
  forgetLatestTechnicals(): void
  /** The technicals table of one session. */
  technicals(c: StoreRequest, date: string): Promise<TechnicalsDay | undefined>
  /** The indicator states of `codes` after session `date`. */
  states(c: StoreRequest, date: string, codes: readonly string[]): Promise<PickedStates | undefined>
  /** The industry-chain members document, parsed once per version; undefined before the job's first run. */
  chainMembers(c: StoreRequest): Promise<MembersDoc | undefined>
  /** The industry-chain themes, a static asset read once per `Services` (src/store/owned-tables.ts). */
  chainThemes(c: AssetsRequest): Promise<ChainThemes>
  /** A static asset of public/_data/ as text, read once per `Services` (the OpenAPI document). */
  ownedText(c: AssetsRequest, file: string): Promise<string>
  /** The whole market's day under `key` (src/store/keys.ts `marketKlineKey`), as its R2 object. */
  marketKline(c: StoreRequest, key: string): Promise<R2ObjectBody | null>
  /** The history build under way (the backfill), or undefined when none runs. */
  buildUnderWay(c: StoreRequest): Promise<Building | undefined>
  /**
   * The bucket itself, for the job code a route runs (a day's technicals computed on demand, the
   * admin job triggers): jobs write, and read more than these named reads.
   */
  bucket(c: StoreRequest): R2Bucket
}

/**
 * The shared cache of market-level answers (/v1/hot, /v1/changedist, /v1/market-overview, and the
 * market's money-flow ranking behind /v1/fund's rank): they are
 * the same for every caller, so one computation per freshness window serves them all, keyed or
 * anonymous, in this isolate's memory. Concurrent misses share one computation, so a burst of
 * callers costs one round of upstream requests. Only successful answers are kept: a failure is
 * retried by the next caller. Each kind of answer has its freshness class below.
 *
 * Stale while revalidating: a handler that passes `waitUntil` is answered from an expired answer
 * still inside its class's stale limit at once, while one refresh runs in the background. Without
 * it a refresh blocks every caller that arrives during it, for as long as the upstream round takes
 * (the whole-market list is 56 pages; in the emulator a refresh took 4–12 s of a loaded machine).
 * The answer's own `as_of` / `computed_at` still say when its data was true.
 */
import { Flight } from '../domain/shared-flight'
import { cacheKind } from '../runtime/isolate-caches'

/** How long a computed answer may be served, per kind of answer, in milliseconds. */
export const FRESHNESS_MS = {
  /** Intraday market data: the popularity rank joined with live quotes. */
  hot: 15_000,
  /** Intraday market data: counts over the whole-market list. */
  changedist: 10_000,
  /** Intraday overview types (summary, trade, rotation). */
  overviewIntraday: 20_000,
  /** Overview types from daily bars or fundamentals (interval, updown, valuation): they move with the live bar, so a little longer than intraday. */
  overviewDaily: 30_000,
  /**
   * The whole market ranked by main net inflow (/v1/fund): a walk of ~56 list pages, so one per
   * minute at most however many stocks are asked about; Eastmoney's own flow figures move by the minute.
   */
  flowRank: 60_000,
  /**
   * Per-stock live technical rows in /v1/technical-batch (src/features/technical/live-items.ts): one exchange
   * snapshot. The exchanges publish quotes as snapshots every 3 seconds (e.g.
   * https://dev.to/san_siwu_f08e7c406830469/practical-guide-to-a-share-level-2-market-data-api-1b32),
   * so a quote fetched again within 3 s is almost always the same one.
   */
  liveRow: 3_000,
} as const

/**
 * The oldest answer (from the start of its computation) served while a refresh runs: intraday
 * market data stays within about 30 s of the market (docs/api-guide.md, /v1/hot and /v1/changedist).
 */
export const STALE_LIMIT_MS: Record<Freshness, number> = {
  hot: 30_000,
  changedist: 30_000,
  overviewIntraday: 30_000,
  overviewDaily: 60_000,
  /** A rank (not a price): two minutes old at most. */
  flowRank: 120_000,
  /** Never served past its window: a live row is as fresh as a quote. */
  liveRow: 3_000,
}

export type Freshness = keyof typeof FRESHNESS_MS

interface Entry {
  /** Service clock (ms) when the computation started. */
  at: number
  /** The computation; joiners get promises of their own (src/domain/shared-flight.ts). */
  // One map holds the answers of every route; each caller reads its own type back.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  flight: Flight<any>
  /** Set once the computation resolved to an answer worth keeping. */
  ready: boolean
  /** A background refresh of this entry is running. */
  refreshing: boolean
}

/** Keys are a handful (endpoint × type × limit); this bounds a misuse, not normal traffic. */
const MAX_ENTRIES = 64
/**
 * Real time past which a computation still running is taken as abandoned (the request that ran it
 * ended first) and started again: longer than any request may last (the 15 s deadline).
 */
const ABANDONED_MS = 20_000

/** Options of {@link SharedAnswers.answer}. */
export interface SharedOptions {
  /** Keeps a background refresh alive past the response (the request's `executionCtx.waitUntil`); enables serving stale. */
  waitUntil?: (p: Promise<unknown>) => void
}

/** One isolate's shared answers: `Services` holds one (`services.market.shared`), and its reset forgets them. */
export class SharedAnswers {
  private readonly entries = new Map<string, Entry>()

  /**
   * The cached answer under `key` if it was computed within its freshness window on `now`'s clock,
   * else a fresh one from `compute`; with `waitUntil`, an expired answer inside the stale limit is
   * served at once and refreshed in the background. `keep` says whether an answer may be cached
   * (ok answers only). `hit` tells the caller the answer was shared. Answers must be plain data: they
   * are handed from the request that computed them to others.
   */
  async answer<T>(
    key: string,
    freshness: Freshness,
    now: number,
    compute: () => Promise<T>,
    keep: (value: T) => boolean,
    opts: SharedOptions = {}
  ): Promise<{ value: T; hit: boolean }> {
    const entries = this.entries
    const e = entries.get(key)
    // A clock that moved backwards (the emulator's) also misses.
    if (e && e.at <= now) {
      const age = now - e.at
      if (age < FRESHNESS_MS[freshness]) {
        const joined = await (e.flight as Flight<T>).joinWithin(ABANDONED_MS)
        if (joined) return { value: joined.value, hit: true }
      } else if (opts.waitUntil && e.ready && e.flight.settled && age < STALE_LIMIT_MS[freshness]) {
        if (!e.refreshing) opts.waitUntil(this.refresh(key, e, now, compute, keep))
        return { value: e.flight.value as T, hit: true }
      }
    }
    const value = compute()
    const entry: Entry = { at: now, flight: new Flight(value), ready: false, refreshing: false }
    // If this request ends before its computation does, the computation still ends for those who joined it.
    opts.waitUntil?.(value.catch(() => {}))
    if (entries.size >= MAX_ENTRIES) entries.clear()
    entries.set(key, entry)
    try {
      const v = await value
      if (!keep(v)) {
        if (entries.get(key) === entry) entries.delete(key)
      } else entry.ready = true
      return { value: v, hit: false }
    } catch (err) {
      if (entries.get(key) === entry) entries.delete(key)
      throw err
    }
  }

  /** One background refresh of `stale`: replaces it when the new answer is worth keeping, else leaves it to age out. */
  private async refresh<T>(key: string, stale: Entry, now: number, compute: () => Promise<T>, keep: (value: T) => boolean): Promise<void> {
    stale.refreshing = true
    try {
      const v = await compute()
      if (keep(v) && this.entries.get(key) === stale) this.entries.set(key, { at: now, flight: Flight.of(v), ready: true, refreshing: false })
    } catch {
      // The stale answer stays until its limit; the next caller after that computes in the open.
    } finally {
      stale.refreshing = false
    }
  }

  /** Forgets every cached answer (the emulator's reset, tests). */
  clear(): void {
    this.entries.clear()
  }
}

/** The shared market answers of this isolate (one copy per `Services`). */
export const SHARED_ANSWERS = cacheKind('shared market answers', () => new SharedAnswers(), (a) => a.clear())

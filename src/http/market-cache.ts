/**
 * The shared cache of market-level answers (/v1/hot, /v1/changedist, /v1/market-overview, and the
 * market's money-flow ranking behind /v1/fund's rank): they are
 * the same for every caller, so one computation per freshness window serves them all, keyed or
 * anonymous, in this isolate's memory. Concurrent misses share one computation, so a burst of
 * callers costs one round of upstream requests. Only successful answers are kept: a failure is
 * retried by the next caller. DESIGN §12, freshness classes.
 */

/** How long a computed answer may be served, per kind of answer, in milliseconds (DESIGN §12). */
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
} as const

export type Freshness = keyof typeof FRESHNESS_MS

interface Entry {
  /** Clock (ms) when the computation started. */
  at: number
  value: Promise<unknown>
}

const entries = new Map<string, Entry>()
/** Keys are a handful (endpoint × type × limit); this bounds a misuse, not normal traffic. */
const MAX_ENTRIES = 64

/**
 * The cached answer under `key` if it was computed within its freshness window on `now`'s clock,
 * else a fresh one from `compute`. `keep` says whether an answer may be cached (ok answers only).
 * `hit` tells the caller the answer was shared.
 */
export async function sharedAnswer<T>(
  key: string,
  freshness: Freshness,
  now: number,
  compute: () => Promise<T>,
  keep: (value: T) => boolean
): Promise<{ value: T; hit: boolean }> {
  const e = entries.get(key)
  // A clock that moved backwards (the emulator's) also misses.
  if (e && e.at <= now && now - e.at < FRESHNESS_MS[freshness]) return { value: (await e.value) as T, hit: true }
  const value = compute()
  const entry: Entry = { at: now, value }
  if (entries.size >= MAX_ENTRIES) entries.clear()
  entries.set(key, entry)
  try {
    const v = await value
    if (!keep(v) && entries.get(key) === entry) entries.delete(key)
    return { value: v, hit: false }
  } catch (err) {
    if (entries.get(key) === entry) entries.delete(key)
    throw err
  }
}

/** Forgets every cached answer (the emulator's reset, tests). */
export function clearMarketCache(): void {
  entries.clear()
}

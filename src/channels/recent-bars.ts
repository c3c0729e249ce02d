import type { Bar } from '../domain/bar'
import { beijingDay } from '../domain/beijing-day'
import { Flight } from '../domain/shared-flight'
import { during } from '../runtime/request-scope'
import { cacheKind } from '../runtime/isolate-caches'

/** How long the past daily bars of an instrument are reused before asking the upstream again. */
const RECENT_BARS_TTL_MS = 10 * 60_000
/** A little over the channels' 4 s timeout: no live load of bars takes longer. */
const RECENT_BARS_JOIN_MS = 5_000
/**
 * Bars kept at once, counted by the loads' sizes: some 24 MB of the isolate's 128 at about 100
 * bytes a bar. By bars, not entries: at 10,000 users the 31-bar tails of several thousand symbols
 * fit (docs/performance.md, "Many users"), and a few 1,212-bar loads cannot crowd the isolate.
 */
const MAX_BARS = 240_000

/**
 * How many past bars one load brings for a call asking `count`: calls of one symbol asking
 * different counts (a quote's 5, a chart's 30) share one request and one cache entry, a few more
 * bars a request rather than a request per count.
 */
export const barsWindowOf = (count: number): number => (count <= 30 ? 30 : count <= 120 ? 120 : count)

/**
 * The daily bars /v1/quote lays its real-time quote over, kept per isolate for ten minutes.
 *
 * Why this is safe: the quote replaces today's bar with the live one, so only past bars come from
 * here, and past bars change only when the upstream re-adjusts them on an ex-date, which happens
 * between sessions. The key carries the Beijing day, so a new day always asks again, and the
 * ten minutes bound how long an intraday correction could go unseen. With the live lines shared
 * for the source's cadence (src/channels/live-lines.ts), a busy symbol then costs one bars request
 * per ten minutes and one share of a batched quote request per 3 s, whatever its callers. Concurrent misses for one
 * key share a single request, each waiting for it at most {@link RECENT_BARS_JOIN_MS}; a failed
 * request is not remembered.
 */
export class RecentBarsCache {
  private readonly entries = new Map<string, Entry>()
  /** The sizes of the kept loads, summed (see {@link MAX_BARS}). */
  private bars = 0

  /**
   * @param ttlMs how long bars are reused (service clock)
   * @param joinMs how long a request waits for bars another request is still loading (real time):
   *   a little over the channel timeout, past which that load is treated as abandoned (see
   *   src/domain/shared-flight.ts) and this request loads them itself.
   */
  constructor(
    private readonly ttlMs = RECENT_BARS_TTL_MS,
    private readonly joinMs = RECENT_BARS_JOIN_MS
  ) {}

  /** The bars of `channel` for `code` (the last `count` days), from memory or from `load`. */
  get(channel: string, code: string, count: number, now: number, load: () => Promise<Bar[]>): Promise<Bar[]> {
    const key = `${channel}|${code}|${count}|${beijingDay(now)}`
    const hit = this.entries.get(key)
    if (hit && now - hit.at < this.ttlMs && now >= hit.at) return hit.bars.settled ? hit.bars.join() : this.join(channel, key, hit, now, load)
    return this.start(key, count, now, load)
  }

  /**
   * The bars last loaded for this day, whatever their age, without asking: what a call answered from
   * kept answers serves (src/services/live-answer.ts). Undefined when none were loaded today.
   */
  kept(channel: string, code: string, count: number, now: number): Bar[] | undefined {
    return this.entries.get(`${channel}|${code}|${count}|${beijingDay(now)}`)?.bars.value
  }

  clear(): void {
    this.entries.clear()
    this.bars = 0
  }

  private put(key: string, entry: Entry): void {
    this.drop(key)
    this.entries.set(key, entry)
    this.bars += entry.size
  }

  private drop(key: string): void {
    const old = this.entries.get(key)
    if (!old) return
    this.entries.delete(key)
    this.bars -= old.size
  }

  private start(key: string, size: number, now: number, load: () => Promise<Bar[]>): Promise<Bar[]> {
    const previous = this.entries.get(key)
    this.drop(key)
    while (this.entries.size && this.bars + size > MAX_BARS) this.drop(this.entries.keys().next().value!)
    const work = load()
    const entry: Entry = { at: now, bars: new Flight(work), size }
    this.put(key, entry)
    work.catch(() => {
      if (this.entries.get(key) !== entry) return
      // The bars loaded before stay, still expired (the next call asks again), for kept().
      if (previous?.bars.value) this.put(key, previous)
      else this.drop(key)
    })
    return work
  }

  /** Waits for another request's load, at most what is left of `joinMs`; then loads again. */
  private async join(channel: string, key: string, entry: Entry, now: number, load: () => Promise<Bar[]>): Promise<Bar[]> {
    // Waiting on the channel, through another request: the deadline's stage says so.
    const joined = await during(`upstream:${channel}`, entry.bars.joinWithin(this.joinMs))
    if (joined) return joined.value
    if (this.entries.get(key) === entry) this.drop(key)
    return this.start(key, entry.size, now, load)
  }
}

/** Recent daily bars of this isolate (one copy per `Services`). */
export const RECENT_BARS = cacheKind('recent daily bars', () => new RecentBarsCache(), (c) => c.clear())

interface Entry {
  /** Service clock when loaded (the TTL). */
  at: number
  /** The load, shared with later callers (its start is the join bound, in real time). */
  bars: Flight<Bar[]>
  /** The bars it was asked for (its weight against {@link MAX_BARS}). */
  size: number
}

import type { Bar } from '../domain/bar'
import { beijingDay } from '../domain/beijing-day'

/** How long the past daily bars of an instrument are reused before asking the upstream again. */
export const RECENT_BARS_TTL_MS = 60_000
const MAX_ENTRIES = 1_000

/**
 * The daily bars /v1/quote lays its real-time quote over, kept per isolate for a minute.
 *
 * Why this is safe: the quote replaces today's bar with the live one, so only past bars come from
 * here, and past bars change only when the upstream re-adjusts them on an ex-date, which happens
 * between sessions. The key carries the Beijing day, so a new day always asks again, and the
 * minute bounds how long an intraday correction could go unseen. It halves the upstream requests
 * of a busy symbol: the real-time half is still fetched on every call. Concurrent misses for one
 * key share a single request; a failed request is not remembered.
 */
export class RecentBarsCache {
  private readonly entries = new Map<string, { at: number; bars: Promise<Bar[]> }>()

  constructor(private readonly ttlMs = RECENT_BARS_TTL_MS) {}

  /** The bars of `channel` for `code` (the last `count` days), from memory or from `load`. */
  get(channel: string, code: string, count: number, now: number, load: () => Promise<Bar[]>): Promise<Bar[]> {
    const key = `${channel}|${code}|${count}|${beijingDay(now)}`
    const hit = this.entries.get(key)
    if (hit && now - hit.at < this.ttlMs && now >= hit.at) return hit.bars
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    const bars = load()
    this.entries.delete(key)
    this.entries.set(key, { at: now, bars })
    bars.catch(() => {
      if (this.entries.get(key)?.bars === bars) this.entries.delete(key)
    })
    return bars
  }

  clear(): void {
    this.entries.clear()
  }
}

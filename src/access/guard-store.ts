import { WriteBehindCounters } from './counters'
import type { RateWindow } from './rate-window'

const MINUTE_MS = 60_000

/**
 * Counter key of a minute window, optionally of one caller among several in the object (an
 * anonymous shard keeps one window per IP). The window has a fixed width and comes first, so keys
 * sort as the windows do and old windows of every caller are pruned by one range.
 */
const minuteKey = (win: number, who?: string) => `minute:${String(win).padStart(12, '0')}${who ? ':' + who : ''}`

/**
 * What both guard objects share: their counters (see {@link WriteBehindCounters}), a fixed
 * one-minute window and the latest service clock seen (so alarms agree with the emulator's clock
 * offline). Synchronous on purpose: a Durable Object method that never awaits cannot interleave
 * with another call, which is what makes admission exact.
 */
export class GuardStore {
  readonly counters: WriteBehindCounters

  constructor(readonly storage: DurableObjectStorage) {
    this.counters = new WriteBehindCounters(storage)
  }

  windowOf(now: number): number {
    return Math.floor(now / MINUTE_MS)
  }

  minuteCount(now: number, who?: string): number {
    return this.counters.get(minuteKey(this.windowOf(now), who))
  }

  bumpMinute(now: number, by: number, who?: string): void {
    this.bumpMinuteWindow(this.windowOf(now), by, who)
  }

  bumpMinuteWindow(win: number, by: number, who?: string): void {
    this.counters.add(minuteKey(win, who), by)
  }

  /** Takes back calls a lease left unused: only while their minute lasts, and never more than it counted. */
  giveBackCalls(now: number, win: number, calls: number, who?: string): void {
    const n = win === this.windowOf(now) ? Math.min(calls, this.minuteCount(now, who)) : 0
    if (n > 0) this.bumpMinuteWindow(win, -n, who)
  }

  /** The window as the headers show it, given `used` calls so far in it. */
  window(now: number, limit: number, used: number): RateWindow {
    const end = (this.windowOf(now) + 1) * MINUTE_MS
    return { limit, remaining: Math.max(0, limit - used), resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)) }
  }

  /** Drops windows older than the previous one (the previous one may still see a refund). */
  pruneMinutes(now: number): void {
    this.counters.deleteBefore('minute:', minuteKey(this.windowOf(now) - 1).slice('minute:'.length))
  }

  private observedWindow = -1

  /**
   * Records the service clock for alarms, and lets go of past windows held in memory. True when
   * `now` opened a new window (the caller may let go of more).
   */
  observe(now: number): boolean {
    const win = this.windowOf(now)
    if (win <= this.observedWindow) return false
    this.observedWindow = win
    this.counters.raise('clock', now)
    const keep = minuteKey(win - 1)
    this.counters.forget((k) => k.startsWith('minute:') && k < keep)
    return true
  }

  private alarmArmed = false

  /** Arms the daily reset once per object lifetime (an in-memory flag saves a storage read per call). */
  ensureAlarm(at: () => number): void {
    if (this.alarmArmed) return
    this.alarmArmed = true
    void this.storage.getAlarm().then((existing) => {
      if (existing === null) return this.storage.setAlarm(at())
    })
  }

  /** After the alarm ran: the next admitted call arms the next one. */
  alarmFired(): void {
    this.alarmArmed = false
  }

  latestNow(): number {
    return this.counters.get('clock') || Date.now()
  }
}

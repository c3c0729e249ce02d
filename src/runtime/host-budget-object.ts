import { DurableObject } from 'cloudflare:workers'

/**
 * One upstream family's request budget for the whole service (src/channels/budget/host-budget.ts):
 * grants slices of the current minute until its limit is counted out. The count lives in memory:
 * an object that restarts mid-minute forgets what it granted in that minute, at worst letting one
 * more minute's budget through once, which the hosts' own tolerance (a figure per minute, not per
 * second) absorbs.
 */
export class HostBudget extends DurableObject<Env> {
  private minute = -1
  private granted = 0

  /** Up to `want` requests of `minute` while fewer than `limit` have been granted in it; 0 when spent. */
  lease(minute: number, want: number, limit: number): number {
    if (minute > this.minute) {
      this.minute = minute
      this.granted = 0
    }
    // A slice of a minute gone by (an isolate whose clock lags) is counted in the current one.
    const grant = Math.max(0, Math.min(want, limit - this.granted))
    this.granted += grant
    return grant
  }

  /** What has been granted in the current minute. */
  used(): { minute: number; granted: number } {
    return { minute: this.minute, granted: this.granted }
  }
}

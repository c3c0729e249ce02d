import { DurableObject } from 'cloudflare:workers'

/**
 * One upstream family's request budget for the whole service (src/channels/budget/host-budget.ts):
 * grants slices of the current minute until its limit is counted out.
 *
 * The minute's count is kept in the object's storage, not only in memory: the platform evicts an
 * object that has been idle for some seconds, and a family asked in bursts (the hot lists, a
 * failover's second source) would otherwise start each burst from zero and get its budget again
 * within the same minute. A write per lease is cheap beside the lease's round trip; a lease that
 * grants nothing writes nothing.
 */
export class HostBudget extends DurableObject<Env> {
  private minute: number
  private granted: number

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS spent (id INTEGER PRIMARY KEY CHECK (id = 1), minute INTEGER NOT NULL, granted INTEGER NOT NULL)')
    const row = ctx.storage.sql.exec<{ minute: number; granted: number }>('SELECT minute, granted FROM spent').toArray()[0]
    this.minute = row?.minute ?? -1
    this.granted = row?.granted ?? 0
  }

  /** Up to `want` requests of `minute` while fewer than `limit` have been granted in it; 0 when spent. */
  lease(minute: number, want: number, limit: number): number {
    if (minute > this.minute) {
      this.minute = minute
      this.granted = 0
    }
    // A slice of a minute gone by (an isolate whose clock lags) is counted in the current one.
    const grant = Math.max(0, Math.min(want, limit - this.granted))
    if (grant > 0) {
      this.granted += grant
      this.ctx.storage.sql.exec('INSERT OR REPLACE INTO spent (id, minute, granted) VALUES (1, ?, ?)', this.minute, this.granted)
    }
    return grant
  }

  /** What has been granted in the current minute. */
  used(): { minute: number; granted: number } {
    return { minute: this.minute, granted: this.granted }
  }
}

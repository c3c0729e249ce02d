import type { RateWindow } from './key-guard'

const MINUTE_MS = 60_000

/**
 * The SQL both guard objects share: a fixed one-minute window counter and the latest service
 * clock seen (so alarms agree with the emulator's clock offline). Synchronous on purpose: a
 * Durable Object method that never awaits cannot interleave with another call.
 */
export class GuardStore {
  constructor(readonly sql: SqlStorage) {}

  migrate(extra: string[]): void {
    this.sql.exec('CREATE TABLE IF NOT EXISTS minute (win INTEGER PRIMARY KEY, n INTEGER NOT NULL)')
    this.sql.exec('CREATE TABLE IF NOT EXISTS clock (id INTEGER PRIMARY KEY CHECK (id = 1), now INTEGER NOT NULL)')
    for (const stmt of extra) this.sql.exec(stmt)
  }

  one<T>(query: string, ...bindings: unknown[]): T | undefined {
    const rows = this.sql.exec(query, ...bindings).toArray()
    return rows.length ? (Object.values(rows[0])[0] as T) : undefined
  }

  row<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T | undefined {
    return this.sql.exec<T>(query, ...bindings).toArray()[0]
  }

  windowOf(now: number): number {
    return Math.floor(now / MINUTE_MS)
  }

  minuteCount(now: number): number {
    return this.one<number>('SELECT n FROM minute WHERE win = ?', this.windowOf(now)) ?? 0
  }

  bumpMinute(now: number, by: number): void {
    this.bumpMinuteWindow(this.windowOf(now), by)
  }

  bumpMinuteWindow(win: number, by: number): void {
    this.sql.exec('INSERT INTO minute (win, n) VALUES (?, MAX(0, ?)) ON CONFLICT (win) DO UPDATE SET n = MAX(0, n + ?)', win, by, by)
  }

  /** The window as the headers show it, given `used` calls so far in it. */
  window(now: number, limit: number, used: number): RateWindow {
    const end = (this.windowOf(now) + 1) * MINUTE_MS
    return { limit, remaining: Math.max(0, limit - used), resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)) }
  }

  pruneMinutes(now: number): void {
    this.sql.exec('DELETE FROM minute WHERE win < ?', this.windowOf(now) - 1)
  }

  private observedWindow = -1

  /** Records the service clock for alarms; written once a minute at most (it only needs the day). */
  observe(now: number): void {
    const win = this.windowOf(now)
    if (win <= this.observedWindow) return
    this.observedWindow = win
    this.sql.exec('INSERT INTO clock (id, now) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET now = MAX(now, excluded.now)', now)
  }

  private alarmArmed = false

  /** Arms the daily reset once per object lifetime (an in-memory flag saves a storage read per call). */
  ensureAlarm(storage: DurableObjectStorage, at: () => number): void {
    if (this.alarmArmed) return
    this.alarmArmed = true
    void storage.getAlarm().then((existing) => {
      if (existing === null) return storage.setAlarm(at())
    })
  }

  /** After the alarm ran: the next admitted call arms the next one. */
  alarmFired(): void {
    this.alarmArmed = false
  }

  latestNow(): number {
    return Math.max(this.one<number>('SELECT now FROM clock WHERE id = 1') ?? 0, 0) || Date.now()
  }
}

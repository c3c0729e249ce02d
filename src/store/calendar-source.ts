/**
 * The calendar the service answers from: the bundled table (src/data/holidays.ts) overlaid with
 * the copy the refresh job keeps in R2 at {@link CALENDAR_KEY}, so a year published after the
 * code was deployed is served without a redeploy. The synchronous src/domain/trading-calendar.ts
 * stays on the bundled table for the rest of the code.
 *
 * Document format (written only by src/jobs/calendar-refresh.ts):
 *
 *   { "source": "szse", "refreshed": "2026-11-20T20:00:03.000Z",
 *     "years": { "2026": ["2026-01-01", …], "2027": ["2027-01-01", …] } }
 *
 * `years` maps a year to its closed weekdays, the same shape as the bundled table; a year is
 * present only when all twelve months were fetched and checked, so presence means "wholly known".
 */
import { SSE_HOLIDAYS } from '../data/holidays'
import { CalendarTable } from '../domain/calendar-table'
import { isValidDate, weekday } from '../domain/dates'
import { cacheKind } from '../runtime/isolate-caches'

/** R2 key of the refreshed calendar. */
export const CALENDAR_KEY = 'meta/calendar.json'

/** How long an isolate keeps the calendar before reading R2 again. */
export const CALENDAR_CACHE_MS = 10 * 60_000
/** After a failed read, try again sooner. */
const RETRY_MS = 60_000

/** The refreshed calendar as stored in R2. */
export interface CalendarDoc {
  source: 'szse'
  /** When the document was last changed (ISO instant). */
  refreshed: string
  /** Closed weekdays of each wholly known year. */
  years: Record<string, string[]>
}

/**
 * Checks a parsed document: a year key of four digits, each date a real weekday of that year,
 * ascending and unique. Anything else gives the reason, so a damaged file falls back to the
 * bundled table instead of serving a wrong calendar.
 */
export function parseCalendarDoc(json: unknown): { doc: CalendarDoc } | { error: string } {
  if (!json || typeof json !== 'object') return { error: 'not an object' }
  const o = json as Record<string, unknown>
  if (o.source !== 'szse') return { error: `unknown source ${JSON.stringify(o.source)}` }
  if (typeof o.refreshed !== 'string' || Number.isNaN(Date.parse(o.refreshed))) return { error: 'refreshed is not an ISO instant' }
  if (!o.years || typeof o.years !== 'object' || Array.isArray(o.years)) return { error: 'years is not an object' }
  const years: Record<string, string[]> = {}
  for (const [y, dates] of Object.entries(o.years as Record<string, unknown>)) {
    if (!/^\d{4}$/.test(y)) return { error: `year key ${y} is not four digits` }
    if (!Array.isArray(dates)) return { error: `${y}: not a list of dates` }
    let prev = ''
    for (const d of dates) {
      if (typeof d !== 'string' || !isValidDate(d) || d.slice(0, 4) !== y) return { error: `${y}: ${JSON.stringify(d)} is not a date of that year` }
      if (weekday(d) === 0 || weekday(d) === 6) return { error: `${y}: ${d} is a weekend day, not a closed weekday` }
      if (d <= prev) return { error: `${y}: dates not ascending and unique at ${d}` }
      prev = d
    }
    years[y] = dates as string[]
  }
  return { doc: { source: 'szse', refreshed: o.refreshed, years } }
}

/** Reads and checks the stored document; undefined when there is none. Throws on a damaged one. */
export async function readCalendarDoc(store: R2Bucket): Promise<CalendarDoc | undefined> {
  const obj = await store.get(CALENDAR_KEY)
  if (!obj) return undefined
  const parsed = parseCalendarDoc(await obj.json())
  if ('error' in parsed) throw new Error(`${CALENDAR_KEY}: ${parsed.error}`)
  return parsed.doc
}

/** The bundled table overlaid with `doc` (its years replace the bundled ones). */
export function tableOf(doc: CalendarDoc | undefined): CalendarTable {
  if (!doc) return CalendarTable.bundled()
  return new CalendarTable(
    [
      { origin: 'bundled', years: SSE_HOLIDAYS },
      { origin: 'szse', years: doc.years },
    ],
    doc.refreshed
  )
}

/**
 * The calendar for the service, one per `Services` (its store facade): the cached table while fresh,
 * else R2 read again (at most once per isolate per {@link CALENDAR_CACHE_MS}). A missing,
 * unreadable or damaged document serves the bundled table, loudly in the log. Only the finished
 * table is shared between requests, never a pending promise (workerd does not let one request wait
 * on another request's I/O).
 */
export class CalendarCache {
  private cached: { table: CalendarTable; until: number } | undefined

  async load(store: R2Bucket, now: number = Date.now()): Promise<CalendarTable> {
    if (this.cached && now < this.cached.until) return this.cached.table
    let table: CalendarTable
    let ttl = CALENDAR_CACHE_MS
    try {
      table = tableOf(await readCalendarDoc(store))
    } catch (e) {
      console.error(`calendar: serving the bundled table: ${e instanceof Error ? e.message : String(e)}`)
      table = CalendarTable.bundled()
      ttl = RETRY_MS
    }
    this.cached = { table, until: now + ttl }
    return table
  }

  /** Drops the cached table (the refresh job after writing; `Services.reset()`; tests). */
  forget(): void {
    this.cached = undefined
  }
}

/** The trading calendar of this isolate (one copy per `Services`, its store facade). */
export const CALENDAR = cacheKind('trading calendar table', () => new CalendarCache(), (c) => c.forget())

/**
 * Scheduled refresh of the trading calendar (cron `0 20 * * *`, 04:00 Beijing): asks SZSE for
 * every month of the current and the next year, one request at a time, keeps each year whose
 * twelve months all add up, and merges those years into R2 `meta/calendar.json`
 * (src/store/calendar-source.ts). So a new year's holiday notice reaches the service without a
 * redeploy, and the bundled table remains the fallback.
 *
 * Idempotent: the document is rewritten only when a year's closed days changed; every run leaves
 * its account in `meta/runs/calendar-<Beijing date>.json` (the day's last run wins).
 */
import { checkYear, fetchSzseMonth, type MonthOutcome } from '../channels/szse/month-calendar'
import { SSE_HOLIDAYS } from '../data/holidays'
import { beijing } from '../domain/dates'
import { CALENDAR_KEY, readCalendarDoc, type CalendarDoc } from '../store/calendar-source'

/** What the job needs from outside: the upstream fetch and the clock. */
export interface CalendarRefreshDeps {
  fetch: typeof fetch
  now: () => number
  /** Drops this isolate's copy of the calendar once a new one is written (`services.store.forgetCalendar`). */
  forgetCalendar: () => void
}

/** What happened to one year. */
type YearOutcome =
  | { status: 'ok'; closed: number; added: string[]; removed: string[] }
  | { status: 'unpublished'; month: number }
  | { status: 'invalid'; month?: number; reason: string }
  | { status: 'failed'; month: number; reason: string }

/** The run record written to `meta/runs/calendar-<date>.json`. */
export interface CalendarRunRecord {
  job: 'calendar-refresh'
  started: string
  finished: string
  requests: number
  years: Record<string, YearOutcome>
  /** True when `meta/calendar.json` was (re)written. */
  wrote: boolean
  /** Set when the stored document could not be read (it is then rebuilt from this run). */
  stored_error?: string
}

/** Per-request timeout for SZSE. */
const TIMEOUT_MS = 10_000

export const runRecordKey = (date: string) => `meta/runs/calendar-${date}.json`

/**
 * Fetches one year month by month and checks it. Stops at the first month that is unpublished,
 * invalid or unreachable: the year is then left as it was, and SZSE is spared the other requests.
 */
async function fetchYear(deps: CalendarRefreshDeps, year: number, count: () => void): Promise<{ outcome: YearOutcome; closed?: string[] }> {
  const closed: string[] = []
  for (let month = 1; month <= 12; month++) {
    let m: MonthOutcome
    try {
      count()
      m = await fetchSzseMonth({ fetch: deps.fetch, timeoutMs: TIMEOUT_MS }, year, month)
    } catch (e) {
      return { outcome: { status: 'failed', month, reason: e instanceof Error ? e.message : String(e) } }
    }
    if (m.status === 'unpublished') return { outcome: { status: 'unpublished', month } }
    if (m.status === 'invalid') return { outcome: { status: 'invalid', month, reason: m.reason } }
    closed.push(...m.closed)
  }
  const wrong = checkYear(year, closed)
  if (wrong) return { outcome: { status: 'invalid', reason: wrong } }
  return { outcome: { status: 'ok', closed: closed.length, added: [], removed: [] }, closed }
}

const sameDates = (a: readonly string[] | undefined, b: readonly string[]) => !!a && a.length === b.length && a.every((d, i) => d === b[i])

/** Refreshes `meta/calendar.json` from SZSE; see the module comment. */
export async function refreshCalendar(_event: ScheduledController, env: Env, _ctx: ExecutionContext, deps: CalendarRefreshDeps): Promise<void> {
  const started = new Date(deps.now()).toISOString()
  const today = beijing(deps.now()).date
  const thisYear = +today.slice(0, 4)

  let stored: CalendarDoc | undefined
  let storedError: string | undefined
  try {
    stored = await readCalendarDoc(env.STORE)
  } catch (e) {
    storedError = e instanceof Error ? e.message : String(e)
  }

  let requests = 0
  const years: Record<string, YearOutcome> = {}
  const merged: Record<string, string[]> = { ...stored?.years }
  let changed = storedError !== undefined
  for (const year of [thisYear, thisYear + 1]) {
    const { outcome, closed } = await fetchYear(deps, year, () => requests++)
    if (outcome.status === 'ok' && closed) {
      // Report the change against what the service answered before: the stored year, else the bundled one.
      const before = new Set(merged[year] ?? SSE_HOLIDAYS[year] ?? [])
      outcome.added = closed.filter((d) => !before.has(d))
      outcome.removed = [...before].filter((d) => !closed.includes(d))
      if (!sameDates(merged[year], closed)) changed = true
      merged[year] = closed
    }
    years[year] = outcome
  }

  if (changed) {
    const doc: CalendarDoc = { source: 'szse', refreshed: new Date(deps.now()).toISOString(), years: sortedYears(merged) }
    await env.STORE.put(CALENDAR_KEY, JSON.stringify(doc), { httpMetadata: { contentType: 'application/json' } })
    deps.forgetCalendar()
  }

  const record: CalendarRunRecord = {
    job: 'calendar-refresh',
    started,
    finished: new Date(deps.now()).toISOString(),
    requests,
    years,
    wrote: changed,
    ...(storedError ? { stored_error: storedError } : {}),
  }
  await env.STORE.put(runRecordKey(today), JSON.stringify(record), { httpMetadata: { contentType: 'application/json' } })

  const summary = Object.entries(years).map(([y, o]) => `${y} ${o.status}${'reason' in o ? ` (${o.reason})` : ''}`).join(', ')
  const log = years[thisYear].status === 'ok' ? console.log : console.error
  log(`calendar-refresh: ${summary}; ${changed ? 'wrote' : 'unchanged'} ${CALENDAR_KEY}`)
}

function sortedYears(years: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(years).sort(([a], [b]) => a.localeCompare(b)))
}

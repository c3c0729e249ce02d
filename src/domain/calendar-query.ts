/**
 * The rules of /v1/trade-calendar's parameters (docs/api-guide.md), applied to
 * an already type-checked query: which span of dates is asked for, and how it is paged. Every
 * conflict is a 422 naming the field.
 */
import { queryIssue, type Planned, type QueryIssue } from './query-issue'
import { addDays, dayNumber } from './dates'

export const CALENDAR_LIMITS = {
  /** The calendar starts here (the bundled table's first year). */
  firstDate: '2016-01-01',
  /** limit=0 (automatic) fills a page up to this many rows (up to 400). */
  autoLimit: 400,
  /** Longest range in days (about ten years), so a range is always one bounded computation. */
  maxSpanDays: 3700,
  /** Largest explicit limit: the longest range in one page. */
  maxLimit: 3700,
} as const

/** Which form the query used (a date, a range, a year); `month` is the no-parameter default. */
type CalendarMode = 'date' | 'range' | 'year' | 'month'

/** The query after zod: each field has its own type, none checked against the others yet. */
export interface CalendarQuery {
  date?: string
  start?: string
  end?: string
  year?: string
  trading_only?: string
  limit?: number
  offset?: number
}

export interface CalendarPlan {
  mode: CalendarMode
  /** Inclusive span of dates asked for. */
  start: string
  end: string
  tradingOnly: boolean
  /** Rows per page: the caller's positive limit, or {@link CALENDAR_LIMITS.autoLimit} for 0. */
  pageSize: number
  offset: number
}

/** Values `trading_only` accepts (Python's requests sends True/False). */
export const BOOLEAN_VALUES = ['true', 'false', '1', '0', 'True', 'False'] as const
const TRUE_VALUES = new Set(['true', '1', 'True'])

/** Last day of the month of `date`: the day before the first of the next month. */
export const lastDayOfMonth = (date: string): string => addDays(addDays(`${date.slice(0, 7)}-01`, 32).slice(0, 7) + '-01', -1)

/**
 * Turns the query into a span and a page, or every issue naming an offending field. `today` (Beijing) picks the month when no span is given.
 */
export function planCalendar(q: CalendarQuery, today: string): Planned<CalendarPlan> {
  const issues: QueryIssue[] = []
  const hasRange = q.start !== undefined || q.end !== undefined
  const first = CALENDAR_LIMITS.firstDate

  if (q.year !== undefined && q.date !== undefined) issues.push(queryIssue('year', 'year cannot be combined with date: use one of date, start+end or year', q.year))
  if (q.year !== undefined && hasRange) issues.push(queryIssue('year', 'year cannot be combined with start/end: use one of date, start+end or year', q.year))
  if (q.date !== undefined && hasRange) issues.push(queryIssue('date', 'date cannot be combined with start/end: use one of date, start+end or year', q.date))
  if (q.start !== undefined && q.end === undefined) issues.push(queryIssue('end', 'end is required when start is given (they go together)', null, 'missing'))
  if (q.end !== undefined && q.start === undefined) issues.push(queryIssue('start', 'start is required when end is given (they go together)', null, 'missing'))
  if (q.start && q.end && q.start > q.end) issues.push(queryIssue('start', `start ${q.start} is after end ${q.end}`, q.start))
  if (q.start && q.end && q.start <= q.end && dayNumber(q.end) - dayNumber(q.start) + 1 > CALENDAR_LIMITS.maxSpanDays) {
    const days = dayNumber(q.end) - dayNumber(q.start) + 1
    issues.push(queryIssue('end', `a range covers at most ${CALENDAR_LIMITS.maxSpanDays} days; ${q.start} to ${q.end} is ${days} days (page through years instead)`, q.end, 'less_than_equal'))
  }
  for (const field of ['date', 'start'] as const) {
    const v = q[field]
    if (v !== undefined && v < first) issues.push(queryIssue(field, `the calendar starts on ${first}; ${v} is before it`, v, 'greater_than_equal'))
  }
  if (q.year !== undefined && q.year < first.slice(0, 4)) issues.push(queryIssue('year', `the calendar starts in ${first.slice(0, 4)}; ${q.year} is before it`, q.year, 'greater_than_equal'))
  if (issues.length) return { ok: false, issues }

  const page = { tradingOnly: q.trading_only !== undefined && TRUE_VALUES.has(q.trading_only), pageSize: q.limit || CALENDAR_LIMITS.autoLimit, offset: q.offset ?? 0 }
  if (q.date !== undefined) return { ok: true, plan: { mode: 'date', start: q.date, end: q.date, ...page } }
  if (q.start !== undefined && q.end !== undefined) return { ok: true, plan: { mode: 'range', start: q.start, end: q.end, ...page } }
  if (q.year !== undefined) return { ok: true, plan: { mode: 'year', start: `${q.year}-01-01`, end: `${q.year}-12-31`, ...page } }
  return { ok: true, plan: { mode: 'month', start: `${today.slice(0, 7)}-01`, end: lastDayOfMonth(today), ...page } }
}

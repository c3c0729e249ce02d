/**
 * The pure part of the backfill: which range, how the universe is cut into chunks, which months
 * the staged rows are grouped by, and the staging line format.
 */
import { HISTORY_START } from '../data/holidays'
import { addDays, beijing, isValidDate } from '../domain/dates'
import { lastSettledDay } from '../domain/settled-day'
import { previousTradingDay, tradingDayOnOrAfter, tradingDaysBetween } from '../domain/trading-calendar'
import type { ValidationIssue } from '../http/validation'

/** Staged rows one chunk may hold (about 150 bytes each): keeps a chunk near 7 MB at most. */
const MAX_STAGED_ROWS = 50_000
const MAX_CHUNK = 100
const MIN_CHUNK = 20

/** Days back from `to` when no `from` is given: about a month. */
const DEFAULT_SPAN_DAYS = 30

export interface BackfillRange {
  from: string
  to: string
  /** Histories are built through this day: the last settled day at the start. */
  through: string
  /** Trading days in [from, to]. */
  days: number
  /** `YYYY-MM` of the months with trading days in [from, to], ascending. */
  months: string[]
}

const issue = (field: string, msg: string, input: unknown): ValidationIssue => ({ type: 'value_error', loc: ['body', field], msg, input })

/**
 * The range a backfill covers. Defaults: `to` = the latest trading day before today (Beijing),
 * `from` = about a month before `to`. Either an issue list (for a 422) or the range.
 */
export function planRange(req: { from?: string; to?: string }, now: number): { issues: ValidationIssue[] } | { range: BackfillRange } {
  const today = beijing(now).date
  const settled = lastSettledDay(now)
  const issues: ValidationIssue[] = []
  for (const f of ['from', 'to'] as const) {
    const v = req[f]
    if (v !== undefined && (typeof v !== 'string' || !isValidDate(v))) issues.push(issue(f, `${f} must be a real date in YYYY-MM-DD form`, v))
  }
  if (issues.length) return { issues }
  const to = req.to ?? previousTradingDay(today)
  const from = req.from ?? tradingDayOnOrAfter(addDays(to, -DEFAULT_SPAN_DAYS))
  if (from < HISTORY_START) issues.push(issue('from', `from must be on or after ${HISTORY_START} (the history starts there)`, from))
  if (from > to) issues.push(issue('from', `from ${from} is after to ${to}`, from))
  if (to > settled) issues.push(issue('to', `to must be a settled trading day, ${settled} or earlier (today's bars are final from 15:30 Beijing)`, to))
  if (issues.length) return { issues }
  const days = tradingDaysBetween(from, to)
  const months = [...new Set(days.map((d) => d.slice(0, 7)))]
  return { range: { from, to, through: settled, days: days.length, months } }
}

/** Stocks per chunk: fewer for long ranges, so a chunk's staged rows stay bounded. */
export function chunkSizeFor(tradingDays: number): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.floor(MAX_STAGED_ROWS / Math.max(1, tradingDays))))
}

/** The codes of chunk `index`. */
export const chunkCodes = (codes: readonly string[], size: number, index: number) => codes.slice(index * size, (index + 1) * size)

/** Trading days of `month` (`YYYY-MM`) inside [from, to]. */
export function daysOfMonth(month: string, from: string, to: string): string[] {
  const start = `${month}-01`
  const end = addDays(`${month}-01`, 31).slice(0, 7) + '-01'
  return tradingDaysBetween(start > from ? start : from, addDays(end, -1) < to ? addDays(end, -1) : to)
}

/** One staged row: `<date>\t<row JSON>`; a staged file is these lines, ascending by code within a date. */
export const stagedLine = (date: string, rowJson: string) => `${date}\t${rowJson}`

/** Splits staged text into row JSON texts per date, appending to `into` (keeps the order read). */
export function readStaged(text: string, into: Map<string, string[]>): void {
  let at = 0
  while (at < text.length) {
    let nl = text.indexOf('\n', at)
    if (nl < 0) nl = text.length
    if (nl > at) {
      const tab = text.indexOf('\t', at)
      const date = text.slice(at, tab)
      let list = into.get(date)
      if (!list) into.set(date, (list = []))
      list.push(text.slice(tab + 1, nl))
    }
    at = nl + 1
  }
}

/**
 * One page of /v1/trade-calendar: the rows of a planned span under a calendar table, filtered and
 * paged, with everything needed to say honestly what was left out — rows of years whose holiday
 * notice is not published yet, and rows past the page.
 */
import { calendarRow, type CalendarRow } from './calendar-flags'
import type { CalendarPlan } from './calendar-query'
import type { CalendarOrigin, CalendarTable } from './calendar-table'
import { dayNumber, fromDayNumber } from './dates'

export interface CalendarPage {
  rows: CalendarRow[]
  /** Rows matching the query before paging (known years only). */
  total: number
  /** Years of the span the table does not know, ascending. */
  unpublishedYears: number[]
  /** Where the known years of the span came from. */
  origins: Set<CalendarOrigin>
}

/** The dates of the span in known years (trading days only when asked), and the flagged rows of the requested page. */
export function calendarPage(plan: CalendarPlan, table: CalendarTable): CalendarPage {
  const matching: string[] = []
  const unpublished = new Set<number>()
  const origins = new Set<CalendarOrigin>()
  for (let n = dayNumber(plan.start), end = dayNumber(plan.end); n <= end; n++) {
    const d = fromDayNumber(n)
    const year = +d.slice(0, 4)
    const origin = table.origin(year)
    if (!origin) {
      unpublished.add(year)
      continue
    }
    origins.add(origin)
    if (!plan.tradingOnly || table.isTradingDay(d)) matching.push(d)
  }
  const rows = matching.slice(plan.offset, plan.offset + plan.pageSize).map((d) => calendarRow(d, table.isTradingDay))
  return { rows, total: matching.length, unpublishedYears: [...unpublished].sort((a, b) => a - b), origins }
}

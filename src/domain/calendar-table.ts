/**
 * A trading calendar as data: for each known year, the weekdays on which the exchanges are closed
 * (weekends are always closed) and where that year came from — the bundled table
 * (src/data/holidays.ts) or the copy the refresh job fetched from SZSE. A year is either wholly
 * known or unknown; the endpoint never serves rows of an unknown year.
 */
import { SSE_HOLIDAYS } from '../data/holidays'
import type { TradingDayTest } from './calendar-flags'
import { weekday } from './dates'

/** Where a year of the calendar came from. */
export type CalendarOrigin = 'bundled' | 'szse'

/** Closed weekdays per year (`YYYY-MM-DD`), the shape of {@link SSE_HOLIDAYS}. */
export type ClosedWeekdays = Record<number | string, readonly string[]>

export class CalendarTable {
  private readonly closed = new Set<string>()
  private readonly origins = new Map<number, CalendarOrigin>()

  /**
   * @param layers applied in order, a later layer replacing whole years of an earlier one (the
   * exchange's newer word wins, e.g. an amended closure).
   * @param refreshed when the refreshed layer was written (ISO), if one was applied.
   */
  constructor(layers: Array<{ origin: CalendarOrigin; years: ClosedWeekdays }>, readonly refreshed?: string) {
    const byYear = new Map<number, { origin: CalendarOrigin; dates: readonly string[] }>()
    for (const { origin, years } of layers) for (const [y, dates] of Object.entries(years)) byYear.set(Number(y), { origin, dates })
    for (const [y, { origin, dates }] of byYear) {
      this.origins.set(y, origin)
      for (const d of dates) this.closed.add(d)
    }
  }

  /** The calendar from the bundled table only. */
  static bundled(): CalendarTable {
    return new CalendarTable([{ origin: 'bundled', years: SSE_HOLIDAYS }])
  }

  /** True when the whole of `year` is known (its holiday notice is in the table). */
  knows(year: number): boolean {
    return this.origins.has(year)
  }

  /** Where `year` came from, or undefined for an unknown year. */
  origin(year: number): CalendarOrigin | undefined {
    return this.origins.get(year)
  }

  /** Known years, ascending. */
  years(): number[] {
    return [...this.origins.keys()].sort((a, b) => a - b)
  }

  /** The last known year, counting on from the first without a gap. */
  lastContiguousYear(): number {
    const ys = this.years()
    let y = ys[0]
    while (this.knows(y + 1)) y++
    return y
  }

  /**
   * Whether the exchanges trade on `date`. For an unknown year this is only a guess used to look
   * ahead across the end of the last known year (for the flags of late December): weekdays except
   * 1 January, a statutory holiday every year.
   */
  readonly isTradingDay: TradingDayTest = (date) => {
    const w = weekday(date)
    if (w === 0 || w === 6) return false
    if (!this.knows(+date.slice(0, 4))) return date.slice(5) !== '01-01'
    return !this.closed.has(date)
  }
}

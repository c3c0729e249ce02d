/**
 * The trading-calendar row of /v1/trade-calendar: whether a date is
 * a trading day, and whether it is the last trading day of its week, month, quarter and year.
 *
 * A "last" flag is true only on a trading day: it answers "is this the last session of the
 * period?", so a closed day (weekend, holiday) has every flag false, even 31 December on a
 * Saturday. Weeks run Monday to Sunday.
 */
import { dayNumber, fromDayNumber, weekday } from './dates'

/** Answers whether the exchanges trade on a `YYYY-MM-DD` date. */
export type TradingDayTest = (date: string) => boolean

/** One calendar row, in the column order /v1/trade-calendar answers. */
export interface CalendarRow {
  date: string
  is_trading_day: boolean
  is_week_last: boolean
  is_quarter_last: boolean
  is_year_last: boolean
  is_month_last: boolean
}

/** The columns, in order. */
export const CALENDAR_COLUMNS = ['date', 'is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last'] as const

/**
 * The longest run of closed days we look across for the next session. The longest closures are
 * about ten days (Spring Festival, National Day plus weekends); past this bound the next session
 * is taken to be in another period, which is then true of every period up to a month.
 */
const MAX_GAP_DAYS = 40

/** The first trading day after `date`, or undefined when none lies within {@link MAX_GAP_DAYS}. */
export function nextTradingDay(date: string, isTradingDay: TradingDayTest): string | undefined {
  const from = dayNumber(date)
  for (let n = from + 1; n <= from + MAX_GAP_DAYS; n++) {
    const d = fromDayNumber(n)
    if (isTradingDay(d)) return d
  }
  return undefined
}

/** Day number of the Monday of `date`'s week (weeks run Monday to Sunday). */
export const weekOf = (date: string): number => dayNumber(date) - ((weekday(date) + 6) % 7)
const monthOf = (date: string) => date.slice(0, 7)
const quarterOf = (date: string) => `${date.slice(0, 4)}Q${Math.floor((+date.slice(5, 7) - 1) / 3)}`
const yearOf = (date: string) => date.slice(0, 4)

/** The row for `date` under the calendar `isTradingDay`. */
export function calendarRow(date: string, isTradingDay: TradingDayTest): CalendarRow {
  if (!isTradingDay(date)) {
    return { date, is_trading_day: false, is_week_last: false, is_quarter_last: false, is_year_last: false, is_month_last: false }
  }
  // The date is the last session of a period exactly when the next session falls outside it.
  const next = nextTradingDay(date, isTradingDay)
  const differs = (key: (d: string) => string | number) => next === undefined || key(next) !== key(date)
  return {
    date,
    is_trading_day: true,
    is_week_last: differs(weekOf),
    is_quarter_last: differs(quarterOf),
    is_year_last: differs(yearOf),
    is_month_last: differs(monthOf),
  }
}

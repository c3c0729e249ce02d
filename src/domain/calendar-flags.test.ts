import { describe, expect, it } from 'vitest'
import { SSE_HOLIDAYS } from '../data/holidays'
import { calendarRow, nextTradingDay, weekOf, type CalendarRow } from './calendar-flags'
import { addDays, dayNumber, fromDayNumber } from './dates'
import { isTradingDay } from './trading-calendar'

const row = (date: string) => calendarRow(date, isTradingDay)
/** The flags that are true, for compact expectations. */
const flags = (date: string) =>
  Object.entries(row(date))
    .filter(([k, v]) => k !== 'date' && v === true)
    .map(([k]) => k.replace(/^is_/, ''))
    .sort()

describe('calendarRow on known dates', () => {
  it.each([
    // Tuesday before National Day 2025 (closed 1–8 Oct): last session of the week, month and quarter.
    ['2025-09-30', ['month_last', 'quarter_last', 'trading_day', 'week_last']],
    // Tuesday: last session of 2024, but not of its week (2 and 3 January 2025 trade in the same Mon–Sun week).
    ['2024-12-31', ['month_last', 'quarter_last', 'trading_day', 'year_last']],
    // Monday before the 2025 Spring Festival closure (28 Jan – 4 Feb): last of the week and of January.
    ['2025-01-27', ['month_last', 'trading_day', 'week_last']],
    // Wednesday before National Day 2026 (closed 1–7 Oct).
    ['2026-09-30', ['month_last', 'quarter_last', 'trading_day', 'week_last']],
    // Thursday before the 2020 Spring Festival closure (24–31 Jan).
    ['2020-01-23', ['month_last', 'trading_day', 'week_last']],
    // An ordinary Friday and an ordinary Thursday.
    ['2025-09-26', ['trading_day', 'week_last']],
    ['2025-09-25', ['trading_day']],
    // Friday 29 December 2023: 30 and 31 December were a weekend.
    ['2023-12-29', ['month_last', 'quarter_last', 'trading_day', 'week_last', 'year_last']],
  ])('%s', (date, expected) => {
    expect(flags(date)).toEqual(expected)
  })

  it('gives every flag false on a closed day, even the last calendar day of a year', () => {
    for (const date of ['2025-10-01', '2023-12-31', '2025-01-28', '2026-01-01', '2025-09-27']) {
      expect(row(date)).toEqual({ date, is_trading_day: false, is_week_last: false, is_quarter_last: false, is_year_last: false, is_month_last: false })
    }
  })

  it('keeps the documented column order', () => {
    expect(Object.keys(row('2025-09-30'))).toEqual(['date', 'is_trading_day', 'is_week_last', 'is_quarter_last', 'is_year_last', 'is_month_last'])
  })
})

describe('calendarRow over whole years', () => {
  const yearRows = (year: number): CalendarRow[] => {
    const out: CalendarRow[] = []
    for (let n = dayNumber(`${year}-01-01`); n <= dayNumber(`${year}-12-31`); n++) out.push(row(fromDayNumber(n)))
    return out
  }
  const count = (rows: CalendarRow[], k: keyof CalendarRow) => rows.filter((r) => r[k] === true).length

  it.each(Object.keys(SSE_HOLIDAYS).map(Number).filter((y) => y < 2026))('%i: one year-last, four quarter-lasts, twelve month-lasts, one week-last per trading week', (year) => {
    const rows = yearRows(year)
    expect(count(rows, 'is_year_last')).toBe(1)
    expect(count(rows, 'is_quarter_last')).toBe(4)
    expect(count(rows, 'is_month_last')).toBe(12)
    // The week of 31 December may end in January; the next year's first session decides it.
    const weeks = new Set(rows.filter((r) => r.is_trading_day).map((r) => weekOf(r.date)))
    const spill = rows.filter((r) => r.is_trading_day).at(-1)!
    const lastWeekOpen = nextTradingDay(spill.date, isTradingDay)! <= addDays(fromDayNumber(weekOf(spill.date)), 6)
    expect(count(rows, 'is_week_last')).toBe(weeks.size - (lastWeekOpen ? 1 : 0))
    // Between 242 and 245 sessions a year (about 242), 2016–2025.
    expect(count(rows, 'is_trading_day')).toBeGreaterThanOrEqual(240)
    expect(count(rows, 'is_trading_day')).toBeLessThanOrEqual(246)
  })
})

describe('nextTradingDay', () => {
  it('skips weekends and holidays', () => {
    expect(nextTradingDay('2025-01-27', isTradingDay)).toBe('2025-02-05')
    expect(nextTradingDay('2025-09-26', isTradingDay)).toBe('2025-09-29')
  })

  it('gives up after a long closure rather than looping forever', () => {
    expect(nextTradingDay('2025-01-01', () => false)).toBeUndefined()
    expect(calendarRow('2025-01-02', (d) => d === '2025-01-02')).toMatchObject({ is_week_last: true, is_month_last: true, is_year_last: true })
  })
})

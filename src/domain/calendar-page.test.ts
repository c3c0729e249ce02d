import { describe, expect, it } from 'vitest'
import { calendarPage } from './calendar-page'
import type { CalendarPlan } from './calendar-query'
import { CalendarTable } from './calendar-table'

const table = new CalendarTable([
  { origin: 'bundled', years: { 2025: ['2025-01-01', '2025-10-01'] } },
  { origin: 'szse', years: { 2026: ['2026-01-01'] } },
])
const plan = (p: Partial<CalendarPlan>): CalendarPlan => ({ mode: 'range', start: '2025-12-29', end: '2026-01-09', tradingOnly: false, pageSize: 400, offset: 0, ...p })

describe('calendarPage', () => {
  it('counts every matching row and flags only the page', () => {
    const page = calendarPage(plan({ pageSize: 3, offset: 2 }), table)
    expect(page.total).toBe(12)
    expect(page.rows.map((r) => r.date)).toEqual(['2025-12-31', '2026-01-01', '2026-01-02'])
    expect(page.rows[0]).toMatchObject({ is_trading_day: true, is_year_last: true, is_week_last: false })
    expect(page.origins).toEqual(new Set(['bundled', 'szse']))
  })

  it('keeps trading days only when asked', () => {
    const page = calendarPage(plan({ tradingOnly: true }), table)
    expect(page.rows.map((r) => r.date)).toEqual(['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09'])
  })

  it('leaves out and names years the table does not know', () => {
    const page = calendarPage(plan({ start: '2026-12-30', end: '2028-01-02' }), table)
    expect(page.rows.map((r) => r.date)).toEqual(['2026-12-30', '2026-12-31'])
    expect(page.unpublishedYears).toEqual([2027, 2028])
    expect(page.origins).toEqual(new Set(['szse']))
    expect(calendarPage(plan({ start: '2024-01-01', end: '2024-01-31' }), table)).toMatchObject({ total: 0, unpublishedYears: [2024] })
  })
})

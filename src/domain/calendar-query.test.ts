import { describe, expect, it } from 'vitest'
import { lastDayOfMonth, planCalendar as planOrIssues, type CalendarQuery } from './calendar-query'

const TODAY = '2026-11-20'

function issuesOf(q: CalendarQuery) {
  const r = planOrIssues(q, TODAY)
  return r.ok ? [] : r.issues.map((i) => ({ field: i.loc[1], type: i.type, msg: i.msg }))
}

/** The plan of a query the test knows is valid. */
function planCalendar(q: CalendarQuery, today: string) {
  const r = planOrIssues(q, today)
  if (!r.ok) throw new Error(`unexpected issues: ${JSON.stringify(r.issues)}`)
  return r.plan
}

describe('planCalendar', () => {
  it('defaults to the current month with automatic paging', () => {
    expect(planCalendar({}, TODAY)).toEqual({ mode: 'month', start: '2026-11-01', end: '2026-11-30', tradingOnly: false, pageSize: 400, offset: 0 })
    expect(planCalendar({}, '2024-02-10')).toMatchObject({ start: '2024-02-01', end: '2024-02-29' })
  })

  it('reads each form', () => {
    expect(planCalendar({ date: '2025-09-30' }, TODAY)).toMatchObject({ mode: 'date', start: '2025-09-30', end: '2025-09-30' })
    expect(planCalendar({ start: '2025-01-01', end: '2025-03-31' }, TODAY)).toMatchObject({ mode: 'range', start: '2025-01-01', end: '2025-03-31' })
    expect(planCalendar({ year: '2025' }, TODAY)).toMatchObject({ mode: 'year', start: '2025-01-01', end: '2025-12-31' })
  })

  it('reads trading_only, limit and offset', () => {
    for (const t of ['true', '1', 'True']) expect(planCalendar({ trading_only: t }, TODAY).tradingOnly).toBe(true)
    for (const t of ['false', '0', 'False']) expect(planCalendar({ trading_only: t }, TODAY).tradingOnly).toBe(false)
    expect(planCalendar({ limit: 0 }, TODAY).pageSize).toBe(400)
    expect(planCalendar({ limit: 7, offset: 3 }, TODAY)).toMatchObject({ pageSize: 7, offset: 3 })
  })

  it.each<[string, CalendarQuery, string]>([
    ['year with date', { year: '2025', date: '2025-01-02' }, 'year'],
    ['year with start/end', { year: '2025', start: '2025-01-01', end: '2025-02-01' }, 'year'],
    ['year with start alone', { year: '2025', start: '2025-01-01' }, 'year'],
    ['date with start/end', { date: '2025-01-02', start: '2025-01-01', end: '2025-02-01' }, 'date'],
    ['start without end', { start: '2025-01-01' }, 'end'],
    ['end without start', { end: '2025-01-01' }, 'start'],
    ['start after end', { start: '2025-02-01', end: '2025-01-01' }, 'start'],
    ['a range over 3700 days', { start: '2016-01-01', end: '2026-12-31' }, 'end'],
    ['a date before 2016', { date: '2015-12-31' }, 'date'],
    ['a range starting before 2016', { start: '2015-12-01', end: '2016-01-31' }, 'start'],
    ['a year before 2016', { year: '2015' }, 'year'],
  ])('refuses %s, naming the field', (_why, q, field) => {
    const issues = issuesOf(q)
    expect(issues.map((i) => i.field)).toContain(field)
    expect(issues.every((i) => i.msg.length > 10)).toBe(true)
  })

  it('accepts the longest range', () => {
    expect(issuesOf({ start: '2016-01-01', end: '2026-02-16' })).toEqual([])
    expect(issuesOf({ start: '2016-01-01', end: '2026-02-17' })[0]).toMatchObject({ field: 'end', type: 'less_than_equal' })
  })
})

describe('lastDayOfMonth', () => {
  it.each([
    ['2026-11-20', '2026-11-30'],
    ['2024-02-01', '2024-02-29'],
    ['2025-02-28', '2025-02-28'],
    ['2025-12-31', '2025-12-31'],
    ['2025-01-31', '2025-01-31'],
  ])('%s → %s', (d, last) => expect(lastDayOfMonth(d)).toBe(last))
})

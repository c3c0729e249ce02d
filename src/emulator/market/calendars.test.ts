import { describe, expect, it } from 'vitest'
import { dayNumber, fromDayNumber } from '../../domain/dates'
import { isSessionDay, monthDays, monthIndex, monthStart, sessionDayOnOrAfter, sessionDayOnOrBefore } from './calendars'

describe('calendars', () => {
  it('A-shares follow the exchange calendar', () => {
    expect(isSessionDay('cn', '2025-01-02')).toBe(true)
    expect(isSessionDay('cn', '2025-10-01')).toBe(false)
    expect(isSessionDay('cn', '2025-01-04')).toBe(false)
  })

  it('HK closes for New Year, Christmas, Boxing Day and the Spring Festival, not for Golden Week', () => {
    expect(isSessionDay('hk', '2025-01-01')).toBe(false)
    expect(isSessionDay('hk', '2025-12-25')).toBe(false)
    expect(isSessionDay('hk', '2025-12-26')).toBe(false)
    expect(isSessionDay('hk', '2025-01-29')).toBe(false)
    expect(isSessionDay('hk', '2025-02-04')).toBe(false)
    expect(isSessionDay('hk', '2026-01-02')).toBe(true)
    expect(isSessionDay('hk', '2025-10-02')).toBe(true)
  })

  it('US closes for New Year, Independence Day, Thanksgiving and Christmas', () => {
    expect(isSessionDay('us', '2025-07-04')).toBe(false)
    expect(isSessionDay('us', '2025-11-27')).toBe(false)
    expect(isSessionDay('us', '2024-11-28')).toBe(false)
    expect(isSessionDay('us', '2025-11-20')).toBe(true)
    expect(isSessionDay('us', '2025-10-01')).toBe(true)
  })

  it('forex trades every weekday', () => {
    expect(isSessionDay('fx', '2025-01-01')).toBe(true)
    expect(isSessionDay('fx', '2025-01-04')).toBe(false)
  })

  it('indexes months from 2016-08', () => {
    expect(monthIndex('2016-08-08')).toBe(0)
    expect(monthIndex('2017-01-31')).toBe(5)
    expect(monthStart(0)).toBe('2016-08-01')
    expect(monthStart(5)).toBe('2017-01-01')
    expect(monthStart(-1)).toBe('2016-07-01')
    for (let m = -20; m < 200; m++) expect(monthIndex(monthStart(m))).toBe(m)
  })

  it('lists the session days of a month', () => {
    const days = Array.from(monthDays('cn', monthIndex('2025-10-01')), fromDayNumber)
    expect(days[0]).toBe('2025-10-09')
    expect(days).toHaveLength(17)
    expect(sessionDayOnOrBefore('cn', dayNumber('2025-10-05'))).toBe(dayNumber('2025-09-30'))
    expect(sessionDayOnOrAfter('us', dayNumber('2025-07-04'))).toBe(dayNumber('2025-07-07'))
  })
})

describe('day-number helpers', () => {
  it('maps days to months and back without strings', async () => {
    const { monthOfDay, monthStartDay, dateOf, isSession } = await import('./calendars')
    for (let d = dayNumber('2015-01-01'); d < dayNumber('2031-01-01'); d += 3) {
      expect(monthOfDay(d)).toBe(monthIndex(fromDayNumber(d)))
      expect(dateOf(d)).toBe(fromDayNumber(d))
    }
    for (let m = -10; m < 180; m++) expect(fromDayNumber(monthStartDay(m))).toBe(monthStart(m))
    expect(isSession('cn', dayNumber('2025-10-09'))).toBe(true)
    expect(isSession('cn', dayNumber('2025-10-08'))).toBe(false)
  })
})

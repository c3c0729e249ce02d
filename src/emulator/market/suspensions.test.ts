import { describe, expect, it } from 'vitest'
import { monthDays, monthIndex } from './calendars'
import { isBarDay, isSuspended } from './suspensions'
import { profileOf, universe } from './universe'

describe('suspensions', () => {
  const stocks = universe().list.filter((i) => i.kind === 'stock').slice(0, 500)

  it('hits about 1% of days, Tuesday to Thursday, never at a month edge', () => {
    let sessions = 0
    let suspended = 0
    for (const s of stocks) {
      const p = profileOf(s)
      for (let m = monthIndex('2023-01-01'); m < monthIndex('2024-01-01'); m++) {
        const days = monthDays('cn', m)
        for (const d of days) {
          sessions++
          if (!isSuspended(p, d, days)) continue
          suspended++
          expect([2, 3, 4]).toContain((d + 4) % 7)
          expect(d).not.toBe(days[0])
          expect(d).not.toBe(days[days.length - 1])
          expect(isBarDay(p, d, days)).toBe(false)
        }
      }
    }
    expect(suspended / sessions).toBeGreaterThan(0.005)
    expect(suspended / sessions).toBeLessThan(0.015)
  })

  it('never suspends other kinds', () => {
    const etf = universe().byCode.get('sh510300')!
    const days = monthDays('cn', monthIndex('2023-03-01'))
    for (const d of days) expect(isSuspended(profileOf(etf), d, days)).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { LAST_MONTH, monthDays } from './calendars'
import { anchors, LIMIT_SHARE, monthBound, TREND_MONTHS } from './walk'
import { profileOf, universe } from './universe'

describe('monthly anchors', () => {
  const { list, byCode } = universe()

  it('are deterministic and cover every modelled month', () => {
    const inst = byCode.get('sh600519')!
    const a = anchors(inst, profileOf(inst))
    expect(a).toHaveLength(LAST_MONTH + 2)
    expect(Array.from(anchors(inst, profileOf(inst)))).toEqual(Array.from(a))
  })

  it('cap each month step so a month can always be bridged inside the limits', () => {
    for (let k = 0; k < list.length; k += 37) {
      const inst = list[k]
      const p = profileOf(inst)
      const a = anchors(inst, p)
      for (let m = 0; m <= LAST_MONTH; m++) {
        const days = monthDays(p.calendar, m)
        expect(Math.abs(a[m + 1] - a[m])).toBeLessThanOrEqual(0.3 * monthBound(inst, days) * days.length + 1e-6)
      }
    }
  })

  it('follow the trend line towards today’s level', () => {
    const inst = byCode.get('sh000001')!
    const p = profileOf(inst)
    const a = anchors(inst, p)
    expect(Math.abs(a[TREND_MONTHS] - p.logEnd)).toBeLessThan(0.35)
    expect(LIMIT_SHARE).toBeLessThan(1)
  })
})

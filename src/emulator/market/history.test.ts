import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { monthIndex } from './calendars'
import { barBefore, clearHistoryCaches, computedActions, findBar, monthBars, rawBar } from './history'
import { universe } from './universe'

describe('history access', () => {
  const { byCode } = universe()
  const inst = byCode.get('sh600036')!

  it('finds bars by day and the bar before a day', () => {
    const f = findBar(inst, dayNumber('2025-03-12'))!
    expect(rawBar(f.block, f.i).date).toBe('2025-03-12')
    expect(findBar(inst, dayNumber('2025-03-15'))).toBeNull()
    const b = barBefore(inst, dayNumber('2025-03-17'))!
    expect(rawBar(b.block, b.i).date).toBe('2025-03-14')
    const first = barBefore(inst, dayNumber('2016-08-09'))!
    expect(rawBar(first.block, first.i).date).toBe('2016-08-08')
    expect(barBefore(inst, dayNumber('2016-08-08'))).toBeNull()
  })

  it('gives the same bars and actions from a cold cache', () => {
    const m = monthIndex('2021-07-01')
    const warm = monthBars(inst, m)!
    const acts = computedActions(inst)
    clearHistoryCaches()
    const cold = monthBars(inst, m)!
    expect(Array.from(cold.close)).toEqual(Array.from(warm.close))
    expect(Array.from(cold.volume)).toEqual(Array.from(warm.volume))
    expect(computedActions(inst)).toEqual(acts)
  })

  it('models nothing outside the modelled months', () => {
    expect(monthBars(inst, -1)).toBeNull()
    expect(rawBar(monthBars(inst, 0)!, 0).turnover).not.toBeNull()
  })
})

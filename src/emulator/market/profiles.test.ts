import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { baseProfile } from './profiles'

describe('profiles', () => {
  it('fills defaults, starts history no earlier than 2016-08-08, derives daily volatility', () => {
    const old = baseProfile('sh600000', 'cn', '1999-11-10', { sigma: 0.21 })
    expect(old.firstDay).toBe(dayNumber('2016-08-08'))
    expect(old.lastDay).toBe(Infinity)
    expect(old.daily).toBeCloseTo((0.21 / Math.sqrt(21)) * 1.1, 12)
    const young = baseProfile('sh688001', 'cn', '2019-07-22', { daily: 0.05 })
    expect(young.firstDay).toBe(dayNumber('2019-07-22'))
    expect(young.daily).toBe(0.05)
    expect(young.seed).not.toBe(old.seed)
  })
})

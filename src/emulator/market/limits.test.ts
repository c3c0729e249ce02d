import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices, roundTo, walkLimit } from './limits'
import type { EmuInstrument } from './types'

const inst = (over: Partial<EmuInstrument>): EmuInstrument => ({
  code: 'sz300001', prefix: 'sz', symbol: '300001', kind: 'stock', board: 'chinext', name: 'x', listDate: '2009-10-30',
  decimals: 2, limit: 0.2, floatShares: 1, totalShares: 1, currency: 'CNY', secid: '0.300001', ...over,
})

describe('limits', () => {
  it('rounds half up to the tick', () => {
    expect(roundTo(11.055, 2)).toBe(11.06)
    expect(roundTo(10.05 * 1.1, 2)).toBe(11.06)
    expect(roundTo(1.0005, 3)).toBe(1.001)
    expect(roundTo(3.14159, 4)).toBe(3.1416)
  })

  it('gives exchange limit prices', () => {
    expect(limitPrices(10, 0.1, 2)).toEqual([9, 11])
    expect(limitPrices(10.05, 0.1, 2)).toEqual([9.05, 11.06])
    expect(limitPrices(3.33, 0.05, 2)).toEqual([3.16, 3.5])
  })

  it('knows ChiNext moved to 20% on 2020-08-24', () => {
    expect(limitOn(inst({}), dayNumber('2020-08-21'))).toBe(0.1)
    expect(limitOn(inst({}), dayNumber('2020-08-24'))).toBe(0.2)
    expect(limitOn(inst({ board: 'sh-main', limit: 0.1 }), dayNumber('2019-01-02'))).toBe(0.1)
    expect(walkLimit(inst({ kind: 'hk', board: undefined, limit: null }), 0)).toBe(0.2)
    expect(walkLimit(inst({ kind: 'index', board: undefined, limit: null }), 0)).toBe(0.1)
  })
})

import { describe, expect, it } from 'vitest'
import type { Instrument } from '../../domain/instrument'
import { beijingDateTime, easternOffset, exchangeInstant } from './time'

const sh: Instrument = { code: 'sh600519', prefix: 'sh', symbol: '600519', kind: 'stock' }
const us: Instrument = { code: 'usAAPL', prefix: 'us', symbol: 'AAPL', kind: 'us' }

describe('time', () => {
  it('knows US daylight saving by date', () => {
    expect(easternOffset('2025-01-02')).toBe(-5)
    expect(easternOffset('2025-03-08')).toBe(-5)
    expect(easternOffset('2025-03-09')).toBe(-4)
    expect(easternOffset('2025-11-01')).toBe(-4)
    expect(easternOffset('2025-11-02')).toBe(-5)
  })

  it('turns exchange wall time into an instant', () => {
    expect(new Date(exchangeInstant(sh, '2025-01-02', '15:00:03')).toISOString()).toBe('2025-01-02T07:00:03.000Z')
    expect(new Date(exchangeInstant(us, '2025-01-02', '16:00:00')).toISOString()).toBe('2025-01-02T21:00:00.000Z')
    expect(new Date(exchangeInstant(us, '2025-07-01', '16:00:00')).toISOString()).toBe('2025-07-01T20:00:00.000Z')
  })

  it('prints Beijing wall time', () => {
    expect(beijingDateTime(exchangeInstant(us, '2025-01-02', '16:00:00'))).toBe('2025-01-03 05:00:00')
  })
})

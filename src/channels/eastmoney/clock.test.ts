import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { exchangeClock } from './clock'

describe('exchangeClock', () => {
  const sh = parseSymbol('sh600519')
  const us = parseSymbol('usAAPL')

  it('reads A-share and HK stamps in Beijing time', () => {
    // 2025-01-02 07:00:03 UTC
    expect(exchangeClock(sh, 1735801203)).toEqual({ date: '2025-01-02', time: '15:00:03' })
    expect(exchangeClock(parseSymbol('hk00700'), 1735801203)).toEqual({ date: '2025-01-02', time: '15:00:03' })
  })

  it('reads US stamps in Eastern time, standard and daylight', () => {
    // 2025-01-02 21:00 UTC = 16:00 EST; 2025-07-01 20:00 UTC = 16:00 EDT
    expect(exchangeClock(us, 1735851600)).toEqual({ date: '2025-01-02', time: '16:00:00' })
    expect(exchangeClock(parseSymbol('us.DJI'), 1751400000)).toEqual({ date: '2025-07-01', time: '16:00:00' })
  })

  it('switches at 02:00 local on the second Sunday of March and the first Sunday of November', () => {
    // 2025-03-09 06:59:59 UTC = 01:59:59 EST; one second later 03:00:00 EDT
    expect(exchangeClock(us, Date.UTC(2025, 2, 9, 6, 59, 59) / 1000).time).toBe('01:59:59')
    expect(exchangeClock(us, Date.UTC(2025, 2, 9, 7) / 1000).time).toBe('03:00:00')
    // 2025-11-02 05:59:59 UTC = 01:59:59 EDT; one second later 01:00:00 EST
    expect(exchangeClock(us, Date.UTC(2025, 10, 2, 5, 59, 59) / 1000).time).toBe('01:59:59')
    expect(exchangeClock(us, Date.UTC(2025, 10, 2, 6) / 1000).time).toBe('01:00:00')
  })
})

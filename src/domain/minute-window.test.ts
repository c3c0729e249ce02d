import { describe, expect, it } from 'vitest'
import { minuteWindowStart } from './minute-window'

const at = (iso: string) => Date.parse(iso)

describe('minuteWindowStart', () => {
  it('is the first day of the previous calendar month for A-share kinds (Beijing date)', () => {
    expect(minuteWindowStart('stock', at('2026-11-21T10:00:00+08:00'))).toBe('2026-10-01')
    expect(minuteWindowStart('index', at('2026-01-05T10:00:00+08:00'))).toBe('2025-12-01')
    // 23:30 UTC on Nov 30 is already Dec 1 in Beijing.
    expect(minuteWindowStart('etf', at('2026-11-30T23:30:00Z'))).toBe('2026-11-01')
  })

  it('is five weekdays back for HK and US', () => {
    expect(minuteWindowStart('hk', at('2026-11-20T10:00:00+08:00'))).toBe('2026-11-13')
    expect(minuteWindowStart('us', at('2026-11-23T10:00:00+08:00'))).toBe('2026-11-16')
  })
})

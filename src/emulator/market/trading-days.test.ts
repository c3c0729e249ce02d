import { describe, expect, it } from 'vitest'
import { addTradingDays } from './trading-days'

describe('addTradingDays', () => {
  it('steps over weekends and holidays both ways', () => {
    expect(addTradingDays('2026-11-20', 1)).toBe('2026-11-23') // Friday → Monday
    expect(addTradingDays('2026-11-23', -1)).toBe('2026-11-20')
    expect(addTradingDays('2026-11-21', 0)).toBe('2026-11-23') // a Saturday counts from the next session
    expect(addTradingDays('2026-09-30', 1)).toBe('2026-10-08') // National Day week
  })
})

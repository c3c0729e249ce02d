import { describe, expect, it } from 'vitest'
import { observations, type MacroModel } from './macro'

const CPI: MacroModel = { key: 'test.cpi', frequency: 'monthly', level: 1.5, swing: 1, noise: 0.3, decimals: 1, lagDays: 10 }

describe('observations', () => {
  it('releases each month after its lag, never after today, newest first', () => {
    const obs = observations(CPI, '2026-11-09')
    expect(obs[0].period).toBe('2026-09-01') // October's is out on the 10th or later
    expect(observations(CPI, '2026-11-11')[0].period).toBe('2026-10-01')
    for (const o of obs) expect(o.release <= '2026-11-09' && o.release > o.periodEnd).toBe(true)
    const periods = obs.map((o) => o.period)
    expect(periods).toEqual([...periods].sort().reverse())
  })

  it('is deterministic and plausible', () => {
    expect(observations(CPI, '2026-11-20', 24)).toEqual(observations(CPI, '2026-11-20', 24))
    for (const o of observations(CPI, '2026-11-20')) expect(Math.abs(o.value - 1.5)).toBeLessThan(3)
  })

  it('daily series end with yesterday, on trading days; stepped series move in steps', () => {
    const daily = observations({ ...CPI, key: 'test.yield', frequency: 'daily', lagDays: 0 }, '2026-11-20', 5)
    expect(daily[0].period).toBe('2026-11-19')
    const stepped = observations({ ...CPI, key: 'test.rate', noise: 0, step: 0.25, decimals: 2 }, '2026-11-20', 24)
    for (const o of stepped) expect(Math.round(o.value / 0.25) * 0.25).toBeCloseTo(o.value, 9)
  })

  it('accumulates quarterly values through the year', () => {
    const gdp = observations({ key: 'test.gdp', frequency: 'quarterly', level: 1e6, swing: 0, noise: 0, decimals: 1, lagDays: 17, cumulative: true }, '2026-11-20', 3)
    expect(gdp.map((o) => o.period)).toEqual(['2026-07-01', '2026-04-01', '2026-01-01'])
    expect(gdp[0].value).toBeCloseTo(gdp[2].value * 3, 0)
  })
})

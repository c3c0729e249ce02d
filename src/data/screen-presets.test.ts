import { describe, expect, it } from 'vitest'
import { parseExpression } from '../domain/screen'
import { factorByName, factorNames, FACTORS, SCREEN_MARKETS } from './factors'
import { presetByName, PRESETS } from './screen-presets'

describe('factor catalogue', () => {
  it('has PE_TTM, ROETTM, ClosePrice and ChangePCT and at least 40 factors for hs, each named once', () => {
    for (const name of ['PE_TTM', 'ROETTM', 'ClosePrice', 'ChangePCT']) expect(factorByName(name)?.sources.hs).toBeDefined()
    expect(factorNames('hs').length).toBeGreaterThanOrEqual(40)
    expect(new Set(FACTORS.map((f) => f.name)).size).toBe(FACTORS.length)
    for (const m of SCREEN_MARKETS) expect(factorNames(m)).toContain('ClosePrice')
  })
})

describe('presets', () => {
  it('are 22, with LowPE, LowPB, HighDividend, PEG and HighROE', () => {
    expect(PRESETS).toHaveLength(22)
    for (const name of ['LowPE', 'LowPB', 'HighDividend', 'PEG', 'HighROE']) expect(presetByName(name)).toBeDefined()
    expect(presetByName('lowpe')?.name).toBe('LowPE')
  })

  it.each(PRESETS.map((p) => [p.name, p] as const))('%s parses for its market and sorts by one of its factors', (_name, preset) => {
    const factors = new Set(factorNames(preset.market))
    expect(() => parseExpression(preset.expr, { factors })).not.toThrow()
    expect(factors.has(preset.orderby)).toBe(true)
  })
})

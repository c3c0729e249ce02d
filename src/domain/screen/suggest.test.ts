import { describe, expect, it } from 'vitest'
import { editDistance, nearest } from './suggest'

describe('nearest', () => {
  it('measures edits case-insensitively', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('PE_TTM', 'pe_ttm')).toBe(0)
  })

  it('offers close names first and nothing for a stranger', () => {
    const names = ['PE_TTM', 'PB', 'ROETTM', 'ROA', 'ClosePrice']
    expect(nearest('ROE_TTM', names)).toEqual(['ROETTM'])
    expect(nearest('closeprice', names)).toEqual(['ClosePrice'])
    expect(nearest('Dividend', names)).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { seasonOf, seasonsOverlapping } from './report-seasons'

describe('report seasons', () => {
  it('names each period and its publication window', () => {
    expect(seasonOf('2026-09-30')).toEqual({ period: '2026-09-30', from: '2026-10-01', to: '2026-10-31', name: '2026年三季报' })
    expect(seasonOf('2025-12-31')).toMatchObject({ from: '2026-01-01', to: '2026-04-30', name: '2025年年报' })
    expect(() => seasonOf('2026-05-31')).toThrow()
  })

  it('finds the seasons a window overlaps: April has the annual and the Q1 reports', () => {
    expect(seasonsOverlapping('2026-04-10', '2026-05-10').map((s) => s.period)).toEqual(['2025-12-31', '2026-03-31'])
    expect(seasonsOverlapping('2026-11-20', '2026-12-20')).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { technicalBreadth } from './technical-breadth'

const day = (rows: Record<string, Record<string, number | null>>) => ({
  codes: () => Object.keys(rows),
  row: (code: string) => (rows[code] ? { get: (c: string) => rows[code][c] ?? null } : undefined),
})

describe('technicalBreadth', () => {
  it('counts closes above each average among the stocks that have it, and the 52-week extremes', () => {
    const b = technicalBreadth(
      day({
        a: { closePrice: 10, ma_MA_20: 9, ma_MA_60: 11, ma_MA_250: 8, NewHigh250: 1, NewLow250: 0 },
        b: { closePrice: 5, ma_MA_20: 6, ma_MA_60: 4, ma_MA_250: null, NewHigh250: null, NewLow250: null },
        c: { closePrice: 7, ma_MA_20: 7, ma_MA_60: 6, ma_MA_250: 9, NewHigh250: 0, NewLow250: 1 },
      })
    )
    expect(b).toEqual({
      stocks: 3,
      above_ma20: { stocks: 3, above: 1, pct: 33.33 },
      above_ma60: { stocks: 3, above: 2, pct: 66.67 },
      above_ma250: { stocks: 2, above: 1, pct: 50 },
      new_highs_52w: 1,
      new_lows_52w: 1,
    })
  })

  it('says null, not 0 %, when no stock has an average', () => {
    expect(technicalBreadth(day({ a: { closePrice: 1, ma_MA_250: null } })).above_ma250).toEqual({ stocks: 0, above: 0, pct: null })
  })
})

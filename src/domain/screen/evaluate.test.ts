import { describe, expect, it } from 'vitest'
import { evaluate, type FactorTable } from './evaluate'
import { parseExpression } from './parser'

// Five rows; NaN is a null value (row 3 has no PE: a loss-maker).
const COLUMNS: Record<string, number[]> = {
  PE_TTM: [8, 25, 12, NaN, 5],
  PB: [0.9, 3, 1.5, 0.7, 0],
  TotalMV: [100, 900, 300, 50, 700],
}
const table: FactorTable = { size: 5, column: (n) => COLUMNS[n] }
const rows = (src: string) => {
  const mask = evaluate(parseExpression(src, { factors: new Set(Object.keys(COLUMNS)) }), table)
  return [...mask.keys()].filter((i) => mask[i])
}

describe('evaluate', () => {
  it('compares per row, and a null side is false for every operator, != too', () => {
    expect(rows('PE_TTM < 10')).toEqual([0, 4])
    expect(rows('PE_TTM >= 12')).toEqual([1, 2])
    expect(rows('PE_TTM != 8')).toEqual([1, 2, 4])
    expect(rows('PE_TTM == 25')).toEqual([1])
  })

  it('computes arithmetic per row, with division by zero as null', () => {
    // PE/PB: 8.89, 8.33, 8, null (PE null), null (PB 0).
    expect(rows('PE_TTM / PB > 8.2')).toEqual([0, 1])
    expect(rows('PE_TTM * 2 - 1 > 20')).toEqual([1, 2])
    expect(rows('-PE_TTM < -10')).toEqual([1, 2])
  })

  it('intersects, unites and excludes sets', () => {
    expect(rows('intersect([PE_TTM < 15, PB < 1])')).toEqual([0, 4])
    expect(rows('union([PE_TTM > 20, PB < 0.8])')).toEqual([1, 3, 4])
    expect(rows('exclude(PB < 2, PE_TTM < 6)')).toEqual([0, 2, 3])
  })

  it('ranks with top and bottom over non-null values only', () => {
    expect(rows('top(TotalMV, 2)')).toEqual([1, 4])
    expect(rows('bottom(PE_TTM, 2)')).toEqual([0, 4])
    expect(rows('bottom(PE_TTM, 10)')).toEqual([0, 1, 2, 4])
    expect(rows('intersect([top(TotalMV, 3), PE_TTM < 20])')).toEqual([2, 4])
  })
})

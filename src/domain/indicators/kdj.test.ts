import { describe, expect, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { kdj } from './kdj'
import { bandBars, barsOf, flatBars, line } from './testing'

const N = Number.NaN

describe('KDJ(9, 3, 3)', () => {
  it('hand-checked: K starts at the first RSV (bar 8), then SMA(·, 3, 1)', () => {
    // closes 1..9 with high = c + 1, low = c − 1, then a bar O 9 H 11 L 7 C 8
    const rows = [...line(9, 1, 1).map((c) => [c, c + 1, c - 1, c] as const), [9, 11, 7, 8] as const]
    const r = kdj(barsOf(rows))
    // bar 8: LLV(L) = 0, HHV(H) = 10, C = 9 → RSV 90 = K = D = J
    // bar 9: LLV = 1 (bars 1..9), HHV = 11, C = 8 → RSV = 7/10 · 100 = 70
    //        K = 70/3 + 2/3 · 90 = 250/3; D = (250/3)/3 + 2/3 · 90 = 790/9; J = 3K − 2D = 670/9
    expectSeries(r.k, [N, N, N, N, N, N, N, N, 90, 250 / 3])
    expectSeries(r.d, [N, N, N, N, N, N, N, N, 90, 790 / 9])
    expectSeries(r.j, [N, N, N, N, N, N, N, N, 90, 670 / 9])
  })

  it('a flat 9-bar range leaves K where it was (D keeps closing in on it)', () => {
    const rows = [...line(9, 1, 1).map((c) => [c, c + 1, c - 1, c] as const), ...Array.from({ length: 12 }, () => [5, 5, 5, 5] as const)]
    const r = kdj(barsOf(rows))
    // from bar 17 on the 9-bar window is flat (RSV undefined); K carries its bar-16 value and
    // D = SMA(K, 3, 1) moves 1/3 of its gap to that K each bar: D20 = K16 + (D16 − K16) · (2/3)⁴
    expect(r.k[20]).toBe(r.k[16])
    expect(r.d[20]).toBeCloseTo(r.k[16] + (r.d[16] - r.k[16]) * (2 / 3) ** 4, 9)
  })

  it('a line with a constant band: RSV = 9/10 · 100 every bar, so K = D = J = 90', () => {
    const r = kdj(bandBars(line(500, 10, 1)))
    expectLast(r.k, 90)
    expectLast(r.d, 90)
    expectLast(r.j, 90)
  })

  it('a price that never moves has no K, D or J', () => {
    const r = kdj(flatBars(Array(100).fill(7)))
    expect(r.k[99]).toBeNaN()
    expect(r.j[99]).toBeNaN()
  })
})

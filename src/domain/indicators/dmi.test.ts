import { describe, it } from 'vitest'
import { dmi } from './dmi'
import { expectLast, expectSeries } from './expect'
import { bandBars, barsOf, line } from './testing'

const N = Number.NaN

describe('DMI(14, 6)', () => {
  it('hand-checked with n = 2, m = 2', () => {
    const b = barsOf([
      [9, 10, 8, 9],
      [10, 11, 9, 10.5], // HD 1, LD −1 → +DM 1; TR max(2, 2, 0) = 2
      [10, 10.8, 8.5, 9], // HD −0.2, LD 0.5 → −DM 0.5; TR max(2.3, 0.3, 2) = 2.3
      [9.5, 11.5, 9.5, 11], // HD 0.7, LD −1 → +DM 0.7; TR max(2, 2.5, 0.5) = 2.5
    ])
    const r = dmi(b, 2, 2)
    // ΣTR: bar 2 = 4.3, bar 3 = 4.8; Σ+DM: 1, 0.7; Σ−DM: 0.5, 0.5
    expectSeries(r.pdi, [N, N, 100 / 4.3, 70 / 4.8])
    expectSeries(r.mdi, [N, N, 50 / 4.3, 50 / 4.8])
    // DX = |MDI − PDI|/(MDI + PDI) · 100: 50/150 → 33.33, 20/120 → 16.67; ADX = their mean
    expectSeries(r.adx, [N, N, N, 25])
    expectSeries(r.adxr, [N, N, N, N]) // needs ADX two bars back
  })

  it('an outside bar (equal up and down move) counts for neither', () => {
    const r = dmi(barsOf([[10, 11, 9, 10], [10, 11.5, 8.5, 10]]), 1, 1) // HD = LD = 0.5
    expectSeries(r.pdi, [N, 0])
    expectSeries(r.mdi, [N, 0])
  })

  it('a rising line with a ±1 band: PDI = 14/28 · 100 = 50, MDI = 0, ADX = ADXR = 100', () => {
    const r = dmi(bandBars(line(400, 10, 1)))
    expectLast(r.pdi, 50)
    expectLast(r.mdi, 0)
    expectLast(r.adx, 100)
    expectLast(r.adxr, 100)
  })
})

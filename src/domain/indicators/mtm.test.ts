import { describe, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { mtm } from './mtm'
import { f64, line } from './testing'

const N = Number.NaN

describe('MTM(12, 6)', () => {
  it('hand-checked with n = 2, m = 2', () => {
    const r = mtm(f64([10, 12, 11, 15]), 2, 2) // 11 − 10 = 1, 15 − 12 = 3; mean 2
    expectSeries(r.mtm, [N, N, 1, 3])
    expectSeries(r.mtmma, [N, N, N, 2])
  })

  it('a line with slope 0.3: MTM = MTMMA = 12 · 0.3', () => {
    const r = mtm(f64(line(500, 20, 0.3)))
    expectLast(r.mtm, 3.6)
    expectLast(r.mtmma, 3.6)
  })
})

import { describe, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { psy } from './psy'
import { f64, line } from './testing'

const N = Number.NaN

describe('PSY(12, 6)', () => {
  it('hand-checked with n = 4, m = 2', () => {
    // up days: 0 (first bar), 1, 0, 1, 1 → PSY bar 3 = 2/4, bar 4 = 3/4; PSYMA bar 4 = (50 + 75)/2
    const r = psy(f64([10, 11, 10, 12, 13]), 4, 2)
    expectSeries(r.psy, [N, N, N, 50, 75])
    expectSeries(r.psyma, [N, N, N, N, 62.5])
  })

  it('a rising line is 100, a constant price 0', () => {
    expectLast(psy(f64(line(200, 1, 1))).psyma, 100)
    expectLast(psy(f64(Array(200).fill(4))).psy, 0)
  })
})

import { describe, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { roc } from './roc'
import { f64, line } from './testing'

const N = Number.NaN

describe('ROC(12, 6)', () => {
  it('hand-checked with n = 2, m = 2', () => {
    // bar 2: (11 − 10)/10 · 100 = 10; bar 3: (15 − 12)/12 · 100 = 25; MAROC = 17.5
    const r = roc(f64([10, 12, 11, 15]), 2, 2)
    expectSeries(r.roc, [N, N, 10, 25])
    expectSeries(r.maroc, [N, N, N, 17.5])
  })

  it('a line c = 100 + i: ROC = 12/(c − 12) · 100', () => {
    expectLast(roc(f64(line(500, 100, 1))).roc, (12 / (599 - 12)) * 100)
  })
})

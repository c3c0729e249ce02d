import { describe, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { mfi } from './mfi'
import { flatBars, line } from './testing'

describe('MFI(14)', () => {
  it('hand-checked with n = 2 (TP = close)', () => {
    // flows: bar 1 +11 · 200 = 2200, bar 2 −10.5 · 300 = 3150, bar 3 +12 · 400 = 4800
    // bar 1: no negative flow → 100; bar 2: 100 · 2200/5350; bar 3: 100 · 4800/7950
    const r = mfi(flatBars([10, 11, 10.5, 12], [100, 200, 300, 400]), 2)
    expectSeries(r, [Number.NaN, 100, (100 * 2200) / 5350, (100 * 4800) / 7950])
  })

  it('a rising line is 100; a constant price has no flow and no MFI', () => {
    expectLast(mfi(flatBars(line(100, 10, 0.1))), 100)
    expectSeries(mfi(flatBars(Array(30).fill(10))).subarray(29), [Number.NaN])
  })
})

import { describe, it } from 'vitest'
import { expectSeries } from './expect'
import { f64 } from './testing'
import { vr } from './vr'

describe('VR(26)', () => {
  it('hand-checked with n = 3: a flat day counts as down, the first bar as neither', () => {
    // up volume: 0, 200, 0, 0; other: 0, 0, 300 (flat), 400
    // bar 2: 200/300 · 100; bar 3: 200/(300 + 400) · 100
    expectSeries(vr(f64([10, 11, 11, 10.5]), f64([100, 200, 300, 400]), 3), [Number.NaN, Number.NaN, 200 / 3, 20000 / 700])
  })

  it('alternating up and down days with equal volume: VR = 13/13 · 100', () => {
    const closes = Array.from({ length: 1001 }, (_, i) => (i % 2 ? 11 : 10))
    expectSeries(vr(f64(closes), f64(Array(1001).fill(5e6))).subarray(1000), [100])
  })
})

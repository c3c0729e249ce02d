import { describe, it } from 'vitest'
import { expectSeries } from './expect'
import { obv } from './obv'
import { f64 } from './testing'

describe('OBV', () => {
  it('hand-checked: +V up, −V down, 0 flat and on the first bar', () => {
    // 0; +200; flat 200; −400 → −200; +500 → 300
    expectSeries(obv(f64([10, 11, 11, 10.5, 12]), f64([100, 200, 300, 400, 500])), [0, 200, 200, -200, 300])
  })

  it('a long rising series sums every volume but the first', () => {
    const n = 5000
    const r = obv(f64(Array.from({ length: n }, (_, i) => 10 + i * 0.01)), f64(Array(n).fill(1e8)))
    expectSeries(r.subarray(n - 1), [(n - 1) * 1e8])
  })
})

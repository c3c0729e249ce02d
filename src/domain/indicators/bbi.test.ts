import { describe, it } from 'vitest'
import { bbi } from './bbi'
import { expectLast, expectSeries } from './expect'
import { f64, line } from './testing'

describe('BBI(3, 6, 12, 20)', () => {
  it('hand-checked: closes 1..20 → (19 + 17.5 + 14.5 + 10.5)/4', () => {
    const r = bbi(f64(line(20, 1, 1)))
    expectLast(r, 61.5 / 4)
    expectSeries(r.subarray(18, 19), [Number.NaN])
  })
})

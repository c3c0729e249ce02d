import { describe, it } from 'vitest'
import { brar } from './brar'
import { expectSeries } from './expect'
import { barsOf } from './testing'

const N = Number.NaN

describe('BRAR(26)', () => {
  it('hand-checked with n = 2', () => {
    const b = barsOf([
      [10, 11, 9, 10.5], // H − O 1, O − L 1
      [10.5, 12, 10, 11.5], // H − O 1.5, O − L 0.5; H − C′ 1.5, C′ − L 0.5
      [11.5, 12, 11, 11.2], // H − O 0.5, O − L 0.5; H − C′ 0.5, C′ − L 0.5
    ])
    const r = brar(b, 2)
    expectSeries(r.ar, [N, (2.5 / 1.5) * 100, (2 / 1) * 100])
    expectSeries(r.br, [N, N, (2 / 1) * 100]) // bar 1's window holds bar 0, which has no previous close
  })

  it('a symmetric band around a constant price: AR = BR = 100', () => {
    const r = brar(barsOf(Array.from({ length: 100 }, () => [10, 11, 9, 10] as const)))
    expectSeries(r.ar.subarray(99), [100])
    expectSeries(r.br.subarray(99), [100])
  })
})

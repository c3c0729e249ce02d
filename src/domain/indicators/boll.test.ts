import { describe, it } from 'vitest'
import { boll } from './boll'
import { expectLast } from './expect'
import { f64, line } from './testing'

describe('BOLL(20, 2)', () => {
  it('hand-checked: closes 1..20', () => {
    // mean 10.5; population variance of 1..20 = (20² − 1)/12 = 33.25; sd = √33.25 = 5.7662812973
    const b = boll(f64(line(20, 1, 1)))
    expectLast(b.mid, 10.5)
    expectLast(b.upper, 10.5 + 2 * Math.sqrt(33.25))
    expectLast(b.lower, 10.5 - 2 * Math.sqrt(33.25))
  })

  it('a line of any length: the bands sit 2 · √33.25 · |slope| around MA20', () => {
    const b = boll(f64(line(3000, 10, 0.05)))
    const mid = 10 + 0.05 * (2999 - 9.5)
    expectLast(b.mid, mid)
    expectLast(b.upper, mid + 2 * 0.05 * Math.sqrt(33.25))
  })

  it('a constant price collapses the bands', () => {
    const b = boll(f64(Array(40).fill(8.88)))
    expectLast(b.upper, 8.88)
    expectLast(b.lower, 8.88)
  })
})

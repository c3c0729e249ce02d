import { describe, it } from 'vitest'
import { bias } from './bias'
import { expectLast } from './expect'
import { f64, line } from './testing'

describe('BIAS(n)', () => {
  it('hand-checked: closes 1..6 → (6 − 3.5)/3.5 · 100', () => {
    expectLast(bias(f64(line(6, 1, 1)), 6), (2.5 / 3.5) * 100)
  })

  it('a line c = 100 + i: BIAS(n) = ((n − 1)/2)/(c − (n − 1)/2) · 100', () => {
    const c = 100 + 999
    expectLast(bias(f64(line(1000, 100, 1)), 24), (11.5 / (c - 11.5)) * 100)
  })
})

import { describe, it } from 'vitest'
import { cci } from './cci'
import { expectLast } from './expect'
import { barsOf, flatBars, line } from './testing'

describe('CCI(14)', () => {
  it('hand-checked: TP = 1..14', () => {
    // MA = 7.5; deviations 6.5, 5.5, …, 0.5 twice → Σ = 49, AVEDEV = 3.5; (14 − 7.5)/(0.015 · 3.5) = 123.8095238
    expectLast(cci(flatBars(line(14, 1, 1))), 6.5 / 0.0525)
  })

  it('uses the typical price (H + L + C)/3', () => {
    // high c + 3, low c − 3 keeps TP = c + 0 when close = c: same answer
    expectLast(cci(barsOf(line(14, 1, 1).map((c) => [c, c + 3, c - 3, c] as const))), 6.5 / 0.0525)
  })

  it('any straight line gives the same 123.8095 (scale free)', () => {
    expectLast(cci(flatBars(line(2000, 300, 0.7))), 6.5 / 0.0525)
  })
})

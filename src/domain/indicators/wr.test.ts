import { describe, expect, it } from 'vitest'
import { expectLast } from './expect'
import { bandBars, flatBars, line } from './testing'
import { wr } from './wr'

describe('WR(10) and WR(6)', () => {
  it('hand-checked: closes 1..10, high = c + 1, low = c − 1', () => {
    const b = bandBars(line(10, 1, 1))
    expectLast(wr(b, 10), ((11 - 10) / (11 - 0)) * 100) // HHV 11, LLV 0, C 10
    expectLast(wr(b, 6), ((11 - 10) / (11 - 4)) * 100) // bars 4..9: HHV 11, LLV 4
    expect(wr(b, 10)[8]).toBeNaN()
  })

  it('0 at the high, 100 at the low', () => {
    expectLast(wr(flatBars([5, 6, 7, 8, 9, 10]), 6), 0)
    expectLast(wr(flatBars([10, 9, 8, 7, 6, 5]), 6), 100)
  })
})

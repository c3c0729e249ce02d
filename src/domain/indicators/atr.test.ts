import { describe, it } from 'vitest'
import { atr } from './atr'
import { expectLast, expectSeries } from './expect'
import { bandBars, barsOf } from './testing'

const N = Number.NaN

describe('TR and ATR', () => {
  it('hand-checked: TR needs the previous close; ATR is a simple mean from bar n', () => {
    const b = barsOf([
      [9.5, 10, 9, 9.5],
      [10, 11, 10, 10.8], // max(1, |9.5 − 11| = 1.5, |9.5 − 10| = 0.5) = 1.5
      [10.8, 10.9, 10.2, 10.3], // max(0.7, |10.8 − 10.9| = 0.1, |10.8 − 10.2| = 0.6) = 0.7
    ])
    const r = atr(b, 2)
    expectSeries(r.tr, [N, 1.5, 0.7])
    expectSeries(r.atr, [N, N, 1.1]) // (1.5 + 0.7)/2; bar 1's window holds the undefined bar 0
  })

  it('a constant band of ±1 gives TR = ATR = 2; ATR(20) starts at bar 20', () => {
    const r = atr(bandBars(Array(300).fill(10)))
    expectLast(r.tr, 2)
    expectLast(r.atr, 2)
    expectSeries(r.atr.subarray(19, 21), [N, 2])
  })
})

import { describe, it } from 'vitest'
import { dma } from './dma'
import { expectLast, expectSeries } from './expect'
import { f64, line } from './testing'

const N = Number.NaN

describe('DMA(10, 50, 10)', () => {
  it('hand-checked with (2, 3, 2): closes 1, 2, 4, 7', () => {
    // MA2: −, 1.5, 3, 5.5; MA3: −, −, 7/3, 13/3; DIF: 3 − 7/3 = 2/3, 5.5 − 13/3 = 7/6; DIFMA = (2/3 + 7/6)/2 = 11/12
    const r = dma(f64([1, 2, 4, 7]), 2, 3, 2)
    expectSeries(r.dif, [N, N, 2 / 3, 7 / 6])
    expectSeries(r.difma, [N, N, N, 11 / 12])
  })

  it('a line with slope 1: MA10 lags 4.5, MA50 24.5 → DIF = DIFMA = 20; DIFMA starts at bar 58', () => {
    const r = dma(f64(line(300, 0, 1)))
    expectLast(r.dif, 20)
    expectLast(r.difma, 20)
    expectSeries(r.difma.subarray(57, 59), [N, 20])
  })
})

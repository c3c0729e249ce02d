import { describe, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { f64, line } from './testing'
import { trix } from './trix'

describe('TRIX(12, 20)', () => {
  it('hand-checked: closes 10, 13', () => {
    // each EMA(12) moves 2/13 of the gap: TR = 10 + 3 · (2/13)³ = 10 + 24/2197; TRIX = (24/2197)/10 · 100
    expectSeries(trix(f64([10, 13])).trix, [Number.NaN, 240 / 2197])
  })

  it('a line c = 100 + i: the triple EMA lags 3 · 5.5 steps, TR = c − 16.5 and TRIX = 1/TR′ · 100 = 100/(c − 17.5), TRMA their mean', () => {
    const r = trix(f64(line(3000, 100, 1)))
    expectLast(r.trix, 100 / (100 + 2999 - 17.5))
    let m = 0
    for (let i = 2980; i < 3000; i++) m += 100 / (100 + i - 17.5) / 20
    expectLast(r.trma, m)
  })
})

import { describe, expect, it } from 'vitest'
import { avedev, ema, hhv, llv, ma, ref, sma, smooth, std, sum } from './series'
import { f64, line } from './testing'

const N = Number.NaN
const close = (a: Float64Array, b: number[]) => {
  expect(a.length).toBe(b.length)
  b.forEach((v, i) => (Number.isNaN(v) ? expect(a[i], `[${i}]`).toBeNaN() : expect(a[i], `[${i}]`).toBeCloseTo(v, 6)))
}

describe('window primitives', () => {
  it('MA and SUM start when the window is full', () => {
    close(ma(f64([1, 2, 3, 4, 5]), 3), [N, N, 2, 3, 4]) // (1+2+3)/3, (2+3+4)/3, (3+4+5)/3
    close(sum(f64([1, 2, 3, 4, 5]), 2), [N, 3, 5, 7, 9])
  })

  it('a missing value makes every window holding it undefined, and only those', () => {
    close(sum(f64([1, N, 3, 4, 5]), 2), [N, N, N, 7, 9])
    close(hhv(f64([1, N, 3, 4, 5]), 2), [N, N, N, 4, 5])
  })

  it('STD is the population deviation', () => {
    // mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32/8 = 4; √4 = 2 (n − 1 would give 2.138)
    close(std(f64([2, 4, 4, 4, 5, 5, 7, 9]), 8), [N, N, N, N, N, N, N, 2])
  })

  it('AVEDEV is the mean absolute deviation', () => {
    close(avedev(f64([1, 2, 3, 4]), 4), [N, N, N, 1]) // mean 2.5; |−1.5|+|−0.5|+0.5+1.5 = 4; 4/4
  })

  it('HHV, LLV and REF', () => {
    close(hhv(f64([3, 1, 4, 1, 5]), 3), [N, N, 4, 4, 5])
    close(llv(f64([3, 1, 4, 1, 5]), 3), [N, N, 1, 1, 1])
    close(ref(f64([3, 1, 4]), 1), [N, 3, 1])
  })

  it('the running sum does not drift over a long series (MA250 of a line is exact)', () => {
    const x = line(10_000, 1234.56, 0.37)
    const m = ma(f64(x), 250)
    for (const i of [249, 5000, 9999]) expect(m[i]).toBeCloseTo(1234.56 + 0.37 * (i - 124.5), 9) // mean of a line = its middle
    const s = sum(f64(x.map((v, i) => v * ((i % 7) - 3))), 26)
    let naive = 0
    for (let i = 9974; i < 10_000; i++) naive += x[i] * ((i % 7) - 3)
    expect(s[9999]).toBeCloseTo(naive, 6)
  })
})

describe('recursive averages', () => {
  it('EMA has α = 2/(n+1) and starts at the first value', () => {
    close(ema(f64([1, 2, 3]), 3), [1, 1.5, 2.25]) // α = 0.5: 1; 0.5·2 + 0.5·1; 0.5·3 + 0.5·1.5
  })

  it('SMA(X, n, m) has α = m/n and carries over a missing value', () => {
    close(sma(f64([10, 20, N, 40]), 4, 1), [10, 12.5, 12.5, 19.375]) // 0.25·20 + 0.75·10; carry; 0.25·40 + 0.75·12.5
    close(sma(f64([10, 20]), 3, 2), [10, 16.6666667]) // α = 2/3: 2/3·20 + 1/3·10
  })

  it('seeds with the first defined value after leading gaps', () => {
    close(smooth(f64([N, 4, 8]), 0.5), [N, 4, 6])
  })

  it('EMA(n) of a line converges to the line lagged by (n − 1)/2 steps', () => {
    const e = ema(f64(line(3000, 50, 0.2)), 26)
    expect(e[2999]).toBeCloseTo(50 + 0.2 * 2999 - 0.2 * 12.5, 9)
  })
})

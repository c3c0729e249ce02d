import { describe, expect, it } from 'vitest'
import { expectLast, expectSeries } from './expect'
import { rsi } from './rsi'
import { f64, line } from './testing'

describe('RSI(n) = SMA(max(ΔC, 0), n, 1) / SMA(|ΔC|, n, 1) × 100', () => {
  it('hand-checked: closes 10, 11, 10.5, 12 with n = 6 (α = 1/6), seeded with bar 1', () => {
    // ΔC: 1, −0.5, 1.5. up: 1, 5/6, 1.5/6 + 5/6 · 5/6 = 34/36. abs: 1, 0.5/6 + 5/6 = 11/12, 0.25 + 5/6 · 11/12 = 73/72
    // RSI: 100, (5/6)/(11/12) = 10/11, (34/36)/(73/72) = 68/73
    expectSeries(rsi(f64([10, 11, 10.5, 12]), 6), [Number.NaN, 100, 1000 / 11, 6800 / 73])
  })

  it('a rising line is 100 and a falling one 0', () => {
    expectLast(rsi(f64(line(300, 10, 0.1)), 24), 100)
    expectLast(rsi(f64(line(300, 100, -0.1)), 6), 0)
  })

  it('a price that never moved has no RSI', () => {
    expect(rsi(f64(Array(50).fill(3)), 12)[49]).toBeNaN()
  })

  it('alternating +2, −1 converges to the stationary ratio', () => {
    // With α = 1/n, the up-SMA after an up day u and after a down day u·(1−α) satisfy u = 2α + (1−α)²u
    // → u = 2α / (1 − (1−α)²); the |Δ| SMA after an up day a = (2α + (1−α)α) / (1 − (1−α)²).
    const closes = [100]
    for (let i = 1; i < 2002; i++) closes.push(closes[i - 1] + (i % 2 ? 2 : -1))
    const a = 1 / 6
    const expected = (2 * a) / (2 * a + (1 - a) * a) * 100
    expectLast(rsi(f64(closes), 6), expected) // the last bar (2001) is an up day: RSI = u / a = 2/(3 − α)
  })
})

import { describe, expect, it } from 'vitest'
import { BNORM_MAX, bnorm, hash, hashString, pickIndex, uniform } from './random'

describe('random', () => {
  it('is a pure function of its inputs', () => {
    expect(hashString('sh600519')).toBe(hashString('sh600519'))
    expect(hashString('sh600519')).not.toBe(hashString('sh600518'))
    expect(hash(1, 2, 3, 4)).toBe(hash(1, 2, 3, 4))
    expect(hash(1, 2, 3, 4)).not.toBe(hash(1, 2, 3, 5))
    expect(hash(1, 2, 3)).not.toBe(hash(1, 3, 2))
  })

  it('gives uniforms in [0, 1) with the right mean', () => {
    let sum = 0
    for (let i = 0; i < 20000; i++) {
      const u = uniform(42, i)
      expect(u).toBeGreaterThanOrEqual(0)
      expect(u).toBeLessThan(1)
      sum += u
    }
    expect(sum / 20000).toBeCloseTo(0.5, 1)
  })

  it('gives bounded, centred, unit-variance normals', () => {
    let s1 = 0
    let s2 = 0
    const n = 20000
    for (let i = 0; i < n; i++) {
      const z = bnorm(7, i, 3)
      expect(Math.abs(z)).toBeLessThanOrEqual(BNORM_MAX)
      s1 += z
      s2 += z * z
    }
    expect(Math.abs(s1 / n)).toBeLessThan(0.05)
    expect(s2 / n).toBeGreaterThan(0.9)
    expect(s2 / n).toBeLessThan(1.1)
  })

  it('picks indexes in range', () => {
    for (let i = 0; i < 1000; i++) {
      const k = pickIndex(9, 7, i)
      expect(k).toBeGreaterThanOrEqual(0)
      expect(k).toBeLessThan(7)
    }
  })
})

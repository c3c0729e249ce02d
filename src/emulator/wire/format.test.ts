import { describe, expect, it } from 'vitest'
import { fixed, hashOf, pctOf, round } from './format'

describe('format', () => {
  it('prints fixed decimals the way the upstreams do', () => {
    expect(fixed(1520, 2)).toBe('1520.00')
    expect(fixed(1519.995, 2)).toBe('1520.00')
    expect(fixed(1.005, 2)).toBe('1.01')
    expect(fixed(0.1 + 0.2, 3)).toBe('0.300')
    expect(fixed(3243567890, 2)).toBe('3243567890.00')
  })

  it('rounds negatives symmetrically and never prints -0', () => {
    expect(round(-1.005, 2)).toBe(-1.01)
    expect(fixed(-0.001, 2)).toBe('0.00')
  })

  it('computes percent changes against a base, 0 without one', () => {
    expect(pctOf(11.5, 1508.5)).toBeCloseTo(0.7623, 4)
    expect(pctOf(5, 0)).toBe(0)
  })

  it('hashes deterministically', () => {
    expect(hashOf('sh600519')).toBe(hashOf('sh600519'))
    expect(hashOf('sh600519')).not.toBe(hashOf('sz000001'))
  })
})

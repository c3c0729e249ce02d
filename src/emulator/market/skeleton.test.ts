import { describe, expect, it } from 'vitest'
import { checkpoints, skeletonAverage } from './skeleton'

describe('day skeleton', () => {
  it('places the open first, the close last and the extremes strictly inside', () => {
    for (let d = 0; d < 500; d++) {
      const cps = checkpoints(7, d, 240, 10, 11, 9, 10.5)
      expect(cps[0]).toEqual([0, 10])
      expect(cps.at(-1)).toEqual([240, 10.5])
      expect(cps).toHaveLength(4)
      for (const [t] of cps.slice(1, 3)) expect(t > 0 && t < 240).toBe(true)
      expect(new Set(cps.map(([t]) => t)).size).toBe(4)
    }
  })

  it('skips extremes already at the open or close', () => {
    expect(checkpoints(7, 1, 240, 10, 10.5, 10, 10.5)).toEqual([[0, 10], [240, 10.5]])
  })

  it('averages the skeleton over time', () => {
    expect(skeletonAverage([[0, 10], [240, 12]])).toBe(11)
    expect(skeletonAverage([[0, 10], [120, 12], [240, 10]])).toBe(11)
    const avg = skeletonAverage(checkpoints(3, 9, 240, 10, 11, 9, 10.5))
    expect(avg > 9 && avg < 11).toBe(true)
  })
})

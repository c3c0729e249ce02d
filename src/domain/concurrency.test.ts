import { describe, expect, it } from 'vitest'
import { mapLimit } from './concurrency'

describe('mapLimit', () => {
  it('keeps input order and never exceeds the limit', async () => {
    let inFlight = 0
    let peak = 0
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      peak = Math.max(peak, ++inFlight)
      await new Promise((r) => setTimeout(r, n))
      inFlight--
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30])
    expect(peak).toBe(2)
  })

  it('starts nothing new after a failure and rejects with it', async () => {
    const started: number[] = []
    await expect(
      mapLimit([1, 2, 3, 4], 1, async (n) => {
        started.push(n)
        if (n === 2) throw new Error('boom')
        return n
      })
    ).rejects.toThrow('boom')
    expect(started).toEqual([1, 2])
  })
})

import { describe, expect, it } from 'vitest'
import { SharedFlights, within } from './shared-flight'

const never = <T>() => new Promise<T>(() => {})

describe('SharedFlights', () => {
  it('shares one flight between concurrent callers and forgets it once it settles', async () => {
    const flights = new SharedFlights<string, number>(1_000)
    let starts = 0
    const start = async () => (starts++, 42)
    expect(await Promise.all([flights.run('k', start), flights.run('k', start), flights.run('k', start)])).toEqual([42, 42, 42])
    expect(starts).toBe(1)
    expect(flights.size).toBe(0)
  })

  it('passes a failure to every caller and does not keep it', async () => {
    const flights = new SharedFlights<string, number>(1_000)
    const failing = () => Promise.reject(new Error('KV down'))
    const both = await Promise.allSettled([flights.run('k', failing), flights.run('k', failing)])
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(await flights.run('k', async () => 7)).toBe(7)
  })

  it('replaces a flight older than maxAgeMs instead of joining it (its request may be gone)', async () => {
    let t = 0
    const flights = new SharedFlights<string, number>(1_000, () => t)
    void flights.run('k', never)
    t = 1_000
    expect(await flights.run('k', async () => 1)).toBe(1)
  })

  it('waits for a young flight at most what is left of maxAgeMs, then starts its own', async () => {
    const flights = new SharedFlights<string, number>(30)
    void flights.run('k', never)
    let starts = 0
    expect(await flights.run('k', async () => (starts++, 2))).toBe(2)
    expect(starts).toBe(1)
  })
})

describe('within', () => {
  it('gives the value when it comes in time, undefined when the time runs out, and rejects as the promise does', async () => {
    expect(await within(Promise.resolve('v'), 50)).toEqual({ value: 'v' })
    expect(await within(never(), 10)).toBeUndefined()
    await expect(within(Promise.reject(new Error('x')), 50)).rejects.toThrow('x')
  })
})

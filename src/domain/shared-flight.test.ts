import { describe, expect, it } from 'vitest'
import { Flight, SharedFlights } from './shared-flight'

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

  it('callers that find the same flight too old start one replacement between them', async () => {
    const flights = new SharedFlights<string, number>(30)
    void flights.run('k', never)
    let starts = 0
    const start = () => new Promise<number>((r) => setTimeout(() => r(++starts), 10))
    // Both waiters give up on the flight; the first replaces it and the second joins that one.
    expect(await Promise.all([flights.run('k', start), flights.run('k', start)])).toEqual([1, 1])
    expect(starts).toBe(1)
  })
})

describe('Flight', () => {
  it('gives every joiner its own promise, never the work\'s, with the work\'s value', async () => {
    let release!: (n: number) => void
    const work = new Promise<number>((r) => (release = r))
    const flight = new Flight(work)
    const a = flight.join()
    const b = flight.join()
    expect(a).not.toBe(work)
    expect(a).not.toBe(b)
    expect(flight.settled).toBe(false)
    release(7)
    expect(await Promise.all([a, b])).toEqual([7, 7])
    expect(flight.value).toBe(7)
    const late = flight.join()
    expect(late).not.toBe(work)
    expect(await late).toBe(7)
  })

  it('passes a failure to joiners and keeps no value', async () => {
    const flight = new Flight(Promise.reject(new Error('upstream down')))
    await expect(flight.join()).rejects.toThrow('upstream down')
    expect(flight.settled).toBe(true)
    expect(flight.value).toBeUndefined()
  })

  it('joinWithin waits no longer than the flight\'s age allows', async () => {
    const flight = new Flight(never<number>(), Date.now())
    expect(await flight.joinWithin(20)).toBeUndefined()
    expect(await new Flight(never<number>(), Date.now() - 1_000).joinWithin(500)).toBeUndefined()
    expect(await Flight.of(3).joinWithin(0)).toEqual({ value: 3 })
  })
})

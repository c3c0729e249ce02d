import { beforeEach, describe, expect, it } from 'vitest'
import { LEASE } from './lease'
import { AnonLeases, leaseSize, type AnonLease } from './anon-lease'

const NOW = 29_000_000 * 60_000 + 10_000 // 10 s into a minute window
const WIN = Math.floor(NOW / 60_000)
const lease = (over: Partial<AnonLease> = {}): AnonLease => ({ win: WIN, day: '2026-11-20', calls: 3, rows: 30, limit: 60, guardRemaining: 40, powUntil: NOW + 300_000, ...over })

describe('anonymous leases', () => {
  let leases = new AnonLeases()
  beforeEach(() => {
    leases = new AnonLeases()
  })

  it('lease at most a quarter of what is left, at most 15 calls, and only as many as the daily rows allow', () => {
    expect(leaseSize(58, 1e5, 1, 99)).toBe(LEASE.maxCalls - 1) // floor(58 / 4) = 14
    expect(leaseSize(100, 1e5, 1, 99)).toBe(LEASE.maxCalls)
    expect(leaseSize(3, 1e5, 1, 99)).toBe(0)
    expect(leaseSize(58, 50, 10, 99)).toBe(5)
    expect(leaseSize(58, 1e5, 0, 2)).toBe(2)
  })

  it('admit from the lease while its minute, its proof and its rows last; the headers show the whole minute', () => {
    leases.keep('a', lease())
    const first = leases.take('a', NOW, 10, NOW + 300_000)!
    expect(first.window).toMatchObject({ limit: 60, remaining: 42, resetSeconds: 50 })
    expect(leases.take('a', NOW, 10, null)).toBeUndefined() // no proof sent with this call
    expect(leases.take('a', NOW, 25, NOW + 300_000)).toBeUndefined() // 20 rows left
    expect(leases.take('a', NOW + 60_000, 10, NOW + 300_000)).toBeUndefined() // next minute
    leases.take('a', NOW, 10, NOW + 300_000)
    leases.take('a', NOW, 10, NOW + 300_000)
    expect(leases.take('a', NOW, 0, NOW + 300_000)).toBeUndefined() // no calls left
    first.refund()
    expect(leases.take('a', NOW, 10, NOW + 300_000)!.window.remaining).toBe(40)
  })

  it('give back what is unused: calls within their minute, rows within their day', () => {
    leases.keep('a', lease())
    expect(leases.release('a', NOW)).toEqual({ win: WIN, calls: 3, day: '2026-11-20', rows: 30 })
    expect(leases.release('a', NOW)).toBeUndefined()
    leases.keep('b', lease())
    expect(leases.release('b', NOW + 60_000)).toEqual({ win: WIN, calls: 0, day: '2026-11-20', rows: 30 })
  })

  it('add up two leases granted at once for one address', () => {
    leases.keep('a', lease())
    leases.keep('a', lease({ calls: 2, rows: 20, guardRemaining: 35 }))
    expect(leases.release('a', NOW)).toMatchObject({ calls: 5, rows: 50 })
  })
})

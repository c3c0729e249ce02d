import { describe, expect, it } from 'vitest'
import { LEASE, LeaseBook, leaseCalls, type MinuteLease } from './lease'

const NOW = 29_000_000 * 60_000 + 10_000 // 10 s into a minute window
const WIN = Math.floor(NOW / 60_000)
const lease = (over: Partial<MinuteLease> = {}): MinuteLease => ({ win: WIN, calls: 3, limit: 600, guardRemaining: 500, ...over })

describe('minute leases', () => {
  it('lease a quarter of what is left, at most 15 calls, none when fewer than 4 are left', () => {
    expect(leaseCalls(599, 99)).toBe(LEASE.maxCalls)
    expect(leaseCalls(29, 99)).toBe(7)
    expect(leaseCalls(29, 2)).toBe(2)
    expect(leaseCalls(3, 99)).toBe(0)
    expect(leaseCalls(-1, 99)).toBe(0)
  })

  it('admit from a lease while its minute and its calls last; the headers show the whole minute', () => {
    const book = new LeaseBook<MinuteLease>()
    book.keep('k', lease())
    expect(book.usable('k', NOW + 60_000)).toBeUndefined()
    const taken = book.take('k', book.usable('k', NOW)!, NOW)
    expect(taken.window).toEqual({ limit: 600, remaining: 502, resetSeconds: 50 })
    book.take('k', book.usable('k', NOW)!, NOW)
    book.take('k', book.usable('k', NOW)!, NOW)
    expect(book.usable('k', NOW)).toBeUndefined()
  })

  it('refund a call into the lease held for its minute, even one granted since, never into a later minute', () => {
    const book = new LeaseBook<MinuteLease>()
    book.keep('k', lease({ calls: 1 }))
    const { refund } = book.take('k', book.usable('k', NOW)!, NOW)
    book.release('k') // handed back with a request to the guard…
    book.keep('k', lease({ calls: 5, guardRemaining: 400 })) // …which granted another
    refund()
    expect(book.held('k')).toMatchObject({ calls: 6, guardRemaining: 400 })
    // A call of the past minute refunded after the next minute's lease came: its call lapsed.
    const late = book.take('k', book.usable('k', NOW)!, NOW)
    book.keep('k', lease({ win: WIN + 1, calls: 2 }))
    late.refund()
    expect(book.held('k')).toMatchObject({ win: WIN + 1, calls: 2 })
  })

  it('add up the leases of one minute with what they carry beside calls, and remember a bounded number of callers', () => {
    const book = new LeaseBook<MinuteLease & { rows: number }>((held, more) => (held.rows += more.rows), 2)
    book.keep('a', { ...lease(), rows: 30 })
    book.keep('a', { ...lease({ calls: 2 }), rows: 20 })
    expect(book.held('a')).toMatchObject({ calls: 5, rows: 50 })
    book.keep('b', { ...lease(), rows: 0 })
    book.keep('c', { ...lease(), rows: 0 })
    expect(book.held('a')).toBeUndefined()
    expect(book.held('c')).toMatchObject({ calls: 3 })
  })
})

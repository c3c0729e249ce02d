import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { KeyAdmitRequest, KeyGuard } from './key-guard'

const DAY1 = Date.parse('2026-11-19T10:00:00+08:00')
const DAY2 = Date.parse('2026-11-20T10:00:00+08:00')

const request = (over: Partial<KeyAdmitRequest> = {}): KeyAdmitRequest => ({
  now: DAY1,
  ip: '203.0.113.1',
  endpoint: 'market-kline',
  units: 500,
  heavy: true,
  perMinute: 300,
  heavyPerDay: 2,
  packUnits: null,
  ...over,
})

const guard = (name: string) => env.KEY_GUARD.getByName(name) as DurableObjectStub<KeyGuard>

describe('KeyGuard', () => {
  it('admits exactly the unlimited tier\'s 600 of 605 concurrent calls', async () => {
    const g = guard('concurrent')
    const results = await Promise.all(Array.from({ length: 605 }, () => g.admit(request({ heavy: false, endpoint: 'quote', units: 1, perMinute: 600 }))))
    expect(results.filter((r) => r.ok)).toHaveLength(600)
    expect(results.filter((r) => !r.ok && r.reason === 'minute')).toHaveLength(5)
  })

  it('enforces the daily heavy quota and refunds it on ok:false', async () => {
    const g = guard('heavy')
    const a = await g.admit(request())
    const b = await g.admit(request({ now: DAY1 + 60_000 }))
    const c = await g.admit(request({ now: DAY1 + 120_000 }))
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, false])
    if (!c.ok) expect(c.reason).toBe('heavy')
    if (b.ok) await g.settle(b.reservation, false)
    expect((await g.admit(request({ now: DAY1 + 180_000 }))).ok).toBe(true)
  })

  it('settles technical-batch style calls at the units actually returned', async () => {
    const g = guard('units')
    const r = await g.admit(request({ heavy: false, endpoint: 'technical-batch', units: 500, heavyPerDay: 0 }))
    if (!r.ok) throw new Error('refused')
    await g.settle(r.reservation, true, 420)
    const u = await g.usage({ now: DAY1, perMinute: 300, heavyPerDay: 0, packUnits: null })
    expect(u.endpoints['technical-batch']).toEqual({ units: 420, calls: 1 })
  })

  it('resets daily counters at midnight (alarm), idempotently', async () => {
    const g = guard('reset')
    await g.admit(request())
    await g.admit(request({ now: DAY1 + 60_000 }))
    expect((await g.admit(request({ now: DAY1 + 120_000 }))).ok).toBe(false)
    // The next day's call moves the object's clock; the alarm then drops yesterday's counters.
    const next = await g.admit(request({ now: DAY2 }))
    expect(next.ok).toBe(true)
    expect(await runDurableObjectAlarm(g)).toBe(true)
    const once = await g.counterRows()
    expect(once.filter(([k]) => String(k).startsWith('heavy:'))).toEqual([['heavy:2026-11-20', 1]])
    expect(once.filter(([k]) => String(k).startsWith('units:'))).toEqual([['units:2026-11-19:market-kline', 1000], ['units:2026-11-20:market-kline', 500]])
    await runInDurableObject(g, async (o) => o.alarm())
    expect(await g.counterRows()).toEqual(once)
  })

  it('keeps the allow-list and refuses other IPs', async () => {
    const g = guard('ips')
    await g.replaceAllowList(['203.0.113.1', '2001:db8::1'])
    expect(await g.allowList()).toEqual(['2001:db8::1', '203.0.113.1'])
    expect((await g.admit(request({ heavy: false }))).ok).toBe(true)
    const other = await g.admit(request({ heavy: false, ip: '198.51.100.9' }))
    expect(other.ok).toBe(false)
    if (!other.ok) expect(other.reason).toBe('ip')
    await g.clearAllowList()
    expect((await g.admit(request({ heavy: false, ip: '198.51.100.9' }))).ok).toBe(true)
  })

  it('leases a slice of the minute with an admitted call, counted at once, and takes back what was not used within that minute', async () => {
    const g = guard('lease')
    const quote = request({ heavy: false, endpoint: 'quote', units: 1, perMinute: 120 })
    const r = await g.admit({ ...quote, lease: 99 })
    if (!r.ok) throw new Error('refused')
    // A quarter of the 119 left after this call, at most 15; the headers show this call's minute.
    expect(r.leased).toEqual({ calls: 15, guardRemaining: 104, allow: [] })
    expect(r.window.remaining).toBe(119)
    const usage = () => g.usage({ now: DAY1, perMinute: 120, heavyPerDay: 0, packUnits: null })
    expect((await usage()).minute.remaining).toBe(104)
    // Ten calls used and reported, five handed back.
    await g.report([{ day: '2026-11-19', endpoint: 'quote', units: 10, calls: 10 }])
    const back = await g.usage({ now: DAY1, perMinute: 120, heavyPerDay: 0, packUnits: null, returned: { win: r.reservation.win, calls: 5 } })
    expect(back.minute.remaining).toBe(109)
    expect(back.endpoints).toEqual({ quote: { units: 11, calls: 11 } })
    // Calls of a past minute lapsed with it: nothing to take back.
    const later = await g.usage({ now: DAY1 + 60_000, perMinute: 120, heavyPerDay: 0, packUnits: null, returned: { win: r.reservation.win, calls: 5 } })
    expect(later.minute.remaining).toBe(120)
    expect((await usage()).minute.remaining).toBe(109)
  })

  it('never leases to a buyout pack, and never past the limit', async () => {
    const pack = await guard('pack-lease').admit({ ...request({ heavy: false, units: 1, packUnits: 100 }), lease: 15 })
    expect(pack.ok && pack.leased).toBeNull()
    const g = guard('lease-limit')
    const trial = request({ heavy: false, endpoint: 'quote', units: 1, perMinute: 30 })
    let counted = 0
    for (;;) {
      const r = await g.admit({ ...trial, lease: 15 })
      if (!r.ok) break
      counted += 1 + (r.leased?.calls ?? 0)
    }
    expect(counted).toBe(30)
  })
})

import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { KeyAdmitRequest, KeyGuard } from './key-guard'
import { keyGuardOf, KeyLeases, type KeyAdmission, type KeyGuardCalls } from './key-lease'

// Several isolates are several KeyLeases against one object, as several Workers isolates are.
// A report delay of 0 sends owed usage as soon as the settling call lets go.
const NOW = Date.parse('2026-11-20T10:30:10+08:00')
const TRIAL = 30

const request = (over: Partial<KeyAdmitRequest> = {}): KeyAdmitRequest => ({
  now: NOW,
  ip: '203.0.113.1',
  endpoint: 'quote',
  units: 1,
  heavy: false,
  perMinute: TRIAL,
  heavyPerDay: 0,
  packUnits: null,
  ...over,
})

const usageRequest = { now: NOW, perMinute: TRIAL, heavyPerDay: 0, packUnits: null }

/** A key's object, counting the requests made to it. */
function guardOf(name: string) {
  const asked = { admit: 0, report: 0 }
  const guard = (): KeyGuardCalls => {
    const g = keyGuardOf(env.KEY_GUARD, name)
    return {
      admit: (r) => (asked.admit++, g.admit(r)),
      settle: (r, ok, units) => g.settle(r, ok, units),
      report: (u) => (asked.report++, g.report(u)),
      usage: (r) => g.usage(r),
    }
  }
  return { name, guard, asked }
}
type Guard = ReturnType<typeof guardOf>

/** `n` calls at once, call i through isolate i mod the number of isolates. */
const burst = (isolates: KeyLeases[], g: Guard, n: number, over: Partial<KeyAdmitRequest> = {}) =>
  Promise.all(Array.from({ length: n }, (_, i) => isolates[i % isolates.length].admit(g.guard, g.name, request(over))))

/** `n` calls one after another through one isolate. */
async function oneByOne(isolate: KeyLeases, g: Guard, n: number, over: Partial<KeyAdmitRequest> = {}): Promise<KeyAdmission[]> {
  const rs: KeyAdmission[] = []
  for (let i = 0; i < n; i++) rs.push(await isolate.admit(g.guard, g.name, request(over)))
  return rs
}

const admitted = (rs: KeyAdmission[]) => rs.filter((r): r is Extract<KeyAdmission, { ok: true }> => r.ok)
const handBack = (isolates: KeyLeases[], g: Guard) => Promise.all(isolates.map((i) => i.usage(g.guard, g.name, usageRequest)))

describe('keyed admission by leases', () => {
  it('admits exactly the limit of 100 calls at once through one isolate', async () => {
    const g = guardOf('lease-one')
    const rs = await burst([new KeyLeases(0)], g, 100)
    expect(admitted(rs)).toHaveLength(TRIAL)
    expect(rs.filter((r) => !r.ok && r.reason === 'minute')).toHaveLength(100 - TRIAL)
  })

  it('admits exactly the limit when refusals arrive before the slices the object granted earlier', async () => {
    const g = guardOf('lease-late')
    const slow = (): KeyGuardCalls => {
      const inner = g.guard()
      const late = (ms: number) => new Promise((r) => setTimeout(r, ms))
      return { ...inner, admit: async (r) => inner.admit(r).then(async (a) => (a.ok && a.leased ? (await late(50), a) : a)) }
    }
    const isolate = new KeyLeases(0)
    const rs = await Promise.all(Array.from({ length: 60 }, () => isolate.admit(slow, g.name, request())))
    expect(admitted(rs)).toHaveLength(TRIAL)
  })

  it('asks the object for fewer than one call in ten of a busy unlimited key', async () => {
    const g = guardOf('lease-busy')
    const rs = await oneByOne(new KeyLeases(0), g, 601, { perMinute: 600 })
    expect(admitted(rs)).toHaveLength(600)
    expect(g.asked.admit).toBeLessThan(60)
  })

  it('never admits more than the limit across several isolates: one may be refused early while others hold slices, which go back with their next request', async () => {
    const g = guardOf('lease-several')
    const isolates = Array.from({ length: 4 }, () => new KeyLeases(0))
    const first = admitted(await burst(isolates, g, 8)).length
    expect(first).toBe(8)
    // The first isolate alone: it uses its slices and what the object has left, not the others' slices.
    const alone = admitted(await burst([isolates[0]], g, 100)).length
    expect(first + alone).toBeLessThan(TRIAL)
    await handBack(isolates.slice(1), g)
    const rest = admitted(await burst([isolates[0]], g, 100)).length
    expect(first + alone + rest).toBe(TRIAL)
    // 100 at once across the four: never past the limit, in this minute or the next.
    expect(admitted(await burst(isolates, g, 100)).length).toBe(0)
    const next = admitted(await burst(isolates, g, 100, { now: NOW + 60_000 })).length
    expect(next).toBeLessThanOrEqual(TRIAL)
    expect(next).toBeGreaterThan(TRIAL / 2)
  })

  it('keeps usage and refunds exact: a call from a slice is billed when it ends well, an ok:false one goes back to the slice', async () => {
    const g = guardOf('lease-usage')
    const isolates = [new KeyLeases(0), new KeyLeases(0)]
    // Each isolate: its first call asks the object (and gets a slice), the next five come from the slice.
    const calls = [...(await oneByOne(isolates[0], g, 6)), ...(await oneByOne(isolates[1], g, 6))]
    expect(g.asked.admit).toBe(2)
    const batches = await burst(isolates, g, 2, { endpoint: 'technical-batch', units: 500 })
    expect([...calls, ...batches].every((r) => r.ok)).toBe(true)
    // 8 quote calls end well and 4 ok:false; the batches are billed by the symbols they returned.
    await Promise.all(admitted(calls).map((r, i) => r.settle(i % 3 !== 0, undefined)))
    await Promise.all(admitted(batches).map((r) => r.settle(true, 420)))
    await handBack(isolates, g)
    const report = await isolates[0].usage(g.guard, g.name, usageRequest)
    expect(report.endpoints).toEqual({ quote: { units: 8, calls: 8 }, 'technical-batch': { units: 840, calls: 2 } })
    expect(report.units_today).toBe(848)
    expect(report.minute.remaining).toBe(TRIAL - 10)
  })

  it('sends the usage of calls from a slice in one report when no other request carries it', async () => {
    const g = guardOf('lease-report')
    const isolate = new KeyLeases(0)
    await oneByOne(isolate, g, 1)
    const [a, b] = admitted(await burst([isolate], g, 2))
    await Promise.all([a.settle(true, undefined), b.settle(true, undefined)])
    expect(g.asked).toEqual({ admit: 1, report: 1 })
    // Another isolate reads it: the first call counted at the object, the two from the slice reported.
    expect((await new KeyLeases(0).usage(g.guard, g.name, usageRequest)).endpoints).toEqual({ quote: { units: 3, calls: 3 } })
  })

  it('leases neither heavy calls nor buyout packs: each asks the object, whose quotas stay exact', async () => {
    const isolate = new KeyLeases(0)
    const heavy = guardOf('lease-heavy')
    const rs = await oneByOne(isolate, heavy, 3, { endpoint: 'market-kline', units: 500, heavy: true, perMinute: 300, heavyPerDay: 2 })
    expect(rs.map((r) => r.ok || r.reason)).toEqual([true, true, 'heavy'])
    expect(heavy.asked.admit).toBe(3)
    const pack = guardOf('lease-pack')
    const packs = await oneByOne(isolate, pack, 8, { packUnits: 5 })
    expect(packs.map((r) => r.ok || r.reason)).toEqual([true, true, true, true, true, 'pack', 'pack', 'pack'])
    expect(pack.asked.admit).toBe(8)
  })

  it('uses a slice only under the limit it was granted for, and only from an address on the allow-list it came with', async () => {
    const g = guardOf('lease-checks')
    await (env.KEY_GUARD.getByName(g.name) as DurableObjectStub<KeyGuard>).replaceAllowList(['203.0.113.1'])
    const isolate = new KeyLeases(0)
    await oneByOne(isolate, g, 2)
    expect(g.asked.admit).toBe(1)
    // A tier change: the slice of the 30-a-minute limit is not used under 120; the object answers for the new limit.
    expect(await isolate.admit(g.guard, g.name, request({ perMinute: 120 }))).toMatchObject({ ok: true, window: { limit: 120 } })
    expect(g.asked.admit).toBe(2)
    expect(await isolate.admit(g.guard, g.name, request({ perMinute: 120 }))).toMatchObject({ ok: true })
    expect(g.asked.admit).toBe(2)
    expect(await isolate.admit(g.guard, g.name, request({ perMinute: 120, ip: '198.51.100.9' }))).toMatchObject({ ok: false, reason: 'ip' })
    expect(g.asked.admit).toBe(3)
  })
})

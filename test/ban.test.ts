import { Validator } from '@cfworker/json-schema'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, fault, getJson, resetWorld, upstreamRequests } from './helpers'

/**
 * A host that bans us is backed off (src/channels/circuit-breaker.ts): with Eastmoney in the
 * emulator's `ban` (a 403 on every request), a route with another channel answers from it, one
 * without answers ok:false naming the ban, Eastmoney sees at most one request of ours per backoff
 * step as the emulator's clock crosses the steps, and /v1/status says so; once the ban is lifted,
 * the probe at the end of the step succeeds and the host serves again.
 */
const T0 = Date.parse('2026-11-20T10:30:00+08:00')
const KLINE = '/v1/kline?code=sh600519&period=day&count=5'
/** A sector's K-line: Eastmoney is its only channel (src/channels/channel-tables.ts). */
const SECTOR = '/v1/kline?code=pt0477&period=day&count=5'

async function clockAt(ms: number): Promise<void> {
  const res = await call('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: new Date(T0 + ms).toISOString() }) })
  expect(res.status).toBe(200)
  await res.arrayBuffer()
}

let statusSchema: Validator

async function eastmoneyHost(): Promise<Record<string, unknown>> {
  const { status, body, headers } = await getJson('/v1/status')
  expect(status).toBe(200)
  expect(headers.get('cache-control')).toBe('public, max-age=5')
  // Every answer is the one /openapi.json describes.
  const checked = statusSchema.validate(body)
  expect(checked.errors, JSON.stringify(checked.errors.slice(0, 3))).toEqual([])
  return body.hosts.find((h: { channel: string }) => h.channel === 'eastmoney')
}

/** Eastmoney's requests over `n` calls of the sector route (which only Eastmoney serves). */
async function sectorCalls(n: number): Promise<number> {
  const before = (await upstreamRequests()).eastmoney
  for (let i = 0; i < n; i++) {
    const { status } = await getJson(SECTOR)
    expect(status).toBe(200)
  }
  return (await upstreamRequests()).eastmoney - before
}

describe('Eastmoney bans us', () => {
  beforeAll(async () => {
    const doc = (await getJson('/openapi.json')).body
    statusSchema = new Validator({ $ref: '#/components/schemas/UpstreamStatus', components: doc.components }, '2020-12')
    await resetWorld('2026-11-20T10:30:00+08:00')
    await fault('eastmoney', 'ban')
  })

  it('a route with another channel answers from it; one without answers ok:false naming the ban', async () => {
    const kline = await getJson(KLINE)
    expect(kline.body).toMatchObject({ ok: true, source: 'emulator:tencent' })
    const sector = await getJson(SECTOR)
    expect(sector.status).toBe(200)
    expect(sector.body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
    expect(sector.body.error).toMatch(/eastmoney: banned: backing off for another \d+ s/)
  })

  it('/v1/status says backing_off until the end of the first step (30 s ± 20 %), and which channel serves each family', async () => {
    const host = await eastmoneyHost()
    expect(host).toMatchObject({ state: 'backing_off', backoff_step: 1, budget_per_minute: null })
    const until = Date.parse(String(host.backoff_until))
    expect(until - T0).toBeGreaterThanOrEqual(24_000)
    expect(until - T0).toBeLessThanOrEqual(36_000)
    expect((host.error_rate as { failures: number }).failures).toBeGreaterThanOrEqual(1)
    const { body } = await getJson('/v1/status')
    expect(body.families.find((f: { key: string }) => f.key === 'kline:cn:day')).toEqual({ key: 'kline:cn:day', chain: ['eastmoney', 'tencent', 'sina'], channel: 'tencent' })
    expect(body.families.find((f: { key: string }) => f.key === 'kline:sector:day')).toMatchObject({ channel: null })
  })

  it('Eastmoney sees no request within a step and one probe when it ends; a failed probe doubles the step', async () => {
    await clockAt(23_000)
    expect(await sectorCalls(5)).toBe(0)
    await clockAt(37_000) // past the first step, whatever its jitter
    expect(await sectorCalls(5)).toBe(1)
    const host = await eastmoneyHost()
    expect(host).toMatchObject({ state: 'backing_off', backoff_step: 2 })
    await clockAt(37_000 + 47_000) // inside the second step (60 s ± 20 %)
    expect(await sectorCalls(5)).toBe(0)
  })

  it('once the ban is lifted, the probe at the end of the step succeeds and the host serves again', async () => {
    await call('/__emulator/faults/eastmoney', { method: 'DELETE' }).then((r) => r.arrayBuffer())
    await clockAt(37_000 + 73_000) // past the second step
    const before = (await upstreamRequests()).eastmoney
    const { body } = await getJson(SECTOR)
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    // The probe is one call: the day bars, then the live line laid over today (src/services/bars.ts).
    expect((await upstreamRequests()).eastmoney - before).toBe(2)
    expect(await eastmoneyHost()).toMatchObject({ state: 'serving', backoff_until: null, backoff_step: null, last_success: '2026-11-20T10:31:50+08:00' })
  })
})

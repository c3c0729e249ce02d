import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { hashKey, kvKeyOf } from '../src/access/keys'
import { KEY_RECORDS } from '../src/access/key-lookup'
import { services } from '../src/emulator/worker'
import { TIER_LIMITS } from '../src/access/tiers'
import { call, fault, getJson, makeKey, passCadence, resetWorld } from './helpers'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
/** A cheap counted call. */
const CHEAP = '/v1/kline?code=sh600519&count=1'

describe('keys', () => {
  beforeEach(() => resetWorld())

  it('accepts a key in the Authorization header and in ?key=, and serves under its tier', async () => {
    const key = await makeKey('pro')
    expect((await getJson(CHEAP, bearer(key))).body.tier).toBe('pro')
    expect((await getJson(`${CHEAP}&key=${key}`, { anonymous: true })).body.tier).toBe('pro')
  })

  it('accepts a key in X-API-Key like Authorization: Bearer', async () => {
    const key = await makeKey('pro')
    const r = await getJson(CHEAP, { anonymous: true, headers: { 'x-api-key': key } })
    expect(r.status).toBe(200)
    expect(r.body.tier).toBe('pro')
    // The same key in two places is one key, not a conflict.
    expect((await getJson(CHEAP, { headers: { authorization: `Bearer ${key}`, 'x-api-key': key } })).body.tier).toBe('pro')
  })

  it('answers 400 KEY_CONFLICT naming the places when two carry different keys', async () => {
    const [a, b] = [await makeKey('pro'), await makeKey('trial')]
    const r = await getJson(`${CHEAP}&key=${b}`, { headers: { authorization: `Bearer ${a}`, 'x-api-key': a } })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: 'KEY_CONFLICT', headers: ['Authorization', 'X-API-Key', '?key='] })
    expect(r.body.error).toContain('X-API-Key')
  })

  it('answers a Bearer header without exactly one key with 401 KEY_INVALID saying it is malformed, never KEY_REQUIRED', async () => {
    const key = await makeKey('pro')
    for (const path of [CHEAP, '/v1/usage']) {
      const { status, body } = await getJson(path, { anonymous: true, headers: { authorization: `Bearer ${key} ${key}` } })
      expect(status, path).toBe(401)
      expect(body).toMatchObject({ code: 'KEY_INVALID', error: expect.stringContaining('Authorization header is malformed') })
    }
  })

  it('answers an unknown key with 401 {error, code}', async () => {
    const { status, body } = await getJson(CHEAP, bearer('mk_not-a-real-key'))
    expect(status).toBe(401)
    expect(body).toMatchObject({ code: 'KEY_INVALID', error: expect.stringContaining('unknown') })
  })

  it('stops a revoked key once its cached record expires, though the isolate still holds a slice of its minute', async () => {
    const key = await makeKey('pro')
    expect((await call(CHEAP, bearer(key))).status).toBe(200) // leases a slice of the minute
    const k = kvKeyOf(await hashKey(key))
    const record = JSON.parse((await env.KEYS.get(k))!)
    await env.KEYS.put(k, JSON.stringify({ ...record, status: 'revoked' }))
    services.caches.of(KEY_RECORDS).clear() // what the record cache's expiry does, at most a minute after the revocation
    expect((await getJson(CHEAP, bearer(key))).status).toBe(401)
  })

  it('applies a tier change with the record: the slice leased under the old limit goes back unused', async () => {
    const key = await makeKey('pro')
    expect((await call(CHEAP, bearer(key))).headers.get('x-ratelimit-limit')).toBe('300')
    const k = kvKeyOf(await hashKey(key))
    const record = JSON.parse((await env.KEYS.get(k))!)
    await env.KEYS.put(k, JSON.stringify({ ...record, tier: 'standard' }))
    services.caches.of(KEY_RECORDS).clear()
    const res = await call(CHEAP, bearer(key))
    await res.text()
    expect(res.headers.get('x-ratelimit-limit')).toBe('120')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('118') // two calls this minute, nothing held back
  })

  it('answers a revoked key with 401', async () => {
    const key = await makeKey('pro')
    const k = kvKeyOf(await hashKey(key))
    const record = JSON.parse((await env.KEYS.get(k))!)
    await env.KEYS.put(k, JSON.stringify({ ...record, status: 'revoked' }))
    services.caches.of(KEY_RECORDS).clear()
    const { status, body } = await getJson(CHEAP, bearer(key))
    expect(status).toBe(401)
    expect(body.error).toContain('revoked')
  })

  it('asks for a key on a pro-group endpoint called without one', async () => {
    for (const path of ['/v1/usage', '/v1/ip-whitelist']) {
      const { status, body } = await getJson(path, { anonymous: true })
      expect(status).toBe(401)
      expect(body).toMatchObject({ code: 'KEY_REQUIRED' })
      expect(typeof body.error).toBe('string')
      expect(body.error).toMatch(/key is required/)
      // And how to get one, in a few words: the command, with the tier the endpoint needs.
      expect(body.error).toContain(`no key yet? create one with \`npm run key -- create --tier ${body.min_tier}\` (README, "First, a key"), or ask the service's operator`)
    }
  })

  it('refuses a key below the minimum tier with 403 naming the tier it needs', async () => {
    const standard = await makeKey('standard')
    const r = await getJson('/v1/ip-whitelist', bearer(standard))
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: 'TIER_TOO_LOW', min_tier: 'unlimited' })
    expect(r.body.error).toContain('unlimited')
  })

  it('needs tier standard for minute K-lines: 401 anonymous, 403 trial, 200 standard', async () => {
    const path = '/v1/kline?code=sh600519&period=m5&count=5'
    expect((await getJson(path, { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.30' } })).status).toBe(401)
    const trial = await getJson(path, bearer(await makeKey('trial')))
    expect(trial.status).toBe(403)
    expect(trial.body.error).toContain('standard')
    expect((await getJson(path, bearer(await makeKey('standard')))).status).toBe(200)
  })
})

// Slow: hundreds of requests through the test harness; on a loaded two-core machine the file took minutes.
describe('per-minute limits are exact under concurrency', { timeout: 300_000 }, () => {
  beforeEach(() => resetWorld())

  it('100 calls at once with one key admit exactly its limit, whatever slices of the minute the isolate leased; usage shows exactly those', async () => {
    const key = await makeKey('trial')
    const limit = TIER_LIMITS.trial.perMinute
    const responses = await Promise.all(Array.from({ length: 100 }, () => call(CHEAP, bearer(key))))
    const statuses = await Promise.all(responses.map(async (r) => (await r.text(), r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - limit)
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = (await getJson('/v1/usage', bearer(key))).body.data
    expect(usage.endpoints).toEqual({ kline: { units: limit, calls: limit } })
    expect(usage.minute).toMatchObject({ limit, remaining: 0 })
  })

  it('a call that ends in 422 never takes a slot: 50 valid and 50 invalid at once keep the whole allowance for the valid ones', async () => {
    const key = await makeKey('trial')
    const limit = TIER_LIMITS.trial.perMinute
    const paths = Array.from({ length: 100 }, (_, i) => (i % 2 ? '/v1/quote?code=sh600519&count=5000' : '/v1/quote?code=sh600519&count=1'))
    const responses = await Promise.all(paths.map((p) => call(p, bearer(key))))
    const statuses = await Promise.all(responses.map(async (r) => (await r.text(), r.status)))
    const valid = statuses.filter((_, i) => i % 2 === 0)
    const invalid = statuses.filter((_, i) => i % 2 === 1)
    expect(invalid.every((s) => s === 422)).toBe(true)
    expect(valid.filter((s) => s === 200)).toHaveLength(limit)
    expect(valid.filter((s) => s === 429)).toHaveLength(50 - limit)
    const usage = await getJson('/v1/usage', bearer(key))
    expect(usage.body.data.minute).toMatchObject({ limit, remaining: 0 })
  })

  // Unlimited (600) is checked against the Durable Object directly in src/access/key-guard.test.ts:
  // 600+ concurrent requests through the test harness take minutes, the object itself about a second.
  it.each(['trial', 'standard', 'pro'] as const)('%s admits exactly its limit of parallel calls', async (tier) => {
    const key = await makeKey(tier)
    const limit = TIER_LIMITS[tier].perMinute
    const path = CHEAP
    const responses = await Promise.all(Array.from({ length: limit + 5 }, () => call(path, bearer(key))))
    const statuses = await Promise.all(responses.map(async (r) => (await r.text(), r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit)
    expect(statuses.filter((s) => s === 429)).toHaveLength(5)
    const refused = responses.find((r) => r.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(limit))
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  })
})

describe('usage and refunds', () => {
  beforeEach(() => resetWorld())

  it('shows the X-RateLimit headers on every counted response', async () => {
    const key = await makeKey('pro')
    const res = await call(CHEAP, bearer(key))
    await res.text()
    expect(res.headers.get('x-ratelimit-limit')).toBe('300')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('299')
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
  })

  it('does not count a call that ends ok:false (the reservation is refunded)', async () => {
    const key = await makeKey('standard')
    await getJson(CHEAP, bearer(key))
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http')
    // The K-line's live line and past bars would answer the quote within the cadence: let it pass.
    await passCadence()
    const failed = await getJson('/v1/quote?code=sh600519', bearer(key))
    expect(failed.body.ok).toBe(false)
    const invalid = await getJson('/v1/kline?code=nope', bearer(key))
    expect(invalid.status).toBe(422)
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = (await getJson('/v1/usage', bearer(key))).body.data
    expect(usage.endpoints).toEqual({ kline: { units: 1, calls: 1 } })
    expect(usage.minute).toEqual({ limit: 120, remaining: 119, reset_seconds: expect.any(Number) })
  })

  it('reports tier, units by endpoint, the minute window, heavy calls and the pack', async () => {
    const key = await makeKey('pro', { pack_units: 10 })
    await getJson(CHEAP, bearer(key))
    await getJson('/v1/quote?code=sz000001&count=2', bearer(key))
    await new Promise((r) => setTimeout(r, 50))
    const { status, body } = await getJson('/v1/usage', bearer(key))
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      tier: 'pro',
      day: '2026-11-20',
      endpoints: { kline: { units: 1, calls: 1 }, quote: { units: 1, calls: 1 } },
      units_today: 2,
      heavy: { limit: 200, used: 0, left: 200 },
      pack: { cap: 10, used: 2, left: 8 },
    })
  })

  it('stops a buyout pack at its cap with 403', async () => {
    const key = await makeKey('standard', { pack_units: 3 })
    for (let i = 0; i < 3; i++) expect((await call(CHEAP, bearer(key))).status).toBe(200)
    const { status, body } = await getJson(CHEAP, bearer(key))
    expect(status).toBe(403)
    expect(body).toMatchObject({ code: 'PACK_EXHAUSTED' })
  })
})

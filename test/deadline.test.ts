/**
 * Every request answers within the request deadline (src/http/deadline.ts), whatever hangs
 * underneath, with a 504 `ok:false` envelope naming the stage, and costs nothing. The emulator
 * makes things hang: a fault `hang` (an upstream that never answers and ignores its AbortSignal)
 * and `PUT /__emulator/hang` (KV, R2 and Durable Object bindings that never answer). The bound is
 * shortened to BOUND_MS for these tests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call, fault, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'

const BOUND_MS = 300
/** What a loaded two-core machine may add to the bound before the answer is read. */
const SLACK_MS = 700

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })
const anon = (ip: string) => ({ anonymous: true, headers: { 'cf-connecting-ip': ip } })

async function send(method: string, path: string, body?: unknown) {
  const res = await call(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
}

const hang = (...bindings: string[]) => send('PUT', '/__emulator/hang', { bindings })
/** The bindings answer, but only after `ms`. */
const delay = (ms: number, ...bindings: string[]) => send('PUT', '/__emulator/hang', { bindings, ms })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const unhang = () => send('DELETE', '/__emulator/hang')

/** GET `path`, with how long the answer took. */
async function timed(path: string, init?: Parameters<typeof getJson>[1]) {
  const started = Date.now()
  const r = await getJson(path, init)
  return { ...r, ms: Date.now() - started }
}

/** Settlement (the refund) runs in waitUntil after the answer. */
const settled = () => new Promise((r) => setTimeout(r, 50))

async function usageOf(key: string) {
  await settled()
  return (await getJson('/v1/usage', bearer(key))).body.data
}

/** The documented 504 body. */
function expectDeadline(r: { status: number; body: any; ms: number; headers: Headers }, stage: string | RegExp, endpoint: string) {
  expect(r.status).toBe(504)
  expect(r.body).toMatchObject({ ok: false, endpoint, source: 'none', data: null, code: 'DEADLINE_EXCEEDED', stage })
  expect(r.body.error).toMatch(/not counted/)
  expect(r.body.elapsed_ms).toBeGreaterThanOrEqual(BOUND_MS - 5)
  expect(r.ms).toBeLessThan(BOUND_MS + SLACK_MS)
  expect(r.headers.get('access-control-allow-origin')).toBe('*')
}

/** Calls `path` with the deadline shortened to BOUND_MS (then restored: cold Durable Objects may take longer). */
async function cutOff(path: string, init?: Parameters<typeof getJson>[1]) {
  await send('PUT', '/__emulator/deadline', { ms: BOUND_MS })
  try {
    return await timed(path, init)
  } finally {
    await send('DELETE', '/__emulator/deadline')
  }
}

/** A cheap counted call, so the key's Durable Object and KV record are warm before a cut-off call. */
const CHEAP = '/v1/kline?code=sh600519&count=1'

beforeEach(() => resetWorld())

afterEach(async () => {
  await unhang()
  await send('DELETE', '/__emulator/deadline')
})

describe('request deadline: each dependency hangs, the request still answers and costs nothing', () => {
  it('the KeyGuard Durable Object never answers admission', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    await hang('KEY_GUARD')
    const r = await cutOff(CHEAP, bearer(key))
    expectDeadline(r, 'admit', 'kline')
    expect(r.body.tier).toBe('pro')
    await unhang()
    expect(await usageOf(key)).toMatchObject({ endpoints: before.endpoints, units_today: before.units_today })
  })

  it('the KeyGuard answers admission after the deadline: the reservation it made is refunded, once', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    expect(before.endpoints).toEqual({ kline: { units: 1, calls: 1 } })
    await delay(BOUND_MS + 300, 'KEY_GUARD')
    expectDeadline(await cutOff(CHEAP, bearer(key)), 'admit', 'kline')
    await unhang()
    await sleep(600) // the late admission arrives, is refunded at once, and the call stops
    const after = await usageOf(key)
    // Not counted, and not refunded twice (which would take the earlier call away too).
    expect(after.endpoints).toEqual(before.endpoints)
    expect(after.minute.remaining).toBe(before.minute.remaining)
  })

  it('a handler that finishes after the deadline does not bill the call it was refunded for', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    await fault('tencent', 'slow', { ms: BOUND_MS + 200 })
    expectDeadline(await cutOff('/v1/quote?code=sh600519&count=1', bearer(key)), 'upstream:tencent', 'quote')
    await sleep(500) // the late handler ends ok:true and tries to settle
    const after = await usageOf(key)
    expect(after.endpoints).toEqual(before.endpoints)
    expect(after.minute.remaining).toBe(before.minute.remaining)
  })

  it('the AnonGuard Durable Object never answers an anonymous admission', async () => {
    await hang('ANON_GUARD')
    expectDeadline(await cutOff('/v1/quote?code=sh600519&count=1', anon('198.51.100.7')), 'admit', 'quote')
  })

  it('KV never answers the key lookup; an abandoned shared read does not hold the key up for ever', async () => {
    const key = await makeKey('pro')
    await hang('KEYS')
    expectDeadline(await cutOff(CHEAP, bearer(key)), 'identify', 'kline')
    await unhang()
    // A call joining the abandoned read still answers within the bound…
    const joined = await cutOff(CHEAP, bearer(key))
    expect(joined.ms).toBeLessThan(BOUND_MS + SLACK_MS)
    // …and once the read is older than any real read takes (1 s), the key works again; nothing was counted before.
    await new Promise((r) => setTimeout(r, 1_100))
    const ok = await timed(CHEAP, bearer(key))
    expect(ok.status).toBe(200)
    expect(ok.body.ok).toBe(true)
    expect((await usageOf(key)).endpoints).toEqual({ kline: { units: 1, calls: 1 } })
  })

  it('KV never answers the anonymous cache: refunded, so the caller still has its second call of the minute', async () => {
    const ip = '198.51.100.8'
    expect((await getJson('/v1/quote?code=sh600519&count=1', anon(ip))).status).toBe(200)
    await hang('CACHE')
    expectDeadline(await cutOff('/v1/quote?code=sh600519&count=2', anon(ip)), 'cache', 'quote')
    await unhang()
    await settled()
    expect((await getJson('/v1/quote?code=sh600519&count=3', anon(ip))).status).toBe(200)
    expect((await getJson('/v1/quote?code=sh600519&count=4', anon(ip))).status).toBe(429)
  })

  it('R2 never answers a history read (kline-full)', async () => {
    const key = await makeKey('standard')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    await hang('STORE')
    expectDeadline(await cutOff('/v1/kline-full?code=sh600519', bearer(key)), 'store', 'kline-full')
    await unhang()
    expect((await usageOf(key)).endpoints).toEqual(before.endpoints)
  })

  it('R2 never answers the day blob read started during admission (market-kline): the heavy call is refunded', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    await hang('STORE')
    expectDeadline(await cutOff('/v1/market-kline?date=2026-11-19', bearer(key)), 'store', 'market-kline')
    await unhang()
    const after = await usageOf(key)
    expect(after.endpoints).toEqual(before.endpoints)
    expect(after.heavy).toMatchObject({ used: 0 })
  })

  it('an upstream never answers and ignores its AbortSignal', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    const before = await usageOf(key)
    await fault('tencent', 'hang')
    expectDeadline(await cutOff('/v1/quote?code=sh600519&count=1', bearer(key)), 'upstream:tencent', 'quote')
    expect((await usageOf(key)).endpoints).toEqual(before.endpoints)
  })

  it('bars another request is loading never arrive: later calls wait for them a bounded time, then load their own', async () => {
    const key = await makeKey('pro')
    await getJson(CHEAP, bearer(key))
    await fault('tencent', 'hang')
    // Cut off while tencent's bars are loading: the shared entry of those bars never settles.
    expectDeadline(await cutOff('/v1/quote?code=sh600519', bearer(key)), 'upstream:tencent', 'quote')
    await send('DELETE', '/__emulator/faults/tencent')
    // A call that joins the abandoned load answers within the bound…
    const joined = await cutOff('/v1/quote?code=sh600519', bearer(key))
    expect(joined.ms).toBeLessThan(BOUND_MS + SLACK_MS)
    expect([200, 504]).toContain(joined.status)
    if (joined.status === 504) expect(joined.body.stage).toBe('upstream:tencent') // waiting on tencent, through the abandoned load
    // …and with the normal bound, a call waits at most the join bound (5 s) and is served by tencent.
    const served = await timed('/v1/quote?code=sh600519', bearer(key))
    expect(served.status).toBe(200)
    expect(served.body).toMatchObject({ ok: true, source: 'emulator:tencent' })
    expect(served.ms).toBeLessThan(5_000 + SLACK_MS * 2)
  })

  it('a route with no I/O is unaffected, and the bound is documented in /openapi.json', async () => {
    const r = await timed('/v1/health')
    expect(r.status).toBe(200)
    const doc = (await getJson('/openapi.json')).body
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) expect(op.responses['504'], path).toBeTruthy()
    }
    expect(doc.info.description).toMatch(/DEADLINE_EXCEEDED/)
  })
})

describe("request deadline: docs/emulator.md's control sequence, many times, beside other calls", () => {
  it('never waits longer than the bound', async () => {
    const key = await makeKey('unlimited')
    const answers: Array<{ path: string; status: number; ms: number; body: any }> = []
    const get = async (path: string, init?: Parameters<typeof getJson>[1]) => {
      const r = await timed(path, init)
      answers.push({ path, status: r.status, ms: r.ms, body: r.body })
    }
    const sequence = async () => {
      await send('PUT', '/__emulator/faults/tencent', { kind: 'timeout' })
      await get('/v1/quote?code=sh600519', anon('203.0.113.9'))
      await send('PUT', '/__emulator/clock', { now: SESSION_CLOCK })
      await get('/v1/quote?code=sh600519', bearer(key))
      await send('POST', '/__emulator/reset')
      await get('/v1/quote?code=sh600519&count=1', bearer(key))
    }
    const others = async () => {
      for (let i = 0; i < 4; i++) {
        await get('/v1/kline?code=sz000001&count=5', bearer(key))
        await get('/v1/health')
        await get(`/v1/quote?code=sh601318&count=${i + 1}`, bearer(key))
      }
    }
    await getJson('/v1/quote?code=sh600519', bearer(key)) // warm the key's Durable Object
    await send('PUT', '/__emulator/deadline', { ms: BOUND_MS })
    for (let round = 0; round < 3; round++) await Promise.all([sequence(), sequence(), sequence(), others()])
    expect(answers.length).toBe(3 * (3 * 3 + 12))
    for (const a of answers) {
      expect(a.ms, `${a.path} took ${a.ms} ms`).toBeLessThan(BOUND_MS + SLACK_MS)
      // Either the route's own answer or the documented deadline answer; never a 500.
      if (a.status === 504) expect(a.body.code).toBe('DEADLINE_EXCEEDED')
      else expect([200, 429]).toContain(a.status)
    }
    // Calls that touch no faulted upstream are served; quotes are served whenever no fault is set.
    for (const a of answers.filter((a) => !a.path.startsWith('/v1/quote'))) expect(a.status, a.path).toBe(200)
    expect(answers.filter((a) => a.path.startsWith('/v1/quote') && a.status === 200).length).toBeGreaterThan(0)
  })
})

import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { anonShardOf, type AnonGuard } from '../src/access/anon-guard'
import { solveChallenge } from '../src/access/pow-solver'
import { call, fault, getJson, passCadence, resetWorld, SESSION_CLOCK } from './helpers'

let ipCounter = 0
/** A fresh client address per test, so each starts with an empty AnonGuard. */
const freshIp = () => `198.51.100.${++ipCounter}`
const anon = (ip: string, headers: Record<string, string> = {}) => ({ anonymous: true, headers: { 'cf-connecting-ip': ip, ...headers } })
const CHEAP = '/v1/kline?code=sh600519&count=1'

async function statuses(n: number, path: string, init: ReturnType<typeof anon>) {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const r = await call(path, init)
    await r.text()
    out.push(r.status)
  }
  return out
}

describe('anonymous callers', () => {
  beforeEach(() => resetWorld())

  it('get 2 calls a minute as scripts, then 429 with Retry-After and a challenge in the body', async () => {
    const ip = freshIp()
    expect(await statuses(2, CHEAP, anon(ip))).toEqual([200, 200])
    const res = await getJson(CHEAP, anon(ip))
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.headers.get('x-ratelimit-limit')).toBe('2')
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED', challenge: { challenge: expect.any(String), difficulty: 16, header: 'X-PoW' } })
  })

  it('keep each address\'s limit apart from the other addresses that share its guard object', async () => {
    const a = freshIp()
    let b = freshIp()
    while (anonShardOf(b) !== anonShardOf(a)) b = freshIp()
    expect(await statuses(3, CHEAP, anon(a))).toEqual([200, 200, 429])
    // Same object, another address: its own 2 calls, and a's window is untouched by them.
    expect(await statuses(3, CHEAP, anon(b))).toEqual([200, 200, 429])
    const rows = env.ANON_GUARD.getByName(anonShardOf(a)) as DurableObjectStub<AnonGuard>
    expect(await rows.rowsToday(a, Date.parse(SESSION_CLOCK))).toBe(2)
    expect(await rows.rowsToday(b, Date.parse(SESSION_CLOCK))).toBe(2)
  })

  it('spread addresses over a fixed set of guard objects', () => {
    const shards = new Set(Array.from({ length: 2000 }, (_, i) => anonShardOf(`203.0.${i >> 8}.${i & 255}`)))
    expect(shards.size).toBe(64)
    expect(anonShardOf('2001:db8::1')).toBe(anonShardOf('2001:db8::1'))
  })

  it('get 5 calls a minute from browsers (Fetch Metadata)', async () => {
    const ip = freshIp()
    expect(await statuses(6, CHEAP, anon(ip, { 'sec-fetch-mode': 'cors', origin: 'https://example.org' }))).toEqual([200, 200, 200, 200, 200, 429])
  })

  it.each(['/v1/health', '/v1/status'])('never count %s', async (path) => {
    const ip = freshIp()
    expect(await statuses(8, path, anon(ip))).toEqual(Array(8).fill(200))
    const res = await call(path, anon(ip))
    await res.text()
    expect(res.headers.get('x-ratelimit-limit')).toBeNull()
    expect(await statuses(1, CHEAP, anon(ip))).toEqual([200])
  })

  it('may request at most 5 symbols and 250 bars a call (422 naming the field); keys may request more', async () => {
    const ip = freshIp()
    const six = await getJson('/v1/quote?code=sh600519,sz000001,sh600036,sh601318,sz000858,sz300750', anon(ip))
    expect(six.status).toBe(422)
    expect(six.body.detail[0]).toMatchObject({ loc: ['query', 'code'], msg: expect.stringContaining('at most 5') })
    const bars = await getJson('/v1/kline?code=sh600519&count=251', anon(ip))
    expect(bars.status).toBe(422)
    expect(bars.body.detail[0]).toMatchObject({ loc: ['query', 'count'], msg: expect.stringContaining('250') })
    expect((await getJson('/v1/kline?code=sh600519&count=251')).body.data).toHaveLength(251)
  })

  it('default to 250 bars with a date range instead of refusing', async () => {
    const { body } = await getJson('/v1/kline?code=sh600519&start=2024-01-01&end=2025-12-31', anon(freshIp()))
    expect(body.ok).toBe(true)
    expect(body.data).toHaveLength(250)
  })

  it('stop at 100,000 rows a day with 429 ROWS_EXHAUSTED', async () => {
    const ip = freshIp()
    const stub = env.ANON_GUARD.getByName(anonShardOf(ip)) as DurableObjectStub<AnonGuard>
    await stub.setRowsToday(ip, Date.parse(SESSION_CLOCK), 99_999)
    expect(await statuses(1, CHEAP, anon(ip))).toEqual([200])
    await new Promise((r) => setTimeout(r, 50))
    const r = await getJson(CHEAP, anon(ip))
    expect(r.status).toBe(429)
    expect(r.body).toMatchObject({ code: 'ROWS_EXHAUSTED' })
    expect(r.body.challenge).toBeUndefined()
  })

  it('count the rows of a cached answer once, the same as a fresh one', async () => {
    const ip = freshIp()
    const stub = env.ANON_GUARD.getByName(anonShardOf(ip)) as DurableObjectStub<AnonGuard>
    const path = '/v1/kline?code=sh600519&count=7'
    expect((await getJson(path, anon(ip))).headers.get('x-cache')).toBe('MISS')
    await new Promise((r) => setTimeout(r, 50))
    expect(await stub.rowsToday(ip, Date.parse(SESSION_CLOCK))).toBe(7)
    expect((await getJson(path, anon(ip))).headers.get('x-cache')).toBe('HIT')
    await new Promise((r) => setTimeout(r, 50))
    expect(await stub.rowsToday(ip, Date.parse(SESSION_CLOCK))).toBe(14)
  })

  it('are served from the 5-minute KV cache; key holders get real-time answers', async () => {
    const ip = freshIp()
    const first = await getJson('/v1/quote?code=sh600519&count=3', anon(ip))
    expect(first.body.ok).toBe(true)
    expect(first.headers.get('x-cache')).toBe('MISS')
    await new Promise((r) => setTimeout(r, 50))
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http')
    const second = await getJson('/v1/quote?code=sh600519&count=3', anon(ip))
    expect(second.body).toMatchObject({ ok: true, cached: true, data: first.body.data })
    expect(Object.keys(second.body)).toEqual([...Object.keys(first.body), 'cached'])
    expect(second.body.elapsed_ms).toEqual(expect.any(Number))
    expect(second.headers.get('x-cache')).toBe('HIT')
    expect(second.headers.get('content-type')).toMatch(/^application\/json/)
    // A key holder asks the hosts once the line's 3 s cadence has passed (within it, the line is shared).
    await passCadence()
    expect((await getJson('/v1/quote?code=sh600519&count=3')).body.ok).toBe(false)
  })
})

describe('proof-of-work', () => {
  let solved: { header: string; ip: string }

  beforeAll(async () => {
    await resetWorld()
    const ip = freshIp()
    const { body } = await getJson('/v1/challenge', anon(ip))
    solved = { ip, header: await solveChallenge(body.data.challenge, body.data.difficulty) }
  })

  it('raises a solved IP to 60 calls a minute', async () => {
    const got = await statuses(5, CHEAP, anon(solved.ip, { 'x-pow': solved.header }))
    expect(got).toEqual(Array(5).fill(200))
    const res = await call(CHEAP, anon(solved.ip, { 'x-pow': solved.header }))
    await res.text()
    expect(res.headers.get('x-ratelimit-limit')).toBe('60')
  })

  /** A fresh address with a solved proof: its own 60 calls a minute. */
  async function solvedAddress() {
    const ip = freshIp()
    const { body } = await getJson('/v1/challenge', anon(ip))
    return anon(ip, { 'x-pow': await solveChallenge(body.data.challenge, body.data.difficulty) })
  }

  it('lease repeat answers ahead from the shard, counted when leased: never more than 60 a minute', async () => {
    const init = await solvedAddress()
    const ip = init.headers['cf-connecting-ip']
    const stub = env.ANON_GUARD.getByName(anonShardOf(ip)) as DurableObjectStub<AnonGuard>
    const rowsToday = () => stub.rowsToday(ip, Date.parse(SESSION_CLOCK))
    const path = '/v1/kline?code=sh600519&count=4' // an answer no other test asked for: 4 rows
    const remaining: string[] = []
    const get = async () => {
      const r = await call(path, init)
      await r.text()
      remaining.push(r.headers.get('x-ratelimit-remaining')!)
      return r
    }
    expect((await get()).headers.get('x-cache')).toBe('MISS') // not in memory yet: counted at settle
    await new Promise((r) => setTimeout(r, 50))
    expect(await rowsToday()).toBe(4)
    expect((await get()).headers.get('x-cache')).toBe('HIT') // in memory: this call and 14 leased ones counted at once
    expect(await rowsToday()).toBe(4 + 15 * 4)
    await get() // from the lease: the shard is not asked, its count stands
    expect(await rowsToday()).toBe(64)
    const statusesLeft: number[] = []
    for (let i = 3; i < 61; i++) statusesLeft.push((await get()).status)
    expect(statusesLeft).toEqual([...Array(57).fill(200), 429])
    expect(remaining.slice(0, 60).map(Number)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i))
    expect(await rowsToday()).toBe(60 * 4)
  })

  it('take back what a lease left unused: the calls of its minute and its rows', async () => {
    const ip = freshIp()
    const stub = env.ANON_GUARD.getByName(anonShardOf(ip)) as DurableObjectStub<AnonGuard>
    const now = Date.parse(SESSION_CLOCK)
    const ask = { now, ip, kind: 'script' as const, powUntil: now + 300_000, rows: 4 }
    const first = await stub.admit({ ...ask, lease: 15 })
    expect(first).toMatchObject({ ok: true, window: { limit: 60, remaining: 59 }, leased: { calls: 14, rows: 56 } })
    expect(await stub.rowsToday(ip, now)).toBe(60)
    const second = await stub.admit({ ...ask, returned: { win: Math.floor(now / 60_000), calls: 14, day: first.ok ? first.reservation.day : '', rows: 56 } })
    expect(second).toMatchObject({ ok: true, window: { remaining: 58 }, leased: null })
    expect(await stub.rowsToday(ip, now)).toBe(8)
  })

  it('earns nothing when reused from another IP', async () => {
    expect(await statuses(3, CHEAP, anon(freshIp(), { 'x-pow': solved.header }))).toEqual([200, 200, 429])
  })

  it('earns nothing when forged', async () => {
    const forged = solved.header.replace(/~(\d+)~/, (_m, d) => `~${Number(d) + 1}~`)
    expect(await statuses(3, CHEAP, anon(freshIp(), { 'x-pow': forged }))).toEqual([200, 200, 429])
  })

  it('earns nothing when expired', async () => {
    await resetWorld('2026-11-20T11:30:00+08:00') // an hour later: past the challenge's 10 minutes
    const ip = freshIp()
    const { body } = await getJson('/v1/challenge', anon(ip))
    const header = await solveChallenge(body.data.challenge, body.data.difficulty)
    await resetWorld('2026-11-20T11:45:00+08:00')
    expect(await statuses(3, CHEAP, anon(ip, { 'x-pow': header }))).toEqual([200, 200, 429])
    await resetWorld(SESSION_CLOCK)
  })

  it('earns nothing when too easy', async () => {
    const ip = freshIp()
    const { body } = await getJson('/v1/challenge?difficulty=4', anon(ip))
    expect(body.data.raises_allowance).toBe(false)
    const header = await solveChallenge(body.data.challenge, body.data.difficulty)
    expect(await statuses(3, CHEAP, anon(ip, { 'x-pow': header }))).toEqual([200, 200, 429])
  })
})

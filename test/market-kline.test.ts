import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashKey } from '../src/access/keys'
import { market } from '../src/emulator/market/index'
import { marketDayJob } from '../src/jobs/market-day'
import { marketKlineKey } from '../src/store/keys'
import { getJson, makeKey, resetWorld } from './helpers'
import { services, storeCall, storeJson } from './store-app'

const setClock = (iso: string) => getJson('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: iso }) })

let key = ''
const get = (qs: string, k = key) => storeJson('/v1/market-kline' + qs, { key: k })
let traded: string[] = []

beforeAll(async () => {
  // Friday 2026-11-20 after the close: the scheduled job writes the day from the whole-market list.
  await resetWorld('2026-11-20T16:00:00+08:00')
  expect(services.now()).toBe(Date.parse('2026-11-20T16:00:00+08:00'))
  const ctx = createExecutionContext()
  const run = await marketDayJob(undefined, env, ctx, services, { chunk: 6 })
  await waitOnExecutionContext(ctx)
  expect(run).toMatchObject({ status: 'partial', blob: { status: 'written' } })
  const now = services.now()
  traded = market
    .instruments()
    .filter((i) => i.kind === 'stock' && market.dailyBars(i, '2026-11-20', '2026-11-20', now).length === 1)
    .map((i) => i.code)
    .sort()
  // Saturday morning: 2026-11-20 is now the latest trading day before today.
  await setClock('2026-11-21T10:00:00+08:00')
  key = await makeKey('pro')
})

describe('GET /v1/market-kline', () => {
  it('streams the whole market of the latest trading day by default, 8 string columns, unadjusted', async () => {
    const res = await storeCall('/v1/market-kline', { key })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    // A streamed answer carries the same headers as any other counted one.
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id', 'access-control-allow-origin']) expect(res.headers.get(h)).toBeTruthy()
    const text = await res.text()
    const body = JSON.parse(text)
    expect(body).toMatchObject({ ok: true, endpoint: 'market-kline', tier: 'pro', source: 'store', date: '2026-11-20' })
    expect(typeof body.elapsed_ms).toBe('number')
    expect(body.count).toBe(body.data.length)
    expect(body.data.map((r: any) => r.code)).toEqual(traded)
    expect(traded.length).toBeGreaterThan(5400)
    expect(Object.keys(body.data[0])).toEqual(['code', 'time', 'open', 'high', 'low', 'close', 'volume', 'amount'])
    const moutai = body.data.find((r: any) => r.code === 'sh600519')
    const bar = market.dailyBars(market.byCode('sh600519')!, '2026-11-20', '2026-11-20', services.now())[0]
    expect(moutai).toEqual({ code: 'sh600519', time: '2026-11-20', open: bar.open.toFixed(2), high: bar.high.toFixed(2), low: bar.low.toFixed(2), close: bar.close.toFixed(2), volume: String(bar.volume), amount: bar.amount.toFixed(2) })
  })

  it('sends the stored blob byte for byte as data', async () => {
    const stored = await (await env.STORE.get(marketKlineKey('2026-11-20')))!.text()
    const text = await (await storeCall('/v1/market-kline?date=2026-11-20', { key })).text()
    expect(text.endsWith(`"data":${stored}}`)).toBe(true)
    expect(stored.length).toBeGreaterThan(700_000)
  })

  it('answers ok:false NO_DATA for a trading day whose blob is not built, and does not count it', async () => {
    const k = await makeKey('pro')
    const { status, body } = await get('?date=2026-11-19', k)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', date: '2026-11-19', data: [] })
    expect(body.error).toMatch(/not in the store/)
    await get('?date=2026-11-20', k)
    const usage = (await storeJson('/v1/usage', { key: k })).body
    const u = usage.data ?? usage
    expect(u.endpoints['market-kline']).toEqual({ units: 500, calls: 1 })
    expect(u.heavy).toMatchObject({ used: 1 })
  })

  it('serves no intraday: after today’s close the default is still the previous trading day', async () => {
    await setClock('2026-11-20T16:30:00+08:00')
    try {
      const { body } = await get('')
      expect(body).toMatchObject({ ok: false, date: '2026-11-19', code: 'NO_DATA' })
      const today = await get('?date=2026-11-20')
      expect(today.status).toBe(422)
      expect(today.body.detail[0].msg).toMatch(/before today \(2026-11-20, Beijing\).*latest is 2026-11-19/)
    } finally {
      await setClock('2026-11-21T10:00:00+08:00')
    }
  })

  it.each([
    ['?date=20261120', /YYYY-MM-DD/],
    ['?date=2026-02-30', /not a real calendar date/],
    ['?date=2016-08-05', /2016-08-08 or later/],
    ['?date=2026-11-21', /before today \(2026-11-21, Beijing\): there is no intraday market-kline; the latest is 2026-11-20/],
    ['?date=2027-01-04', /before today/],
    ['?date=2026-11-14', /2026-11-14 is not a trading day.*2026-11-13 \(before\) and 2026-11-16 \(after\)/],
    ['?date=2026-10-01', /not a trading day.*2026-09-30 \(before\) and 2026-10-08 \(after\)/],
  ])('422 for %s', async (qs, msg) => {
    const { status, body } = await get(qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'date'])
    expect(body.detail[0].msg).toMatch(msg)
  })

  it('refuses a call over the heavy quota with 429 (the read started during admission is dropped)', async () => {
    const k = await makeKey('pro')
    await runInDurableObject(env.KEY_GUARD.getByName(await hashKey(k)), (_o, state) => {
      state.storage.sql.exec('CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, v INTEGER NOT NULL)')
      state.storage.sql.exec("INSERT INTO counters (k, v) VALUES ('heavy:2026-11-21', 200)")
    })
    const res = await storeCall('/v1/market-kline', { key: k })
    const body = await res.json<any>()
    expect(res.status).toBe(429)
    expect(body).toMatchObject({ code: 'HEAVY_QUOTA' })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await get('')).body.ok).toBe(true)
  })

  it('is for tiers pro and unlimited only', async () => {
    expect((await storeJson('/v1/market-kline')).status).toBe(401)
    for (const tier of ['trial', 'standard'] as const) expect((await get('', await makeKey(tier))).status).toBe(403)
    for (const tier of ['pro', 'unlimited'] as const) expect((await get('', await makeKey(tier))).body.ok).toBe(true)
  })
})

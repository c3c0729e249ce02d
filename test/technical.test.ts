import { env } from 'cloudflare:test'
import fc from 'fast-check'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { toColumns } from '../src/domain/indicators/bars'
import { TECHNICAL_COLUMNS } from '../src/domain/indicators/columns'
import { technicalRow } from '../src/domain/indicators/row'
import { market, roundTo } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import { fault, makeKey, passCadence, resetWorld, SESSION_CLOCK } from './helpers'
import { services, storeJson } from './store-app'

const NOW = Date.parse(SESSION_CLOCK)
const COLUMNS = TECHNICAL_COLUMNS.map((c) => c[0])
/** A stock with dividends and bonus shares inside the stored history, so qfq matters. */
const MULTI = market.instruments().find((i) => i.kind === 'stock' && market.actions(i, NOW).length >= 4 && market.actions(i, NOW).some((a) => a.bonus > 0))!

let key = ''
const technical = (code: string, k = key) => storeJson(`/v1/technical?code=${code}`, { key: k })
const quote = async (code: string) => (await storeJson(`/v1/quote?code=${code}&count=5`, { key })).body

/** The row computed independently: the model's raw bars × its qfq factors, then today's bar from /v1/quote. */
function modelRow(code: string, through: string, live: { date: string; open: string; high: string; low: string; last: string; volume: string }, name: string, now = NOW) {
  const inst = market.byCode(code)!
  const past = market.dailyBars(inst, '2016-08-08', through, now).map((b) => {
    const f = market.qfqFactor(inst, b.date, now)
    return { date: b.date, open: roundTo(b.open * f, 2), high: roundTo(b.high * f, 2), low: roundTo(b.low * f, 2), close: roundTo(b.close * f, 2), volume: b.volume }
  })
  const today = { date: live.date, open: Number(live.open), high: Number(live.high), low: Number(live.low), close: Number(live.last), volume: Number(live.volume) }
  return technicalRow(toColumns([...past, today]), { code, name, priceDecimals: 2 })
}

beforeAll(async () => {
  await resetWorld(SESSION_CLOCK)
  // Histories through yesterday, built through the real upstream path: emulator wire → parsers → store.
  const source = channelSource(services)
  for (const code of ['sh600519', MULTI.code]) await writeHistory(env.STORE, (await buildHistory(source, code, '2026-11-19'))!)
  await writeHistory(env.STORE, (await buildHistory(source, 'sz000002', '2026-10-30'))!) // three weeks behind
})

beforeEach(async () => {
  await resetWorld(SESSION_CLOCK)
  key = await makeKey('trial')
})

describe('GET /v1/technical', () => {
  it('during a session: one row of the 55 columns over the stored history plus the live bar', async () => {
    const { status, body } = await technical('sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'technical', tier: 'trial', source: 'emulator:tencent', history: 'store' })
    expect(body.data).toHaveLength(1)
    const row = body.data[0]
    expect(Object.keys(row)).toEqual(COLUMNS)
    expect(row).toMatchObject({ code: 'sh600519', date: '2026-11-20' })
    expect(body.bars).toBe(market.dailyBars(market.byCode('sh600519')!, '2016-08-08', '2026-11-19', NOW).length + 1)
    const q = await quote('sh600519')
    expect(row.closePrice).toBe(Number(q.data[0].last))
    expect(body.as_of).toBe(q.as_of) // the quote's time
    expect(body.as_of).toMatch(/^2026-11-20T10:\d\d:\d\d\+08:00$/)
    expect(row.ma_MA_250).not.toBeNull()
  })

  it('agrees with an independent computation from the model, across ex-dates (qfq to today)', async () => {
    for (const inst of [market.byCode('sh600519')!, MULTI]) {
      const { body } = await technical(inst.code)
      expect(body.history).toBe('store')
      const q = await quote(inst.code)
      expect(body.data[0], inst.code).toEqual(modelRow(inst.code, '2026-11-19', q.data[0], body.data[0].name))
    }
  })

  it('on an ex-dividend day: the past closes are adjusted for today\'s dividend (from the channel, as the store holds actions through its last bar only)', async () => {
    const clock = '2026-06-17T10:30:00+08:00'
    const now = Date.parse(clock)
    await resetWorld(clock)
    const k = await makeKey('trial')
    const inst = market.instruments().find((i) => i.kind === 'stock' && market.actions(i, now).some((a) => a.exDate === '2026-06-17' && a.cash > 0))!
    await writeHistory(env.STORE, (await buildHistory(channelSource(services), inst.code, '2026-06-16'))!)
    const { body } = await technical(inst.code, k)
    // The stored bars through yesterday disagree with the channel's qfq ones (today's dividend is not
    // among the stored actions yet), so the join is refused rather than served unadjusted.
    expect(body).toMatchObject({ ok: true, history: 'channel', bars: 1212, as_of: expect.stringMatching(/^2026-06-17T10:\d\d:\d\d\+08:00$/) })
    const q = (await storeJson(`/v1/quote?code=${inst.code}&count=5`, { key: k })).body
    const row = body.data[0]
    expect(row).toMatchObject({ date: '2026-06-17', closePrice: Number(q.data[0].last) })
    const qfqMean = q.data.reduce((s: number, b: any) => s + Number(b.last), 0) / 5
    expect(Math.abs(row.ma_MA_5 - qfqMean)).toBeLessThanOrEqual(0.0051)
    // … and those are the model's raw closes scaled by today's factor, not the raw ones
    const raw = market.dailyBars(inst, '2016-08-08', '2026-06-16', now).slice(-4)
    const f = market.qfqFactor(inst, '2026-06-16', now)
    expect(f).toBeLessThan(1)
    raw.forEach((b, i) => expect(Math.abs(Number(q.data[4 - i].last) - roundTo(b.close * f, 2))).toBeLessThanOrEqual(0.011))
    const rawMean = (raw.reduce((s, b) => s + b.close, 0) + Number(q.data[0].last)) / 5
    expect(Math.abs(row.ma_MA_5 - rawMean)).toBeGreaterThan(0.005)
  })

  it('ma_MA_5 is the mean of the last 5 closes /v1/kline shows; closePrice is /v1/quote data[0].last', async () => {
    for (const code of ['sh600519', 'sz000001']) {
      const row = (await technical(code)).body.data[0]
      const kline = (await storeJson(`/v1/kline?code=${code}&count=5`, { key })).body.data
      expect(kline[0].date).toBe(row.date)
      const mean = kline.reduce((s: number, b: any) => s + Number(b.last), 0) / 5
      expect(Math.abs(row.ma_MA_5 - mean), code).toBeLessThanOrEqual(0.0051)
      expect(row.closePrice).toBe(Number((await quote(code)).data[0].last))
    }
  })

  it('a stock without a stored history uses the channel\'s 1,212 bars', async () => {
    const { body } = await technical('sz000001')
    expect(body).toMatchObject({ ok: true, history: 'channel', bars: 1212 })
    expect(body.data[0].ma_MA_250).not.toBeNull()
  })

  it('a stored history too far behind to join is not used', async () => {
    const { body } = await technical('sz000002')
    expect(body).toMatchObject({ ok: true, history: 'channel', bars: 1212 })
  })

  it.each(['hk00700', 'usAAPL', 'us.DJI', 'sh000001', 'sz399001', 'sh510300'])('serves %s', async (code) => {
    const { body } = await technical(code)
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, history: 'channel' })
    const row = body.data[0]
    expect(Object.keys(row)).toEqual(COLUMNS)
    const q = await quote(code)
    expect(row.code).toBe(code)
    expect(row.date).toBe(q.data[0].date)
    expect(row.closePrice).toBe(Number(q.data[0].last))
    expect(row.ma_MA_5).not.toBeNull()
  })

  it('after the close the row is the day\'s final bar', async () => {
    await resetWorld('2026-11-20T16:00:00+08:00')
    const k = await makeKey('pro')
    const row = (await technical('sh600519', k)).body.data[0]
    expect(row.date).toBe('2026-11-20')
    const inst = market.byCode('sh600519')!
    const final = market.dailyBars(inst, '2026-11-20', '2026-11-20', Date.parse('2026-11-20T16:00:00+08:00'))[0]
    expect(row.closePrice).toBe(roundTo(final.close, 2))
  })

  it('fails over when the first channel faults, and is ok:false (not counted) when all fail', async () => {
    await fault('tencent', 'http')
    const { body } = await technical('sz000001')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    await fault('eastmoney', 'http')
    await fault('sina', 'http')
    // The live line just fetched is shared for the cadence: the faults show once it has passed.
    await passCadence()
    const k = await makeKey('trial')
    const failed = await technical('sz000001', k)
    expect(failed.status).toBe(200)
    expect(failed.body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(failed.body.error).toMatch(/^sz000001: /)
    expect((await storeJson('/v1/usage', { key: k })).body.data.endpoints.technical).toBeUndefined()
    await resetWorld(SESSION_CLOCK) // faults cleared: the same key's next call counts once
    expect((await technical('sz000001', k)).body.ok).toBe(true)
    expect((await storeJson('/v1/usage', { key: k })).body.data.endpoints.technical).toEqual({ units: 1, calls: 1 })
  })

  it('a well-formed code nobody lists is ok:false NO_DATA, not counted', async () => {
    const listed = new Set(market.instruments().map((i) => i.code))
    const unlisted = Array.from({ length: 1000 }, (_, n) => `sh600${String(n).padStart(3, '0')}`).find((c) => !listed.has(c))!
    const k = await makeKey('trial')
    const { status, body } = await technical(unlisted, k)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
    expect((await storeJson('/v1/usage', { key: k })).body.data.endpoints.technical).toBeUndefined()
  })

  it.each([
    ['', 'missing'],
    ['?code=600519', /prefix/],
    ['?code=sh999999', /not a known SH code range/],
    ['?code=sh600519,sz000001', /one code per call/],
    ['?code=sh113050', /a convertible bond/],
    ['?code=pt0477', /a sector/],
    ['?code=fuRB2501', /a futures contract/],
    ['?code=fxUSDCNH', /a forex pair/],
  ])('422 for %s', async (qs, msg) => {
    const { status, body } = await storeJson('/v1/technical' + qs, { key })
    expect(status).toBe(422)
    const issue = body.detail.find((d: any) => d.loc[1] === 'code')
    expect(issue, JSON.stringify(body)).toBeDefined()
    if (typeof msg === 'string') expect(issue.type).toBe(msg)
    else expect(issue.msg).toMatch(msg)
  })

  it('needs a key (401 without); trial and above may call', async () => {
    expect((await storeJson('/v1/technical?code=sh600519')).status).toBe(401)
    for (const tier of ['trial', 'standard', 'pro', 'unlimited'] as const) expect((await technical('sh600519', await makeKey(tier))).status).toBe(200)
  })

  it('no code makes a 500', async () => {
    const code = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('sh600519 ', 'SH600519', 'usaapl', 'us.', 'hk', 'sh60051', 'bj920001', '__proto__', 'constructor', 'x'.repeat(5000)))
    await fc.assert(
      fc.asyncProperty(code, async (raw) => {
        const res = await storeJson(`/v1/technical?code=${encodeURIComponent(raw)}`, { key })
        expect(res.status, `${raw} → ${res.text.slice(0, 200)}`).toBeLessThan(500)
        if (res.status === 200 && res.body.ok) expect(Object.keys(res.body.data[0])).toEqual(COLUMNS)
      }),
      { numRuns: 40 }
    )
  })
})

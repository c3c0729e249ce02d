import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { market, roundTo } from '../src/emulator/market/index'
import { buildHistory } from '../src/jobs/build-history'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import { writeUniverse } from '../src/store/meta'
import { makeKey, resetWorld } from './helpers'
import { services, storeJson } from './store-app'

const CLOCK = '2026-11-21T10:00:00+08:00'
const NOW = Date.parse(CLOCK)
/** A stock with several dividends and bonus shares. */
const MULTI = market.instruments().find((i) => i.kind === 'stock' && market.actions(i, NOW).length >= 5 && market.actions(i, NOW).filter((a) => a.bonus > 0).length >= 2)!

let key = ''
const get = (qs: string, k = key) => storeJson('/v1/kline-full' + qs, { key: k })

beforeAll(async () => {
  await resetWorld(CLOCK)
  key = await makeKey('standard')
  // Histories built through the real upstream path: emulator wire → Eastmoney parsers → store.
  const source = channelSource(services)
  for (const code of ['sh600519', MULTI.code]) await writeHistory(env.STORE, (await buildHistory(source, code, '2026-11-20'))!)
  await writeUniverse(env.STORE, { date: '2026-11-20', codes: market.instruments().filter((i) => i.kind === 'stock').map((i) => i.code) })
})

describe('GET /v1/kline-full', () => {
  it('returns the whole history, qfq by default, oldest first, exactly 7 string columns', async () => {
    const { status, body } = await get('?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'kline-full', tier: 'standard', source: 'store', fq: 'qfq', as_of: '2026-11-20' })
    const raw = market.dailyBars(market.byCode('sh600519')!, '2016-08-08', '2026-11-20', NOW)
    expect(body.data).toHaveLength(raw.length)
    expect(body.data.length).toBeGreaterThan(2465)
    expect(body.data[0].time).toBe('2016-08-08')
    expect(body.data.at(-1).time).toBe('2026-11-20')
    expect(Object.keys(body.data[0])).toEqual(['time', 'open', 'high', 'low', 'close', 'volume', 'amount'])
    for (const v of Object.values(body.data[0])) expect(typeof v).toBe('string')
  })

  it.each(['qfq', 'hfq', 'nofq'] as const)('serves %s equal to the corporate actions the emulator implies', async (fq) => {
    const { body } = await get(`?code=${MULTI.code}&fq=${fq}`)
    expect(body.fq).toBe(fq)
    const raw = market.dailyBars(MULTI, '2016-08-08', '2026-11-20', NOW)
    expect(body.data).toHaveLength(raw.length)
    raw.forEach((b, i) => {
      const f = fq === 'qfq' ? market.qfqFactor(MULTI, b.date, NOW) : fq === 'hfq' ? market.hfqFactor(MULTI, b.date, NOW) : 1
      expect(body.data[i], `${MULTI.code} ${b.date}`).toEqual({
        time: b.date,
        open: roundTo(b.open * f, 2).toFixed(2),
        high: roundTo(b.high * f, 2).toFixed(2),
        low: roundTo(b.low * f, 2).toFixed(2),
        close: roundTo(b.close * f, 2).toFixed(2),
        volume: String(b.volume),
        amount: b.amount.toFixed(2),
      })
    })
  })

  it('agrees with /v1/kline qfq closes of the same days to within a cent (the upstream rounds its factor)', async () => {
    const full = (await get('?code=sh600519&start=2026-10-01&end=2026-11-20')).body.data
    const kline = (await storeJson('/v1/kline?code=sh600519&start=2026-10-01&end=2026-11-20', { key })).body.data
    expect(full.length).toBe(kline.length)
    const byDate = new Map(kline.map((r: any) => [r.date, r.last]))
    for (const r of full) expect(Math.abs(Number(r.close) - Number(byDate.get(r.time)))).toBeLessThanOrEqual(0.011)
  })

  it('cuts to start and end, inclusive', async () => {
    const { body } = await get('?code=sh600519&fq=nofq&start=2025-01-01&end=2025-03-31')
    expect(body.data[0].time).toBe('2025-01-02')
    expect(body.data.at(-1).time).toBe('2025-03-31')
    expect(body.as_of).toBe('2025-03-31')
    const only = await get('?code=sh600519&start=2026-11-20')
    expect(only.body.data.map((r: any) => r.time)).toEqual(['2026-11-20'])
    const none = await get('?code=sh600519&start=2026-11-21')
    expect(none.body).toMatchObject({ ok: true, data: [], notice: expect.stringContaining('no bars') })
  })

  it('answers ok:false NO_DATA when the history has not been built, and for an unlisted code', async () => {
    const { status, body } = await get('?code=sz000001')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', source: 'store', data: [] })
    expect(body.error).toMatch(/has not been built yet; run the backfill/)
    const listed = new Set(market.instruments().map((i) => i.code))
    const unlisted = Array.from({ length: 1000 }, (_, n) => `sh600${String(n).padStart(3, '0')}`).find((c) => !listed.has(c))
    const unknown = await get(`?code=${unlisted}`)
    expect(unknown.body).toMatchObject({ ok: false, code: 'NO_DATA' })
    expect(unknown.body.error).toMatch(/not in the A-share list/)
  })

  it('does not count an ok:false call', async () => {
    const k = await makeKey('standard')
    await get('?code=sz000001', k)
    await get('?code=sh600519', k)
    const usage = (await storeJson('/v1/usage', { key: k })).body
    expect(usage.data?.endpoints?.['kline-full'] ?? usage.endpoints?.['kline-full']).toMatchObject({ calls: 1 })
  })

  it.each([
    ['', 'code', 'missing'],
    ['?code=sh510300', 'code', /an ETF; \/v1\/kline-full serves A-share stock codes/],
    ['?code=sh113050', 'code', /a convertible bond/],
    ['?code=sh000001', 'code', /an index/],
    ['?code=sz399001', 'code', /an index/],
    ['?code=pt0477', 'code', /a sector/],
    ['?code=hk00700', 'code', /a Hong Kong stock/],
    ['?code=usAAPL', 'code', /a US stock/],
    ['?code=us.DJI', 'code', /a US index/],
    ['?code=fuRB2501', 'code', /a futures contract/],
    ['?code=fxUSDCNH', 'code', /a forex pair/],
    ['?code=600519', 'code', /prefix/],
    ['?code=sh600519,sz000001', 'code', /one code per call/],
    ['?code=sh600519&fq=bfq', 'fq', /fq must be one of qfq, hfq, nofq/],
    ['?code=sh600519&start=2025/01/01', 'start', /YYYY-MM-DD/],
    ['?code=sh600519&end=2025-02-30', 'end', /not a real calendar date/],
    ['?code=sh600519&start=2016-08-05', 'start', /2016-08-08 or later/],
    ['?code=sh600519&end=2015-12-31', 'end', /2016-08-08 or later/],
    ['?code=sh600519&start=2025-03-01&end=2025-02-01', 'start', /after end/],
  ])('422 for %s (%s)', async (qs, field, msg) => {
    const { status, body } = await get(qs)
    expect(status).toBe(422)
    const issue = body.detail.find((d: any) => d.loc[1] === field)
    expect(issue, JSON.stringify(body)).toBeDefined()
    if (typeof msg === 'string') expect(issue.type).toBe(msg)
    else expect(issue.msg).toMatch(msg)
  })

  it('needs a key of tier standard or above, not trial', async () => {
    expect((await storeJson('/v1/kline-full?code=sh600519')).status).toBe(401)
    expect((await get('?code=sh600519', await makeKey('trial'))).status).toBe(403)
    for (const tier of ['standard', 'pro', 'unlimited'] as const) expect((await get('?code=sh600519', await makeKey(tier))).status).toBe(200)
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { previousTradingDay } from '../src/domain/trading-calendar'
import { hasBlockTrades } from '../src/emulator/market/block-trades'
import { market } from '../src/emulator/market/index'
import { ANONYMOUS, call, fault, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'
import { storeJson } from './store-app'

const NOW = Date.parse(SESSION_CLOCK)
/** At 10:30 on Friday 2026-11-20, Thursday's list is the latest complete one. */
const LATEST = previousTradingDay('2026-11-20')
const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01')
const traded = (code: string, date: string) => (market.dailyBars(market.byCode(code)!, date, date, NOW)[0]?.volume ?? 0) > 0
const expected = market.instruments().filter((i) => i.kind === 'stock' && ['sh', 'sz', 'bj'].includes(i.prefix) && i.listDate <= LATEST).filter((i) => hasBlockTrades(i, LATEST) && traded(i.code, LATEST)).map((i) => i.code)
const QUIET = stocks.find((i) => !hasBlockTrades(i, LATEST))!

describe('GET /v1/block-trade', () => {
  beforeEach(() => resetWorld())

  it('answers the whole market\'s latest complete day when date is blank', async () => {
    const { status, body } = await getJson('/v1/block-trade')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'block-trade', source: 'emulator:eastmoney', date: LATEST, as_of: LATEST })
    expect([...new Set(body.data.map((t: any) => t.code))].sort()).toEqual([...expected].sort())
    for (const t of body.data) {
      expect(t.date).toBe(LATEST)
      expect(t.volume % 100).toBe(0)
      expect(t.amount).toBeGreaterThanOrEqual(2_000_000 - 1)
    }
  })

  it('prints the day\'s real close: the same as /v1/kline\'s for that day', async () => {
    const { body } = await getJson(`/v1/block-trade?date=${LATEST}`)
    const t = body.data.find((r: any) => market.actions(market.byCode(r.code)!, NOW).every((a) => a.exDate <= LATEST))
    const kline = await getJson(`/v1/kline?code=${t.code}&count=3`)
    const bar = kline.body.data.find((b: any) => b.date === LATEST)
    expect(Number(bar.last)).toBeCloseTo(t.close, 2)
  })

  it('with a code and no date answers that stock\'s latest block-trade day', async () => {
    const code = expected[0]
    const { body } = await getJson(`/v1/block-trade?code=${code}`)
    expect(body.ok).toBe(true)
    expect(body.date).toBe(LATEST)
    expect(body.data.every((t: any) => t.code === code)).toBe(true)
  })

  it('is ok:false NO_DATA for a day without block trades of the stock', async () => {
    const { body } = await getJson(`/v1/block-trade?code=${QUIET.code}&date=${LATEST}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
    expect(body.error).toContain(QUIET.code)
  })

  it('gives a non-trading, future or malformed date a 422 that says why', async () => {
    const sat = await getJson('/v1/block-trade?date=2026-11-14')
    expect(sat.status).toBe(422)
    expect(sat.body.detail[0]).toMatchObject({ loc: ['query', 'date'] })
    expect(sat.body.detail[0].msg).toContain('not a trading day (a Saturday); the trading day before it is 2026-11-13')
    const holiday = await getJson('/v1/block-trade?date=2026-10-01')
    expect(holiday.body.detail[0].msg).toContain('holiday')
    const future = await getJson('/v1/block-trade?date=2026-11-23')
    expect(future.status).toBe(422)
    expect(future.body.detail[0].msg).toContain('future')
    for (const d of ['2026-13-01', '20261120', '2014-12-31']) expect((await getJson(`/v1/block-trade?date=${d}`)).status).toBe(422)
  })

  it('refuses a code that is not one A-share stock', async () => {
    for (const code of ['hk00700', 'sh510300', 'sh600519,sz000001', 'xx']) {
      const { status, body } = await getJson(`/v1/block-trade?code=${code}`)
      expect(status, code).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', 'code'])
    }
  })

  it('fails over to the mirror host; with Eastmoney down, serves a day asked before stale and is ok:false for another', async () => {
    await fault('eastmoney', 'timeout', { count: 1 })
    const fresh = (await storeJson(`/v1/block-trade?date=${LATEST}`, { key: await makeKey('trial') })).body
    expect(fresh.ok).toBe(true)
    await fault('eastmoney', 'garbage')
    // The day's list was had a moment ago: its last good copy stands in (docs/architecture.md "Stale answers").
    expect((await getJson(`/v1/block-trade?date=${LATEST}`)).body).toMatchObject({ ok: true, stale: true, data: fresh.data, date: LATEST })
    const { body } = await getJson(`/v1/block-trade?date=${previousTradingDay(LATEST)}`)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
  })

  it('needs a key', async () => {
    const res = await call('/v1/block-trade', ANONYMOUS)
    expect(res.status).toBe(401)
    await res.text()
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { call, fault, getJson, resetWorld, upstreamRequests } from './helpers'

const COLUMNS = ['amount', 'date', 'high', 'last', 'low', 'open', 'turnover', 'volume']

function expectSaneRows(rows: any[]) {
  for (const r of rows) {
    expect(Object.keys(r).sort()).toEqual(COLUMNS)
    for (const v of Object.values(r)) expect(typeof v).toBe('string')
    expect(Number(r.high)).toBeGreaterThanOrEqual(Number(r.low))
    expect(Number(r.last)).toBeLessThanOrEqual(Number(r.high))
    expect(Number(r.last)).toBeGreaterThanOrEqual(Number(r.low))
  }
  const dates = rows.map((r) => r.date)
  expect([...dates].sort().reverse()).toEqual(dates)
}

describe('GET /v1/quote', () => {
  beforeEach(() => resetWorld())

  it("stamps a US quote on its exchange's clock with its own offset, and a map's as_of is the newest instant", async () => {
    const us = (await getJson('/v1/quote?code=usAAPL&count=1')).body
    expect(us).toMatchObject({ ok: true })
    // 10:30 Beijing on 20 November is 21:30 on the 19th in New York, standard time (-05:00).
    expect(us.as_of).toMatch(/^2026-11-19T\d\d:\d\d:\d\d-05:00$/)
    const cn = (await getJson('/v1/quote?code=sh600519&count=1')).body
    const both = (await getJson('/v1/quote?code=usAAPL,sh600519&count=1')).body
    const newest = Date.parse(us.as_of) > Date.parse(cn.as_of) ? us.as_of : cn.as_of
    expect(both.as_of).toBe(newest)
  })

  it('returns 30 daily bars newest first with today live, from the first channel', async () => {
    const { status, body } = await getJson('/v1/quote?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'quote', tier: 'unlimited', source: 'emulator:tencent' })
    expect(typeof body.elapsed_ms).toBe('number')
    expect(body.data).toHaveLength(30)
    expect(body.data[0].date).toBe('2026-11-20')
    expect(body.as_of).toMatch(/^2026-11-20T10:\d\d:\d\d\+08:00$/)
    expectSaneRows(body.data)
    // 贵州茅台 trades in the thousands of yuan with lots of 100 shares.
    expect(Number(body.data[0].last)).toBeGreaterThan(100)
    expect(Number(body.data[0].volume) % 100).toBe(0)
  })

  it('honours count', async () => {
    const { body } = await getJson('/v1/quote?code=sz000001&count=5')
    expect(body.data).toHaveLength(5)
  })

  it('maps each code to its bars for several codes', async () => {
    const { body } = await getJson('/v1/quote?code=sh600519,sz000001&count=3')
    expect(body.ok).toBe(true)
    expect(Object.keys(body.data)).toEqual(['sh600519', 'sz000001'])
    expect(body.data.sz000001).toHaveLength(3)
  })

  it.each([
    ['hk00700', 'emulator:eastmoney'],
    ['usAAPL', 'emulator:eastmoney'],
    ['us.DJI', 'emulator:eastmoney'],
    ['sh000001', 'emulator:tencent'],
    ['sh510300', 'emulator:tencent'],
    ['pt0477', 'emulator:eastmoney'],
    ['fxUSDCNH', 'emulator:eastmoney'],
    ['fuRB2701', 'emulator:eastmoney'],
  ])('serves %s', async (code, source) => {
    const { body } = await getJson(`/v1/quote?code=${code}&count=10`)
    expect(body).toMatchObject({ ok: true, source })
    expect(body.data.length).toBeGreaterThan(0)
    expectSaneRows(body.data)
  })

  describe('failover', () => {
    it.each(['http', 'garbage', 'empty'] as const)('moves to eastmoney when tencent answers %s', async (kind) => {
      await fault('tencent', kind)
      const { body } = await getJson('/v1/quote?code=sh600519')
      expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
      expect(body.data).toHaveLength(30)
    })

    it('moves on after a timeout', async () => {
      await fault('tencent', 'timeout')
      const { body } = await getJson('/v1/quote?code=sh600519&count=2')
      expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    })

    it('reaches sina when tencent and eastmoney both fail, and the numbers agree', async () => {
      const first = (await getJson('/v1/quote?code=sh600519&count=10')).body
      await resetWorld()
      await fault('tencent', 'http')
      await fault('eastmoney', 'http')
      const { body } = await getJson('/v1/quote?code=sh600519&count=10')
      expect(body).toMatchObject({ ok: true, source: 'emulator:sina' })
      // Sina lacks turnover, and only adjusts prices; everything else matches tencent's answer.
      expect(body.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low, r.volume])).toEqual(
        first.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low, r.volume])
      )
    })

    it('is ok:false, not counted as data, when every channel fails', async () => {
      for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http')
      const { status, body } = await getJson('/v1/quote?code=sh600519')
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: false, endpoint: 'quote', code: 'UPSTREAM_UNAVAILABLE', data: [] })
      for (const ch of ['eastmoney', 'tencent', 'sina']) expect(body.error).toContain(ch)
    })

    it('sticks to the channel that worked instead of retrying the broken one on every call', async () => {
      await fault('tencent', 'http', { count: 1 })
      await getJson('/v1/quote?code=sh600519')
      const before = await upstreamRequests()
      const { body } = await getJson('/v1/quote?code=sh600519')
      expect(body.source).toBe('emulator:eastmoney')
      const after = await upstreamRequests()
      expect(after.tencent).toBe(before.tencent)
    })
  })

  describe('recent daily bars', () => {
    const clockAt = (iso: string) => call('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: iso }) })

    it('reuses the past bars for ten minutes but asks for the real-time quote once its 3 s cadence has passed', async () => {
      const first = (await getJson('/v1/quote?code=sh600519')).body
      const before = await upstreamRequests()
      await clockAt('2026-11-20T10:30:40+08:00')
      const second = (await getJson('/v1/quote?code=sh600519')).body
      const after = await upstreamRequests()
      expect(after.tencent - before.tencent).toBe(1)
      // The live bar moved with the clock; the past bars are the same.
      expect(second.data.slice(1)).toEqual(first.data.slice(1))
      expect(second.as_of).not.toBe(first.as_of)

      // Within the cadence the line is shared: no request at all.
      await clockAt('2026-11-20T10:30:42+08:00')
      await getJson('/v1/quote?code=sh600519')
      expect((await upstreamRequests()).tencent - after.tencent).toBe(0)

      await clockAt('2026-11-20T10:40:01+08:00')
      await getJson('/v1/quote?code=sh600519')
      expect((await upstreamRequests()).tencent - after.tencent).toBe(2)
    })

    it('asks again on a new day, whatever the minute', async () => {
      await clockAt('2026-11-19T14:59:50+08:00')
      await getJson('/v1/quote?code=sh600519')
      await clockAt('2026-11-20T09:30:10+08:00')
      const before = await upstreamRequests()
      const { body } = await getJson('/v1/quote?code=sh600519')
      expect((await upstreamRequests()).tencent - before.tencent).toBe(2)
      expect(body.data[0].date).toBe('2026-11-20')
      expect(body.data[1].date).toBe('2026-11-19')
    })
  })

  describe('validation', () => {
    it.each([
      ['', 'code', 'missing'],
      ['?code=', 'code', undefined],
      ['?code=600519', 'code', undefined],
      ['?code=sh600519&count=0', 'count', 'greater_than_equal'],
      ['?code=sh600519&count=1213', 'count', 'less_than_equal'],
      ['?code=sh600519&count=abc', 'count', undefined],
      ['?code=sh600519&count=2.5', 'count', undefined],
    ])('422 for %j naming %s', async (qs, field, type) => {
      const { status, body } = await getJson('/v1/quote' + qs)
      expect(status).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', field])
      expect(typeof body.detail[0].msg).toBe('string')
      if (type) expect(body.detail[0].type).toBe(type)
    })
  })
})

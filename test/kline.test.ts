import { beforeEach, describe, expect, it } from 'vitest'
import { ANONYMOUS, fault, getJson, makeKey, passCadence, resetWorld } from './helpers'

const ok = async (qs: string) => {
  const r = await getJson('/v1/kline' + qs)
  expect(r.status).toBe(200)
  expect(r.body.ok, JSON.stringify(r.body).slice(0, 400)).toBe(true)
  return r.body
}

describe('GET /v1/kline', () => {
  beforeEach(() => resetWorld())

  it('defaults to 30 forward-adjusted day bars, newest first, exactly 8 string columns', async () => {
    const body = await ok('?code=sh600519')
    expect(body).toMatchObject({ endpoint: 'kline', source: 'emulator:eastmoney' })
    expect(body.data).toHaveLength(30)
    expect(Object.keys(body.data[0]).sort()).toEqual(['amount', 'date', 'high', 'last', 'low', 'open', 'turnover', 'volume'])
    const dates = body.data.map((r: any) => r.date)
    expect([...dates].sort().reverse()).toEqual(dates)
    expect(dates[0]).toBe('2026-11-20')
  })

  it.each([
    ['week', /^\d{4}-\d{2}-\d{2}$/],
    ['month', /^\d{4}-\d{2}-\d{2}$/],
    ['season', /^\d{4}-(03|06|09|12|11)-\d{2}$/],
    ['year', /^\d{4}-\d{2}-\d{2}$/],
    ['m1', /^2026-11-20 (09|10):\d{2}$/],
    ['m5', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/],
    ['m15', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/],
    ['m30', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/],
    ['m60', /^\d{4}-\d{2}-\d{2} (10:30|11:30|14:00|15:00)$/],
    ['m120', /^\d{4}-\d{2}-\d{2} (10:30|11:30|15:00)$/],
  ])('serves period %s', async (period, dateRe) => {
    const body = await ok(`?code=sh600519&period=${period}&count=5`)
    expect(body.data.length).toBeGreaterThan(0)
    expect(body.data.length).toBeLessThanOrEqual(5)
    for (const r of body.data) expect(r.date).toMatch(dateRe)
  })

  it("says as_of in its kind: a day bar's session date; a minute bar's end, an instant on its exchange's clock", async () => {
    expect((await ok('?code=sh600519&count=2')).as_of).toBe('2026-11-20')
    const m5 = await ok('?code=sh600519&period=m5&count=2')
    expect(m5.as_of).toMatch(/^2026-11-20T\d\d:\d\d:00\+08:00$/)
    expect(m5.as_of).toBe(`${m5.data[0].date.replace(' ', 'T')}:00+08:00`)
    // November is standard time in New York: -05:00.
    const us = await ok('?code=usAAPL&period=m5&count=2')
    expect(us.as_of).toBe(`${us.data[0].date.replace(' ', 'T')}:00-05:00`)
  })

  it('serves a day range, bounded by start and end', async () => {
    const body = await ok('?code=sz000001&start=2025-01-01&end=2025-03-31')
    const dates = body.data.map((r: any) => r.date)
    expect(dates.length).toBeGreaterThan(50)
    expect(dates.every((d: string) => d >= '2025-01-01' && d <= '2025-03-31')).toBe(true)
    // Spring festival 2025: the exchanges were closed 28 Jan – 4 Feb.
    expect(dates).not.toContain('2025-01-30')
  })

  it('answers an empty result with a notice for minute bars outside the window', async () => {
    const body = await ok('?code=sh600519&period=m5&start=2026-08-03&end=2026-08-07')
    expect(body.data).toEqual([])
    expect(body.notice).toContain('2026-10-01')
  })

  it('keeps minute bars inside the window (from the first day of the previous month)', async () => {
    const body = await ok('?code=sh600519&period=m60&count=1212')
    const days = new Set(body.data.map((r: any) => r.date.slice(0, 10)))
    expect([...days].every((d) => (d as string) >= '2026-10-01')).toBe(true)
    expect(days.has('2026-10-09')).toBe(true)
  })

  it('answers several symbols as a map', async () => {
    const body = await ok('?code=sh600519,hk00700,fxUSDCNH&count=3')
    expect(Object.keys(body.data)).toEqual(['sh600519', 'hk00700', 'fxUSDCNH'])
    for (const rows of Object.values(body.data) as any[]) expect(rows).toHaveLength(3)
  })

  it.each(['hk00700', 'usAAPL', 'us.DJI', 'us.IXIC', 'us.SPX', 'fuRB2701', 'fxEURUSD', 'pt0477', 'sh110050', 'bj830799'])('serves day bars for %s', async (code) => {
    const body = await ok(`?code=${code}&count=10`)
    expect(body.data.length).toBeGreaterThan(0)
  })

  describe('failover', () => {
    it('moves to tencent when eastmoney fails, and the bars agree', async () => {
      const first = await ok('?code=sh600519&count=20')
      await fault('eastmoney', 'http')
      // The live line just fetched is shared for the cadence: the fault shows once it has passed.
      await passCadence()
      const body = await ok('?code=sh600519&count=20')
      expect(body.source).toBe('emulator:tencent')
      expect(body.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low, r.volume])).toEqual(
        first.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low, r.volume])
      )
    })

    it('aggregates seasons from tencent months when eastmoney is down, matching eastmoney', async () => {
      const first = await ok('?code=sh600519&period=season&count=8')
      await fault('eastmoney', 'http')
      const body = await ok('?code=sh600519&period=season&count=8')
      expect(body.source).toBe('emulator:tencent')
      expect(body.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low])).toEqual(
        first.data.map((r: any) => [r.date, r.open, r.last, r.high, r.low])
      )
    })

    it('serves day bars from sina (raw bars adjusted with its factors) as the last resort', async () => {
      const first = await ok('?code=sh600519&count=300')
      await fault('eastmoney', 'http')
      await fault('tencent', 'http')
      const body = await ok('?code=sh600519&count=300')
      expect(body.source).toBe('emulator:sina')
      expect(body.data.map((r: any) => [r.date, r.open, r.last])).toEqual(first.data.map((r: any) => [r.date, r.open, r.last]))
    })

    it('is ok:false when every channel fails, describing each failure in plain words, never quoting the bytes', async () => {
      for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'garbage')
      const { body } = await getJson('/v1/kline?code=sh600519')
      expect(body).toMatchObject({ ok: false, data: [], code: 'UPSTREAM_UNAVAILABLE' })
      expect(body.error).toContain('eastmoney: malformed: response is not JSON (28 characters: gzip-compressed bytes)')
      // The quote lines too (Tencent's and Sina's JavaScript statements), and nothing of the bytes anywhere in the answer.
      const book = await getJson('/v1/orderbook?code=sh600519')
      expect(book.body.error).toContain('tencent: malformed: not the expected quote lines from character 0 (answer of 27 characters: gzip-compressed bytes)')
      for (const text of [JSON.stringify(body), JSON.stringify(book.body)]) expect(text).not.toMatch(/\\u00(0|1)|\ufffd/)
    })
  })

  describe('validation (HTTP 422 naming the field)', () => {
    it.each([
      ['?period=day', 'code'],
      ['?code=sh600519&period=m7', 'period'],
      ['?code=sh600519&count=0', 'count'],
      ['?code=sh600519&count=99999', 'count'],
      ['?code=sh600519&start=2025-02-30&end=2025-03-01', 'start'],
      ['?code=sh600519&start=20250101&end=2025-03-01', 'start'],
      ['?code=sh600519&start=2025-01-01', 'end'],
      ['?code=sh600519&end=2025-01-01', 'start'],
      ['?code=sh600519&start=2025-03-01&end=2025-01-01', 'start'],
      ['?code=sh600519&period=week&start=2025-01-01&end=2025-03-01', 'start'],
      ['?code=hk00700&start=2025-01-01&end=2025-03-01', 'start'],
      ['?code=bj830799&period=m5', 'period'],
      ['?code=fuRB2701&period=m5', 'period'],
      ['?code=fxUSDCNH&period=season', 'period'],
      ['?code=us.DJI&period=week', 'period'],
      ['?code=sh600519,xx123', 'code'],
    ])('%s → %s', async (qs, field) => {
      const { status, body } = await getJson('/v1/kline' + qs)
      expect(status).toBe(422)
      expect(body.detail.map((d: any) => d.loc)).toContainEqual(['query', field])
    })

    it.each(['fuRB0', 'fuRB2701', 'fxUSDCNH', 'us.DJI', 'bj830799'])('refuses minute bars of %s with a 422 naming period for every tier (no tier has them), not a 403', async (code) => {
      const path = `/v1/kline?code=${code}&period=m5`
      for (const who of ['anonymous', 'trial', 'standard', 'unlimited'] as const) {
        const headers: Record<string, string> = who === 'anonymous' ? { 'cf-connecting-ip': '198.51.100.41' } : { authorization: `Bearer ${await makeKey(who)}` }
        const init = { headers, anonymous: who === 'anonymous' }
        const { status, body } = await getJson(path, init)
        expect(status, `${code} ${who}`).toBe(422)
        expect(body.detail[0]).toMatchObject({ loc: ['query', 'period'], input: 'm5' })
      }
    })

    it('keeps the 403 for minute bars a higher tier may use, and the anonymous caps after the key checks', async () => {
      const trial = await getJson('/v1/kline?code=sh600519&period=m5', { headers: { authorization: `Bearer ${await makeKey('trial')}` } })
      expect(trial.status).toBe(403)
      expect(trial.body).toMatchObject({ code: 'TIER_TOO_LOW', min_tier: 'standard' })
      const six = '?code=sh600519,sz000001,sh600000,sz000002,sh601318,sh600036'
      const anon = await getJson('/v1/kline' + six, { ...ANONYMOUS, headers: { 'cf-connecting-ip': '198.51.100.42' } })
      expect(anon.status).toBe(422)
      expect(anon.body.detail[0].msg).toMatch(/anonymous call .* at most 5 symbols/)
      expect((await getJson('/v1/kline' + six + '&count=3')).status).toBe(200)
    })
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { fault, getJson, makeKey, resetWorld } from './helpers'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

describe('GET /v1/shareholder', () => {
  beforeEach(() => resetWorld())

  it('answers the SPEC sections in order, tables and the slug index carrying the same rows', async () => {
    const { status, body } = await getJson('/v1/shareholder?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'shareholder', source: 'emulator:eastmoney', as_of: '2026-09-30' })
    expect(body.data.tables.map((t: any) => t.slug)).toEqual(['top10_holders', 'top10_float_holders', 'holder_count'])
    for (const t of body.data.tables) {
      expect(typeof t.title).toBe('string')
      expect(body.data.data[t.slug]).toEqual(t.rows)
    }
    const { top10_holders: top, top10_float_holders: float, holder_count: counts } = body.data.data
    expect(top.map((r: any) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(float).toHaveLength(10)
    expect(counts).toHaveLength(12)
    expect(counts[0]).toHaveProperty('totalSHNum')
    expect(counts[0]).toHaveProperty('avgHoldShares')
  })

  it.each(['sh600519', 'sz000001', 'sz300750'])('agrees with the shares and prices of %s', async (code) => {
    const inst = market.byCode(code)!
    const d = (await getJson(`/v1/shareholder?code=${code}`)).body.data.data
    const top = d.top10_holders
    const float = d.top10_float_holders
    // The ten hold no more than all shares; the float ten no more than the float, nor more than their whole holding.
    expect(top.reduce((s: number, r: any) => s + r.shares, 0)).toBeLessThanOrEqual(inst.totalShares!)
    expect(float.reduce((s: number, r: any) => s + r.shares, 0)).toBeLessThanOrEqual(inst.floatShares!)
    const whole = new Map(top.map((r: any) => [r.holder_name, r.shares]))
    for (const r of float) if (whole.has(r.holder_name)) expect(r.shares).toBeLessThanOrEqual(whole.get(r.holder_name) as number)
    for (const r of top) expect(r.ratio).toBeCloseTo((r.shares / inst.totalShares!) * 100, 2)
    for (const r of float) expect(r.ratio).toBeCloseTo((r.shares / inst.floatShares!) * 100, 2)

    const c = d.holder_count[0]
    expect(c.total_shares).toBe(inst.totalShares)
    // avgHoldShares carries 2 decimals: off by at most half a cent per holder.
    expect(Math.abs(c.avgHoldShares * c.totalSHNum - inst.totalShares!)).toBeLessThanOrEqual(c.totalSHNum * 0.005 + 1)
    // Market cap at the period-end close, which /v1/kline shows (no ex-date since, so qfq = raw).
    const bar = (await getJson(`/v1/kline?code=${code}&start=2026-09-21&end=2026-09-30`)).body.data[0]
    expect(bar.date).toBe('2026-09-30')
    expect(c.total_market_cap / inst.totalShares!).toBeCloseTo(Number(bar.last), 2)
    const dates = d.holder_count.map((r: any) => r.end_date)
    expect([...dates].sort().reverse()).toEqual(dates)
    expect(d.holder_count[1].totalSHNum + c.holder_change).toBe(c.totalSHNum)
  })

  it('answers ok:false, not counted, when Eastmoney fails', async () => {
    const key = await makeKey('trial')
    await fault('eastmoney', 'garbage')
    const { body } = await getJson('/v1/shareholder?code=sh600519', bearer(key))
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: { tables: [], data: {} } })
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', bearer(key))).body.data.endpoints).toEqual({})
  })

  it('answers an HK stock\'s disclosed shareholders in the SPEC\'s HK sections, the other two empty with a notice', async () => {
    const { body } = await getJson('/v1/shareholder?code=hk00700')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', as_of: '2026-06-30', notice: expect.stringContaining('institutional_holdings') })
    expect(body.data.tables.map((t: any) => t.slug)).toEqual(['shareholders', 'holder_distribution', 'institutional_holdings'])
    for (const t of body.data.tables) expect(body.data.data[t.slug]).toEqual(t.rows)
    const rows = body.data.data.shareholders
    expect(rows.length).toBeGreaterThanOrEqual(2)
    // The holdings agree with the share count /v1/quote's market cap implies (one market, many views).
    const total = market.byCode('hk00700')!.totalShares!
    for (const r of rows) {
      expect(r.ratio).toBeCloseTo((r.shares / total) * 100, 2)
      expect(r.end_date).toBe('2026-06-30')
      expect(['主要股东', '董事']).toContain(r.holder_type)
    }
    expect(body.data.data.holder_distribution).toEqual([])
  })

  it('answers ok:false NO_DATA for a code the market does not have, HK or A-share', async () => {
    const unknown = Array.from({ length: 1000 }, (_, i) => `sh60${String(i).padStart(4, '0')}`).find((c) => !market.byCode(c))!
    expect((await getJson(`/v1/shareholder?code=${unknown}`)).body).toMatchObject({ ok: false, code: 'NO_DATA' })
    expect((await getJson('/v1/shareholder?code=hk00001')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('is ok:false UPSTREAM_UNAVAILABLE for an HK stock when Eastmoney fails', async () => {
    await fault('eastmoney', 'http')
    expect((await getJson('/v1/shareholder?code=hk00700')).body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
  })

  it.each([
    ['', 'code'],
    ['?code=sh600519,sz000001', 'code'],
    ['?code=sh000001', 'code'],
    ['?code=usAAPL', 'code'],
    ['?code=600519', 'code'],
  ])('answers 422 for %s naming %s', async (qs, field) => {
    const { status, body } = await getJson('/v1/shareholder' + qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it('needs a key', async () => {
    expect((await getJson('/v1/shareholder?code=sh600519', { anonymous: true })).status).toBe(401)
  })
})

import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market/index'
import { deletePrefix } from '../src/store/r2-json'
import { fault, getJson, makeKey, resetWorld, upstreamRequests } from './helpers'
import { post } from './store-app'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

describe('GET /v1/shareholder', () => {
  beforeEach(() => resetWorld())

  it('answers the A-share sections in order, tables and the slug index carrying the same rows', async () => {
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

  it('fails over to Sina\'s shareholder page with the same top ten and holder counts when Eastmoney fails', async () => {
    const want = (await getJson('/v1/shareholder?code=sh600519')).body.data.data
    await resetWorld()
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/shareholder?code=sh600519')
    expect(body).toMatchObject({ ok: true, source: 'emulator:sina', notice: expect.stringMatching(/^top10_float_holders is empty/) })
    const d = body.data.data
    expect(d.top10_holders.map((h: any) => [h.end_date, h.rank, h.holder_name, h.shares])).toEqual(want.top10_holders.map((h: any) => [h.end_date, h.rank, h.holder_name, h.shares]))
    d.top10_holders.forEach((h: any, k: number) => expect(Math.abs(h.ratio - want.top10_holders[k].ratio)).toBeLessThanOrEqual(0.005))
    expect(d.holder_count.map((r: any) => [r.end_date, r.totalSHNum, r.notice_date])).toEqual(want.holder_count.map((r: any) => [r.end_date, r.totalSHNum, r.notice_date]))
    // Sina prints the average in whole shares.
    d.holder_count.forEach((r: any, k: number) => expect(Math.abs(r.avgHoldShares - want.holder_count[k].avgHoldShares)).toBeLessThanOrEqual(0.5))
    expect(d.top10_float_holders).toEqual([])
  })

  it('answers ok:false, not counted, when Eastmoney and Sina fail', async () => {
    const key = await makeKey('trial')
    await fault('eastmoney', 'garbage')
    await fault('sina', 'http')
    const { body } = await getJson('/v1/shareholder?code=sh600519', bearer(key))
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: { tables: [], data: {} } })
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', bearer(key))).body.data.endpoints).toEqual({})
  })

  it('answers an HK stock\'s disclosed shareholders and its CCASS record in the HK sections', async () => {
    const { body } = await getJson('/v1/shareholder?code=hk00700')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', as_of: '2026-06-30' })
    expect(body).not.toHaveProperty('notice')
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
  })

  it('answers the CCASS distribution: categories adding up to the CCASS total, the rest not in CCASS, all of the issued shares', async () => {
    const d = (await getJson('/v1/shareholder?code=hk00700')).body.data.data
    const rows = d.holder_distribution
    // Friday 10:30: the newest record is Thursday's.
    for (const r of rows) expect(r.date).toBe('2026-11-19')
    expect(rows.map((r: any) => r.key)).toEqual(['market_intermediaries', 'consenting_investor_participants', 'non_consenting_investor_participants', 'total_in_ccass', 'not_in_ccass', 'issued'])
    const by = Object.fromEntries(rows.map((r: any) => [r.key, r]))
    expect(by.market_intermediaries.category).toBe('Market Intermediaries')
    expect(by.market_intermediaries.shareholding + by.consenting_investor_participants.shareholding + by.non_consenting_investor_participants.shareholding).toBe(by.total_in_ccass.shareholding)
    expect(by.total_in_ccass.shareholding + by.not_in_ccass.shareholding).toBe(by.issued.shareholding)
    expect(by.issued).toMatchObject({ shareholding: market.byCode('hk00700')!.totalShares, participants: null, percent_of_issued: 100 })
    expect(by.not_in_ccass.percent_of_issued).toBeCloseTo((by.not_in_ccass.shareholding / by.issued.shareholding) * 100, 2)
    expect(by.total_in_ccass.participants).toBe(by.market_intermediaries.participants + by.consenting_investor_participants.participants + by.non_consenting_investor_participants.participants)
    for (const r of rows.slice(0, 3)) expect(Math.abs(r.percent_of_issued - (r.shareholding / by.issued.shareholding) * 100)).toBeLessThanOrEqual(0.01)
    // The site prints the total's percent as the sum of the categories' printed (cut) ones (test/fixtures/hkex/SOURCE.md).
    expect(by.total_in_ccass.percent_of_issued).toBeCloseTo(by.market_intermediaries.percent_of_issued + by.consenting_investor_participants.percent_of_issued + by.non_consenting_investor_participants.percent_of_issued, 9)
    expect(Math.abs(by.total_in_ccass.percent_of_issued - (by.total_in_ccass.shareholding / by.issued.shareholding) * 100)).toBeLessThanOrEqual(0.03)

    // The participants: every listed one, largest first, adding up to the CCASS total less the unlisted non-consenting investors.
    const parts = d.institutional_holdings
    expect(parts).toHaveLength(by.market_intermediaries.participants + by.consenting_investor_participants.participants)
    expect(parts.map((p: any) => p.shareholding)).toEqual([...parts.map((p: any) => p.shareholding)].sort((a: number, b: number) => b - a))
    expect(parts.reduce((s: number, p: any) => s + p.shareholding, 0)).toBe(by.total_in_ccass.shareholding - by.non_consenting_investor_participants.shareholding)
    expect(parts.map((p: any) => p.participant_id)).toEqual(expect.arrayContaining(['C00019', 'C00100', 'C00010', 'A00003', 'A00004']))
    for (const p of parts) {
      expect(p).toEqual({ date: '2026-11-19', participant_id: expect.stringMatching(/^[A-Z]\d{5}$/), name: expect.any(String), shareholding: expect.any(Number), percent_of_issued: expect.any(Number) })
    }
  })

  it('answers CCASS rows with exactly the fields /openapi.json documents for them', async () => {
    const schemas = (await getJson('/openapi.json')).body.components.schemas
    const d = (await getJson('/v1/shareholder?code=hk00700')).body.data.data
    for (const [slug, name] of [['holder_distribution', 'HkHolderDistributionRow'], ['institutional_holdings', 'HkCcassParticipantRow']]) {
      const props = Object.keys(schemas[name].properties).sort()
      expect(schemas[name].required.sort()).toEqual(props)
      for (const r of d[slug]) expect(Object.keys(r).sort()).toEqual(props)
    }
    expect(schemas.HkHolderDistributionRow.properties.key.enum).toEqual(d.holder_distribution.map((r: any) => r.key))
  })

  it('asks CCASS once per stock and day: the next caller is served from the cache', async () => {
    await getJson('/v1/shareholder?code=hk00700')
    const before = (await upstreamRequests()).hkex
    expect(before).toBe(2) // the form, then the search
    await getJson('/v1/shareholder?code=hk00700')
    expect((await upstreamRequests()).hkex).toBe(before)
  })

  it('still serves the disclosed shareholders when CCASS fails, the CCASS sections empty and the notice saying why', async () => {
    await fault('hkex', 'http')
    const { body } = await getJson('/v1/shareholder?code=hk00700')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney', notice: expect.stringMatching(/^holder_distribution and institutional_holdings are empty: HKEX CCASS failed \(.*HTTP 502/) })
    expect(body.data.data.shareholders.length).toBeGreaterThanOrEqual(2)
    expect(body.data.data.holder_distribution).toEqual([])
    expect(body.data.data.institutional_holdings).toEqual([])
  })

  it('says CCASS has no record when the search finds none, and invents nothing', async () => {
    await fault('hkex', 'empty')
    const { body } = await getJson('/v1/shareholder?code=hk00700')
    expect(body).toMatchObject({ ok: true, notice: expect.stringContaining('HKEX CCASS has no record of this stock') })
    expect(body.data.data.holder_distribution).toEqual([])
    expect(body.data.data.institutional_holdings).toEqual([])
  })

  it('answers ok:false NO_DATA for a code the market does not have, HK or A-share', async () => {
    const unknown = Array.from({ length: 1000 }, (_, i) => `sh60${String(i).padStart(4, '0')}`).find((c) => !market.byCode(c))!
    expect((await getJson(`/v1/shareholder?code=${unknown}`)).body).toMatchObject({ ok: false, code: 'NO_DATA' })
    expect((await getJson('/v1/shareholder?code=hk00001')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('is ok:false UPSTREAM_UNAVAILABLE for an HK stock when Eastmoney and CCASS both fail', async () => {
    await fault('eastmoney', 'http')
    await fault('hkex', 'http')
    expect((await getJson('/v1/shareholder?code=hk00700')).body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: { tables: [], data: {} } })
  })

  it('serves the CCASS sections when Eastmoney fails, shareholders empty and the notice saying why', async () => {
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/shareholder?code=hk00700')
    expect(body).toMatchObject({ ok: true, source: 'emulator:hkex', as_of: '2026-11-19', notice: expect.stringMatching(/^shareholders is empty: Eastmoney failed \(/) })
    expect(body.data.data.shareholders).toEqual([])
    expect(body.data.data.holder_distribution.length).toBe(6)
    expect(body.data.data.institutional_holdings.length).toBeGreaterThan(10)
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

describe('GET /v1/shareholder: CCASS agrees with the rest of the market', () => {
  // Friday 17:00 Beijing: HK's session of the 20th is closed, so the HK factor table is built.
  beforeEach(async () => {
    await resetWorld('2026-11-20T17:00:00+08:00')
    await deletePrefix(env.STORE, 'factors/')
    await deletePrefix(env.STORE, 'meta/factors-')
  })

  it('issued shares × close is the HK market cap /v1/screen reports, and the controlling holder fits in the shares outside CCASS', async () => {
    expect((await post('/__jobs/foreign-factors', { market: 'hk' })).body).toMatchObject({ status: 'done' })
    const screen = (await getJson(`/v1/screen?market=hk&expr=${encodeURIComponent('TotalMV > 0')}&orderby=TotalMV&limit=500`)).body
    const row = screen.structured.find((r: any) => r.code === 'hk00700')
    const d = (await getJson('/v1/shareholder?code=hk00700')).body.data.data
    const by = Object.fromEntries(d.holder_distribution.map((r: any) => [r.key, r]))
    // TotalMV is in 100 million HKD.
    expect((by.issued.shareholding * Number(row.ClosePrice)) / 1e8).toBeCloseTo(Number(row.TotalMV), 0)
    // The disclosed interests are percents of the same issued shares.
    for (const h of d.shareholders) expect(h.ratio).toBeCloseTo((h.shares / by.issued.shareholding) * 100, 2)
    // The controlling holder's block (held through its corporations) is registered outside CCASS.
    const controlling = d.shareholders.find((h: any) => h.identity === '受控法团权益')
    expect(controlling.shares).toBeLessThanOrEqual(by.not_in_ccass.shareholding)
  })
})

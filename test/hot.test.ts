import { beforeEach, describe, expect, it } from 'vitest'
import { ANONYMOUS, fault, getJson, resetWorld, upstreamRequests } from './helpers'

describe('GET /v1/hot', () => {
  beforeEach(() => resetWorld())

  it('ranks A-shares, ETFs and US stocks with prices equal to /v1/quote', async () => {
    const { status, body } = await getJson('/v1/hot')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'hot', source: 'multi' })
    expect(body.data).toHaveLength(30)
    expect(body.as_of).toMatch(/^2026-11-20T10:\d\d:\d\d\+08:00$/)
    const ranks = body.data.map((r: any) => r.rank)
    expect([...ranks].sort((a: number, b: number) => a - b)).toEqual(ranks)
    expect(body.data[0]).toMatchObject({ rank: 1, market: 'cn' })
    expect(new Set(body.data.map((r: any) => r.market))).toEqual(new Set(['cn', 'us']))
    for (const r of body.data) {
      expect(r.code).toMatch(r.market === 'us' ? /^us[A-Z]/ : /^(sh|sz|bj)\d{6}$/)
      expect(typeof r.name).toBe('string')
      expect(Number.isInteger(r.rank_change)).toBe(true)
      expect(r.rank_source).toBe('eastmoney')
    }
    // Prices are /v1/quote's, for a stock and a US row.
    const picks = [body.data.find((r: any) => r.market === 'cn'), body.data.find((r: any) => r.market === 'us')]
    for (const r of picks) {
      const q = (await getJson(`/v1/quote?code=${r.code}&count=2`)).body
      expect(q.ok).toBe(true)
      expect(r.last).toBe(Number(q.data[0].last))
      const pre = Number(q.data[1].last)
      expect(r.change_pct).toBeCloseTo(((r.last - pre) / pre) * 100, 1)
    }
  })

  it("shows the last session's change before the match, and /v1/quote's price, for every row", async () => {
    // 09:05: every A-share line is re-stamped for the new day with no trade yet.
    await resetWorld('2026-11-20T09:05:00+08:00')
    const { body } = await getJson('/v1/hot?limit=100')
    expect(body.ok).toBe(true)
    const cn = body.data.filter((r: any) => r.market === 'cn')
    expect(cn.length).toBeGreaterThan(50)
    for (const r of body.data) expect(r.change_pct, r.code).not.toBeNull()
    for (const r of cn.slice(0, 3)) {
      const q = (await getJson(`/v1/quote?code=${r.code}&count=2`)).body
      expect(q.data[0].date).toBe('2026-11-19')
      expect(r.last).toBe(Number(q.data[0].last))
      const pre = Number(q.data[1].last)
      expect(r.change_pct).toBeCloseTo(((r.last - pre) / pre) * 100, 1)
    }
  })

  it('lists ETFs among the A-shares somewhere in the top 100', async () => {
    const { body } = await getJson('/v1/hot?limit=100')
    expect(body.data).toHaveLength(100)
    expect(body.data.some((r: any) => r.kind === 'etf')).toBe(true)
  })

  it('is the same on the next day only if the market says so: ranks are per day', async () => {
    const a = (await getJson('/v1/hot?limit=10')).body.data.map((r: any) => r.code)
    await resetWorld('2026-11-23T10:30:00+08:00')
    const b = (await getJson('/v1/hot?limit=10')).body.data.map((r: any) => r.code)
    expect(b).not.toEqual(a)
  })

  it('serves a thousand callers from one computation: upstream requests do not grow', async () => {
    await getJson('/v1/hot?limit=5')
    const before = await upstreamRequests()
    for (let i = 0; i < 5; i++) {
      const { body } = await getJson(`/v1/hot?limit=${i + 1}`)
      expect(body.data).toHaveLength(i + 1)
    }
    expect(await getJson('/v1/hot', ANONYMOUS)).toMatchObject({ status: 200, body: { ok: true, tier: 'free' } })
    expect(await upstreamRequests()).toEqual(before)
  })

  it('fails over to the THS hot list when Eastmoney fails: same popularity, prices equal to /v1/quote', async () => {
    const em = (await getJson('/v1/hot?limit=100')).body
    await resetWorld()
    await fault('eastmoney', 'http')
    const { status, body } = await getJson('/v1/hot?limit=100')
    expect(status).toBe(200)
    expect(body.ok).toBe(true)
    expect(body.notice).toMatch(/US list unavailable/)
    expect(body.data.length).toBeGreaterThan(50)
    for (const r of body.data) expect(r).toMatchObject({ rank_source: 'ths', market: 'cn', kind: 'stock' })
    // One popularity model: THS ranks the same stocks in the same order (it lists no ETFs).
    const emStocks = em.data.filter((r: any) => r.kind === 'stock').map((r: any) => r.code)
    const thsCodes = body.data.map((r: any) => r.code)
    expect(thsCodes.slice(0, emStocks.length)).toEqual(emStocks)
    expect(body.data.map((r: any) => r.rank)).toEqual(body.data.map((_: any, k: number) => k + 1))
    // The rank change is THS's own (hot_rank_chg), an integer here.
    expect(body.data.every((r: any) => Number.isInteger(r.rank_change))).toBe(true)
    // Prices are the quotes' prices.
    const r = body.data[3]
    const q = (await getJson(`/v1/quote?code=${r.code}&count=1`)).body
    expect(r.last).toBe(Number(q.data[0].last))
    const stock = em.data.find((x: any) => x.code === r.code)
    expect(r.last).toBe(stock.last)
    expect(r.change_pct).toBe(stock.change_pct)
  })

  it('answers ok:false, not counted, when both rank upstreams fail', async () => {
    await fault('eastmoney', 'http')
    await fault('ths', 'http')
    const { status, body } = await getJson('/v1/hot')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.error).toMatch(/popularity rank: eastmoney.*ths/)
  })

  it('says NO_DATA when both rank lists are empty', async () => {
    await fault('eastmoney', 'empty')
    await fault('ths', 'empty')
    const { body } = await getJson('/v1/hot')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('takes quotes from the next channel when the first fails, prices unchanged', async () => {
    const first = (await getJson('/v1/hot?limit=10')).body
    await resetWorld()
    await fault('tencent', 'http')
    const { body } = await getJson('/v1/hot?limit=10')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(body.data).toEqual(first.data)
  })

  it.each([['0'], ['101'], ['abc'], ['1.5']])('refuses limit=%s with a 422 naming the field', async (limit) => {
    const { status, body } = await getJson(`/v1/hot?limit=${limit}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'limit'])
  })

  it('refuses an unknown key with 401', async () => {
    const { status } = await getJson('/v1/hot', { headers: { authorization: 'Bearer sk-nope' } })
    expect(status).toBe(401)
  })
})

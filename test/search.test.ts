import { beforeEach, describe, expect, it } from 'vitest'
import { ANONYMOUS, fault, getJson, makeKey, resetWorld, upstreamRequests } from './helpers'

const get = async (q: string, key?: string) => getJson('/v1/search?q=' + encodeURIComponent(q), key ? { headers: { authorization: `Bearer ${key}` } } : undefined)

beforeEach(() => resetWorld())

describe('GET /v1/search', () => {
  it('finds 贵州茅台 by code, prefixed code, name, part of the name and pinyin initials', async () => {
    for (const q of ['600519', 'sh600519', '贵州茅台', '茅台', 'gzmt', 'GZMT']) {
      const { status, body } = await get(q)
      expect(status, q).toBe(200)
      expect(body, q).toMatchObject({ ok: true, endpoint: 'search', source: 'emulator:eastmoney' })
      expect(body.data[0], q).toEqual({ code: 'sh600519', name: '贵州茅台', kind: 'stock', market: 'shanghai', pinyin: 'GZMT' })
    }
  })

  it('finds a real stock by its real name, typed with ASCII or full-width letters, and by its pinyin', async () => {
    for (const q of ['sz000002', '万科A', '万科Ａ', 'wka', 'WKA']) {
      const { body } = await get(q)
      expect(body.data[0], q).toEqual({ code: 'sz000002', name: '万科Ａ', kind: 'stock', market: 'shenzhen', pinyin: 'WKA' })
    }
    expect((await get('chongqingpijiu')).body.data[0]).toMatchObject({ code: 'sh600132', name: '重庆啤酒' })
  })

  it('returns codes the quote endpoint serves, with the same names', async () => {
    const { body } = await get('平安')
    const codes = body.data.map((h: { code: string }) => h.code)
    expect(codes).toContain('sz000001')
    const quote = await getJson('/v1/quote?code=sz000001')
    expect(quote.body.ok).toBe(true)
    expect(body.data.find((h: { code: string }) => h.code === 'sz000001').name).toBe('平安银行')
  })

  it('covers ETFs, indexes, sectors, HK and US names', async () => {
    expect((await get('159915')).body.data[0]).toMatchObject({ code: 'sz159915', kind: 'fund' })
    expect((await get('上证指数')).body.data[0]).toMatchObject({ code: 'sh000001', kind: 'index' })
    expect((await get('pt0477')).body.data).toEqual([{ code: 'pt0477', name: '酿酒行业', kind: 'sector', market: 'a_share', pinyin: 'NJHY' }])
    expect((await get('腾讯')).body.data[0]).toMatchObject({ code: 'hk00700', market: 'hong_kong' })
    expect((await get('AAPL')).body.data[0]).toMatchObject({ code: 'usAAPL', market: 'us' })
  })

  it('keeps only the market a prefixed code names', async () => {
    const plain = (await get('000001')).body.data.map((h: { code: string }) => h.code)
    expect(plain).toEqual(expect.arrayContaining(['sh000001', 'sz000001']))
    expect((await get('sz000001')).body.data.map((h: { code: string }) => h.code)).toEqual(['sz000001'])
  })

  it('answers a repeat from the shared cache: one upstream request for many callers', async () => {
    const first = await get('gzmt')
    const before = (await upstreamRequests()).eastmoney
    for (let k = 0; k < 5; k++) await get('gzmt', await makeKey('trial'))
    expect((await upstreamRequests()).eastmoney).toBe(before)
    expect((await get('gzmt')).body.as_of).toBe(first.body.as_of)
  })

  it('finds a name by its whole pinyin, on Sina too when Eastmoney fails (q=pingan)', async () => {
    const em = (await get('pingan')).body
    expect(em).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(em.data[0]).toMatchObject({ code: 'sz000001', name: '平安银行' })
    await resetWorld()
    await fault('eastmoney', 'http')
    const sina = (await get('pingan')).body
    expect(sina).toMatchObject({ ok: true, source: 'emulator:sina' })
    expect(sina.data[0]).toMatchObject({ code: 'sz000001', name: '平安银行', pinyin: null })
    expect((await get('maotai')).body.data[0]).toMatchObject({ code: 'sh600519', name: '贵州茅台' })
  })

  it('fails over to Sina when Eastmoney fails', async () => {
    await fault('eastmoney', 'http')
    const { body } = await get('gzmt')
    expect(body).toMatchObject({ ok: true, source: 'emulator:sina' })
    expect(body.data[0]).toMatchObject({ code: 'sh600519', name: '贵州茅台', pinyin: null })
  })

  it('answers ok:false UPSTREAM_UNAVAILABLE when every upstream fails, and does not count it', async () => {
    await fault('eastmoney', 'garbage')
    await fault('sina', 'http')
    const key = await makeKey('trial')
    const { status, body } = await get('gzmt', key)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.error).toMatch(/eastmoney: malformed.*sina: http/)
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil
    const usage = (await getJson('/v1/usage', { headers: { authorization: `Bearer ${key}` } })).body.data
    expect(usage.endpoints).toEqual({})
  })

  it('answers ok:false NO_DATA when nothing matches', async () => {
    const { body } = await get('qqqqqqqq')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it('answers ok:false NO_DATA when the upstreams answer with an empty list', async () => {
    await fault('eastmoney', 'empty')
    await fault('sina', 'empty')
    const { body } = await get('gzmt')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it('refuses a blank or overlong q with a 422 naming the field, and a call without a key with 401', async () => {
    for (const q of ['', '   ', 'x'.repeat(41)]) {
      const { status, body } = await get(q)
      expect(status, JSON.stringify(q)).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', 'q'])
    }
    expect((await getJson('/v1/search')).status).toBe(422)
    expect((await getJson('/v1/search?q=gzmt', ANONYMOUS)).status).toBe(401)
  })
})

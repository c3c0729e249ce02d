import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import type { ChannelContext, KlineRequest } from '../types'
import { eastmoney } from './index'

type Handler = (url: string, init?: RequestInit) => Promise<Response> | Response

/** A fake upstream that records every URL it is asked for. */
function fakeCtx(handler: Handler, timeoutMs = 1000): ChannelContext & { urls: string[] } {
  const urls: string[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input)
    urls.push(url)
    return handler(url, init)
  }
  return { fetch: fetch as typeof globalThis.fetch, timeoutMs, urls }
}

const json = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } })

/** Never answers; rejects like fetch does once the caller aborts. */
const hang: Handler = (_url, init) =>
  new Promise((_, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')))
  })

const quoteRow = (market: number, code: string, last = 10) =>
  `{"f2":${last},"f3":0,"f4":0,"f5":100,"f6":1000.0,"f8":0.1,"f12":"${code}","f13":${market},"f14":"n${code}","f15":${last},"f16":${last},"f17":${last},"f18":${last},"f124":1735801203,"f297":20250102}`

/** Answers ulist.np/get with a row for every secid asked for, minus `unknown`. */
const echoQuotes = (unknown: string[] = []): Handler => (url) => {
  const secids = new URL(url).searchParams.get('secids')!.split(',').filter((s) => !unknown.includes(s))
  const rows = secids.map((s) => {
    const [m, c] = s.split('.')
    return quoteRow(Number(m), c)
  })
  return json(rows.length ? `{"rc":0,"data":{"total":${rows.length},"diff":[${rows.join(',')}]}}` : '{"rc":0,"data":null}')
}

const D1 = '2025-01-02,150.00,152.00,153.00,149.00,1000,152000.00,2.67,1.33,2.00,0.10'
const klineBody = `{"rc":0,"data":{"code":"X","market":106,"name":"x","decimal":2,"dktotal":1,"preKPrice":150,"klines":["${D1}"]}}`
const kreq = (code: string, extra: Partial<KlineRequest> = {}): KlineRequest => ({ instrument: parseSymbol(code), period: 'day', count: 5, ...extra })

describe('eastmoney.quotes', () => {
  it('asks once for a small batch and maps the answer to canonical codes', async () => {
    const ctx = fakeCtx(echoQuotes())
    const quotes = await eastmoney.quotes([parseSymbol('sh600519'), parseSymbol('hk00700'), parseSymbol('us.DJI')], ctx)
    expect(ctx.urls).toEqual([
      'https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f124,f297&secids=1.600519,116.00700,100.DJIA',
    ])
    expect([...quotes.keys()]).toEqual(['sh600519', 'hk00700', 'us.DJI'])
    expect(quotes.get('sh600519')?.volume).toBe(10000)
  })

  it('sends every venue for an unlisted US ticker and keeps the one that answers', async () => {
    const ctx = fakeCtx(echoQuotes(['105.SPY']))
    const quotes = await eastmoney.quotes([parseSymbol('usSPY')], ctx)
    expect(ctx.urls[0]).toMatch(/&secids=105\.SPY,106\.SPY,107\.SPY$/)
    expect(quotes.get('usSPY')?.name).toBe('nSPY')
  })

  it('splits into batches of 100 with at most 4 in flight', async () => {
    let inFlight = 0
    let peak = 0
    const echo = echoQuotes()
    const ctx = fakeCtx(async (url, init) => {
      peak = Math.max(peak, ++inFlight)
      await new Promise((r) => setTimeout(r, 5))
      inFlight--
      return echo(url, init)
    })
    const instruments = Array.from({ length: 450 }, (_, i) => parseSymbol(`sh${600000 + i}`))
    const quotes = await eastmoney.quotes(instruments, ctx)
    const sizes = ctx.urls.map((u) => new URL(u).searchParams.get('secids')!.split(',').length)
    expect(sizes).toEqual([100, 100, 100, 100, 50])
    expect(peak).toBe(4)
    expect(quotes.size).toBe(450)
  })

  it('does not call out for an empty list, and leaves out what has no secid', async () => {
    const ctx = fakeCtx(echoQuotes())
    expect((await eastmoney.quotes([], ctx)).size).toBe(0)
    expect(ctx.urls).toEqual([])
    const quotes = await eastmoney.quotes([parseSymbol('fuRB501'), parseSymbol('sz000001')], ctx)
    expect([...quotes.keys()]).toEqual(['sz000001'])
  })

  it('returns an empty map when the upstream knows none', async () => {
    const ctx = fakeCtx(() => json('{"rc":0,"data":null}'))
    expect((await eastmoney.quotes([parseSymbol('sh600519')], ctx)).size).toBe(0)
  })

  it.each([
    ['timeout', hang],
    ['http', () => json('Bad Gateway', 502)],
    ['network', () => Promise.reject(new TypeError('fetch failed'))],
    ['malformed', () => json('<html>oops</html>')],
  ] as Array<[string, Handler]>)('surfaces %s as a ChannelError', async (kind, handler) => {
    const ctx = fakeCtx(handler, 20)
    await expect(eastmoney.quotes([parseSymbol('sh600519')], ctx)).rejects.toMatchObject({ name: 'ChannelError', kind, channel: 'eastmoney' })
  })

  it('fails the whole call when one batch fails', async () => {
    const echo = echoQuotes()
    const ctx = fakeCtx((url, init) => (url.includes('1.600100') ? json('', 502) : echo(url, init)))
    const instruments = Array.from({ length: 250 }, (_, i) => parseSymbol(`sh${600000 + i}`))
    await expect(eastmoney.quotes(instruments, ctx)).rejects.toMatchObject({ kind: 'http' })
  })
})

describe('eastmoney.kline', () => {
  it('asks for the exact README URL', async () => {
    const ctx = fakeCtx(() => json(klineBody))
    await eastmoney.kline(kreq('sh600519', { start: '2025-01-01', end: '2025-01-10' }), ctx)
    expect(ctx.urls).toEqual([
      'https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=1&beg=20250101&end=20250110&lmt=5&fields1=f1,f2,f3,f4,f5,f6&fields2=f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61',
    ])
  })

  it('tries the next US venue on empty', async () => {
    const ctx = fakeCtx((url) => json(url.includes('secid=107.') ? klineBody : url.includes('secid=105.') ? '{"rc":100,"data":null}' : '{"rc":0,"data":{"klines":[]}}'))
    const bars = await eastmoney.kline(kreq('usSPY'), ctx)
    expect(ctx.urls.map((u) => new URL(u).searchParams.get('secid'))).toEqual(['105.SPY', '106.SPY', '107.SPY'])
    expect(bars).toEqual([{ date: '2025-01-02', open: 150, close: 152, high: 153, low: 149, volume: 1000, amount: 152000, turnover: 0.1 }])
  })

  it('reports empty when no venue has the ticker, and stops at any other failure', async () => {
    const none = fakeCtx(() => json('{"rc":100,"data":null}'))
    await expect(eastmoney.kline(kreq('usSPY'), none)).rejects.toMatchObject({ kind: 'empty' })
    expect(none.urls).toHaveLength(3)
    const bad = fakeCtx(() => json('{"rc":0,"data":{"klines":["2025-01-02,-"]}}'))
    await expect(eastmoney.kline(kreq('usSPY'), bad)).rejects.toMatchObject({ kind: 'malformed' })
    expect(bad.urls).toHaveLength(1)
  })

  it('asks a known US listing only once', async () => {
    const ctx = fakeCtx(() => json('{"rc":100,"data":null}'))
    await expect(eastmoney.kline(kreq('usBABA'), ctx)).rejects.toMatchObject({ kind: 'empty' })
    expect(ctx.urls).toHaveLength(1)
    expect(ctx.urls[0]).toContain('secid=106.BABA&')
  })

  it('refuses a contract with no secid without calling out', async () => {
    const ctx = fakeCtx(() => json(klineBody))
    await expect(eastmoney.kline(kreq('fuRB501'), ctx)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(ctx.urls).toEqual([])
  })

  it.each([
    ['timeout', hang],
    ['http', () => json('Bad Gateway', 502)],
    ['network', () => Promise.reject(new TypeError('Network connection lost.'))],
    ['malformed', () => json('garbage')],
    ['empty', () => json('{"rc":0,"data":{"klines":[]}}')],
  ] as Array<[string, Handler]>)('surfaces %s as a ChannelError', async (kind, handler) => {
    const ctx = fakeCtx(handler, 20)
    await expect(eastmoney.kline(kreq('sh600519'), ctx)).rejects.toMatchObject({ name: 'ChannelError', kind, channel: 'eastmoney' })
  })
})

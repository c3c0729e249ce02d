import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { channelOfHost, createEmulatorFetch, faults, isClockFixed, MAX_WAIT_MS, now, requestCounts, resetEmulator, setClock, setFault } from './control'
import { fakeMarket } from './wire/fake-market'

const fetchEmu = createEmulatorFetch(fakeMarket)
const SINA = { headers: { Referer: 'https://finance.sina.com.cn/' } }
const EM_QUOTE = 'https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&fields=f2,f12,f13&secids=1.600519'
const EM_KLINE = 'https://push2his.eastmoney.com/api/qt/stock/kline/get?secid=1.600519&klt=101&fqt=1&end=20500101&lmt=1'
const TX_QUOTE = 'https://qt.gtimg.cn/q=sh600519'
const SINA_QUOTE = 'https://hq.sinajs.cn/list=sh600519'
const CLOCK = Date.parse('2025-01-02T07:30:00Z')

beforeEach(() => {
  resetEmulator()
  setClock(CLOCK)
})
afterEach(() => {
  vi.useRealTimers()
  resetEmulator()
})

describe('routing', () => {
  it('maps hosts to channels', () => {
    expect(channelOfHost('push2.eastmoney.com')).toBe('eastmoney')
    expect(channelOfHost('82.push2his.eastmoney.com')).toBe('eastmoney')
    expect(channelOfHost('dq.10jqka.com.cn')).toBe('ths')
    expect(channelOfHost('www3.hkexnews.hk')).toBe('hkex')
    expect(channelOfHost('qt.gtimg.cn')).toBe('tencent')
    expect(channelOfHost('web.ifzq.gtimg.cn')).toBe('tencent')
    expect(channelOfHost('proxy.finance.qq.com')).toBe('tencent')
    expect(channelOfHost('hq.sinajs.cn')).toBe('sina')
    expect(channelOfHost('quotes.sina.cn')).toBe('sina')
    expect(channelOfHost('finance.sina.com.cn')).toBe('sina')
    expect(channelOfHost('qq.com')).toBeUndefined()
    expect(channelOfHost('notsina.cn')).toBeUndefined()
  })

  it('answers each upstream and counts requests per channel', async () => {
    expect((await (await fetchEmu(EM_QUOTE)).json() as any).data.diff[0].f12).toBe('600519')
    expect(new TextDecoder('gbk').decode(await (await fetchEmu(TX_QUOTE)).arrayBuffer())).toContain('贵州茅台')
    expect(new TextDecoder('gbk').decode(await (await fetchEmu(SINA_QUOTE, SINA)).arrayBuffer())).toContain('贵州茅台')
    await fetchEmu(new Request(EM_KLINE))
    const ths = (await (await fetchEmu('https://dq.10jqka.com.cn/fuyao/hot_list_data/out/hot_list/v1/stock?stock_type=a&type=hour&list_type=normal')).json()) as any
    expect(ths.data.stock_list[0]).toMatchObject({ order: 1 })
    expect(requestCounts()).toEqual({ eastmoney: 2, tencent: 1, sina: 1, ths: 1, hkex: 0 })
  })

  it('rejects unknown hosts like a DNS failure and 404s unknown paths', async () => {
    await expect(fetchEmu('https://example.com/')).rejects.toThrow(new TypeError('fetch failed'))
    expect((await fetchEmu('https://push2.eastmoney.com/nothing')).status).toBe(404)
    expect(requestCounts().eastmoney).toBe(1)
  })

  it('passes headers through (Sina wants its Referer)', async () => {
    expect((await fetchEmu(SINA_QUOTE)).status).toBe(403)
    expect((await fetchEmu(new Request(SINA_QUOTE, SINA))).status).toBe(200)
  })
})

describe('clock', () => {
  it('is real time unless fixed, and the handlers read it', async () => {
    resetEmulator()
    expect(isClockFixed()).toBe(false)
    expect(Math.abs(now() - Date.now())).toBeLessThan(1000)
    setClock(CLOCK)
    expect(now()).toBe(CLOCK)
    const body = (await (await fetchEmu(EM_KLINE)).json()) as any
    expect(body.data.klines[0].slice(0, 10)).toBe('2025-01-02')
    setClock(Date.parse('2024-12-31T08:00:00Z'))
    const earlier = (await (await fetchEmu(EM_KLINE)).json()) as any
    expect(earlier.data.klines[0].slice(0, 10)).toBe('2024-12-31')
  })
})

describe('faults', () => {
  it('http: 502 with an HTML page, on that channel only', async () => {
    setFault('eastmoney', { kind: 'http' })
    const res = await fetchEmu(EM_QUOTE)
    expect(res.status).toBe(502)
    expect(await res.text()).toContain('<title>502 Bad Gateway</title>')
    expect((await fetchEmu(TX_QUOTE)).status).toBe(200)
    expect((await fetchEmu(EM_QUOTE)).status).toBe(502)
  })

  it('count: affects only the next N requests, then clears itself', async () => {
    setFault('tencent', { kind: 'http', count: 2 })
    expect((await fetchEmu(TX_QUOTE)).status).toBe(502)
    expect(faults().tencent).toEqual({ kind: 'http', count: 1 })
    expect((await fetchEmu(TX_QUOTE)).status).toBe(502)
    expect(faults().tencent).toBeNull()
    expect((await fetchEmu(TX_QUOTE)).status).toBe(200)
  })

  it('garbage: 200 with bytes that are not the format', async () => {
    setFault('eastmoney', { kind: 'garbage' })
    const res = await fetchEmu(EM_QUOTE)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(() => JSON.parse(text)).toThrow()
    setFault('tencent', { kind: 'garbage' })
    expect(new TextDecoder('gbk').decode(await (await fetchEmu(TX_QUOTE)).arrayBuffer())).not.toMatch(/v_\w+="/)
  })

  it("empty: 200 with the upstream's own no-data form", async () => {
    for (const c of ['eastmoney', 'tencent', 'sina'] as const) setFault(c, { kind: 'empty' })
    expect(await (await fetchEmu(EM_QUOTE)).json()).toMatchObject({ rc: 0, data: null })
    expect(((await (await fetchEmu(EM_KLINE)).json()) as any).data.klines).toEqual([])
    expect(new TextDecoder('gbk').decode(await (await fetchEmu(TX_QUOTE)).arrayBuffer())).toBe('v_pv_none_match="1";\n')
    expect(new TextDecoder('gbk').decode(await (await fetchEmu(SINA_QUOTE, SINA)).arrayBuffer())).toBe('var hq_str_sh600519="";\n')
  })

  it('ban: each host answers as it does when it bans us, for ms of the emulator clock or until cleared', async () => {
    for (const c of ['eastmoney', 'tencent', 'sina', 'ths'] as const) setFault(c, { kind: 'ban', ms: 60_000 })
    const em = await fetchEmu(EM_KLINE)
    expect(em.status).toBe(403)
    expect(await em.text()).toContain('403 Forbidden')
    const tx = await fetchEmu(TX_QUOTE)
    expect([tx.status, (await tx.arrayBuffer()).byteLength]).toEqual([200, 0])
    const sina = await fetchEmu(SINA_QUOTE, SINA)
    expect([sina.status, await sina.text()]).toEqual([403, 'Kinsoku jikou desu!'])
    expect((await fetchEmu('https://dq.10jqka.com.cn/fuyao/hot_list_data/out/hot_list/v1/stock?stock_type=a&type=hour&list_type=normal')).status).toBe(403)
    // It does not wear off with requests, only with the clock.
    for (let i = 0; i < 5; i++) expect((await fetchEmu(EM_QUOTE)).status).toBe(403)
    setClock(CLOCK + 59_999)
    expect((await fetchEmu(EM_QUOTE)).status).toBe(403)
    setClock(CLOCK + 60_000)
    expect((await fetchEmu(EM_QUOTE)).status).toBe(200)
    expect(faults().eastmoney).toBeNull()
    // Without ms it lasts until cleared; the requests are counted all the same.
    setFault('eastmoney', { kind: 'ban' })
    setClock(CLOCK + 86_400_000)
    expect((await fetchEmu(EM_QUOTE)).status).toBe(403)
    expect(requestCounts().eastmoney).toBe(9)
  })

  it('timeout: never answers, and rejects with the signal reason when aborted', async () => {
    setFault('eastmoney', { kind: 'timeout' })
    const controller = new AbortController()
    const started = Date.now()
    setTimeout(() => controller.abort(), 50)
    const err = await fetchEmu(EM_QUOTE, { signal: controller.signal }).catch((e) => e)
    expect(err).toBeInstanceOf(DOMException)
    expect(err.name).toBe('AbortError')
    expect(Date.now() - started).toBeLessThan(5_000)
    const custom = new AbortController()
    const reason = new Error('deadline')
    setTimeout(() => custom.abort(reason), 10)
    await expect(fetchEmu(EM_QUOTE, { signal: custom.signal })).rejects.toBe(reason)
    await expect(fetchEmu(EM_QUOTE, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
  })

  it(`timeout: gives up after ${MAX_WAIT_MS} ms without a signal`, async () => {
    vi.useFakeTimers()
    setFault('sina', { kind: 'timeout' })
    const pending = fetchEmu(SINA_QUOTE, SINA).catch((e) => e)
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS)
    expect(await pending).toEqual(new TypeError('fetch failed'))
  })

  it('slow: answers correctly after ms, and honours abort meanwhile', async () => {
    setFault('tencent', { kind: 'slow', ms: 150 })
    const started = Date.now()
    const res = await fetchEmu(TX_QUOTE)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    expect(new TextDecoder('gbk').decode(await res.arrayBuffer())).toContain('贵州茅台')
    setFault('tencent', { kind: 'slow', ms: 10_000 })
    await expect(fetchEmu(TX_QUOTE, { signal: AbortSignal.timeout(30) })).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('reset clears faults, clock and counters', async () => {
    setFault('sina', { kind: 'http' })
    await fetchEmu(SINA_QUOTE, SINA)
    resetEmulator()
    expect(faults()).toEqual({ eastmoney: null, tencent: null, sina: null, ths: null, hkex: null })
    expect(requestCounts()).toEqual({ eastmoney: 0, tencent: 0, sina: 0, ths: 0, hkex: 0 })
    expect(isClockFixed()).toBe(false)
  })
})

describe('answers under a fixed clock', () => {
  it('repeat byte for byte and still count, change with the clock, and keep Sina\'s Referer rule', async () => {
    const body = async (url: string, init?: RequestInit) => new Uint8Array(await (await fetchEmu(url, init)).arrayBuffer())
    const inSession = Date.parse('2025-01-02T02:30:00Z')
    setClock(inSession)
    const first = await body(TX_QUOTE)
    expect(await body(TX_QUOTE)).toEqual(first)
    expect(requestCounts().tencent).toBe(2)
    setClock(inSession + 60_000)
    expect(await body(TX_QUOTE)).not.toEqual(first)
    expect((await fetchEmu(SINA_QUOTE, SINA)).status).toBe(200)
    expect((await fetchEmu(SINA_QUOTE)).status).toBe(403)
  })

  it('leave faults in charge', async () => {
    await fetchEmu(TX_QUOTE)
    setFault('tencent', { kind: 'http', count: 1 })
    expect((await fetchEmu(TX_QUOTE)).status).toBe(502)
    expect((await fetchEmu(TX_QUOTE)).status).toBe(200)
  })
})

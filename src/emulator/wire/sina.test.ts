import { describe, expect, it } from 'vitest'
import { fakeMarket } from './fake-market'
import { fixed } from './format'
import { handleSina, hasSinaReferer, sinaEmpty } from './sina'

// Thursday 2025-01-02 15:30 Beijing: the session has closed, today's bar is complete.
const NOW = Date.parse('2025-01-02T07:30:00Z')
const REFERER = { Referer: 'https://finance.sina.com.cn/' }
const inst = (code: string) => fakeMarket.byCode(code)!

function call(url: string, headers: Record<string, string> = REFERER, now = NOW): Promise<Response> | Response {
  const u = new URL(url)
  return handleSina(u, new Request(u, { headers }), fakeMarket, now)
}

async function quotes(codes: string, now = NOW): Promise<{ text: string; records: Map<string, string[]> }> {
  const res = await call(`https://hq.sinajs.cn/list=${codes}`, REFERER, now)
  expect(res.status).toBe(200)
  const text = new TextDecoder('gbk').decode(await res.arrayBuffer())
  const records = new Map<string, string[]>()
  for (const m of text.matchAll(/var hq_str_([^=]+)="([^"]*)";/g)) records.set(m[1], m[2] === '' ? [] : m[2].split(','))
  return { text, records }
}

describe('sina Referer', () => {
  it('answers 403 without a Referer on sina.com.cn, on every endpoint', async () => {
    for (const url of [
      'https://hq.sinajs.cn/list=sh600519',
      'https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData?symbol=sh600519&scale=240&ma=no&datalen=5',
      'https://finance.sina.com.cn/realstock/company/sh600519/qfq.js',
    ]) {
      expect((await call(url, {})).status).toBe(403)
      expect((await call(url, { Referer: 'https://evil.example/sina.com.cn' })).status).toBe(403)
      expect((await call(url, { Referer: 'https://vip.stock.finance.sina.com.cn/' })).status).toBe(200)
    }
  })

  it('accepts sina.com.cn and its subdomains only', () => {
    const req = (ref: string) => new Request('https://hq.sinajs.cn/', { headers: { Referer: ref } })
    expect(hasSinaReferer(req('https://finance.sina.com.cn/'))).toBe(true)
    expect(hasSinaReferer(req('https://sina.com.cn/x'))).toBe(true)
    expect(hasSinaReferer(req('https://notsina.com.cn/'))).toBe(false)
    expect(hasSinaReferer(req('not a url'))).toBe(false)
  })
})

describe('sina hq.sinajs.cn', () => {
  it('answers the 33-field A-share line in GBK with volume in shares and amount in CNY', async () => {
    const { text, records } = await quotes('sh600519')
    // Shanghai lines end `00,"`: one more, empty field (real captures, test/fixtures/sina/SOURCE.md).
    expect(text).toMatch(/^var hq_str_sh600519="贵州茅台,[^"]*,00,";\n$/)
    const f = records.get('sh600519')!
    expect(f).toHaveLength(34)
    expect(f[33]).toBe('')
    const q = fakeMarket.live(inst('sh600519'), NOW)
    const b = q.bar
    expect(f.slice(1, 6)).toEqual([b.open, b.preClose, b.close, b.high, b.low].map((n) => fixed(n, 3)))
    expect(f[8]).toBe(String(b.volume))
    expect(f[9]).toBe(fixed(b.amount, 3))
    expect([f[10], f[11]]).toEqual([String(q.book.bids[0][1]), fixed(q.book.bids[0][0], 3)])
    expect([f[20], f[21]]).toEqual([String(q.book.asks[0][1]), fixed(q.book.asks[0][0], 3)])
    expect([f[30], f[31]]).toEqual(['2025-01-02', '15:00:00'])
  })

  it('ends a Shenzhen line at the 33rd field, as real sz lines do', async () => {
    const { text, records } = await quotes('sz000001')
    expect(text).toMatch(/,00";\n$/)
    expect(records.get('sz000001')).toHaveLength(33)
  })

  it('answers an empty string for unknown codes, and a suspended stock\'s line with status 03 and no prices of the day', async () => {
    const { records } = await quotes('sh999999,sz000002,fxUSDCNH')
    expect(records.get('sh999999')).toEqual([])
    expect(records.get('fxUSDCNH')).toEqual([])
    const s = records.get('sz000002')!
    const pre = fixed(fakeMarket.live(inst('sz000002'), NOW).bar.preClose, 3)
    expect(s).toHaveLength(33)
    // As the 2015 capture of a suspended Shenzhen stock: last 0.000, previous close given, status 03.
    expect([s[1], s[2], s[3], s[8], s[32]]).toEqual(['0.000', pre, '0.000', '0', '03'])
  })

  it('lays out HK (rt_hk 25 fields, hk 19 with HH:MM) and US (36 fields, Beijing time at 3, previous close at 26, USD amount at 30)', async () => {
    const { records } = await quotes('rt_hk00700,hk00700,gb_aapl,gb_$dji')
    const hk = records.get('rt_hk00700')!
    const hb = fakeMarket.live(inst('hk00700'), NOW).bar
    expect(hk).toHaveLength(25)
    expect(hk.slice(19)).toEqual(['30|3', 'N|Y|Y', '0.000|0.000|0.000', '0|||0.000|0.000|0.000', ' |0', 'Y'])
    const delayed = records.get('hk00700')!
    expect(delayed).toHaveLength(19)
    expect([delayed[6], delayed[11], delayed[17], delayed[18]]).toEqual([fixed(hb.close, 3), String(Math.round(hb.amount)), '2025/01/02', '15:00'])
    expect(hk[1]).toBe('腾讯控股')
    expect([hk[2], hk[3], hk[4], hk[5], hk[6]]).toEqual([hb.open, hb.preClose, hb.high, hb.low, hb.close].map((n) => fixed(n, 3)))
    expect(hk[11]).toBe(fixed(hb.amount, 3))
    expect(hk[12]).toBe(String(hb.volume))
    expect([hk[17], hk[18]]).toEqual(['2025/01/02', '15:00:00'])
    const us = records.get('gb_aapl')!
    expect(us).toHaveLength(36)
    expect(us[30]).toBe(fixed(fakeMarket.live(inst('usAAPL'), NOW).bar.amount, 4))
    // The fake quotes US at 15:00 "exchange time" on 2025-01-02 (EST): 04:00 next day in Beijing.
    expect(us[3]).toBe('2025-01-03 04:00:00')
    expect(Number(us[26])).toBeCloseTo(fakeMarket.live(inst('usAAPL'), NOW).bar.preClose, 4)
    expect(us[25]).toBe('Jan 02 03:00PM EST')
    expect(records.get('gb_$dji')).toHaveLength(36)
    expect(records.get('gb_$dji')![30]).toBe('0.0000')
  })

  it('lays out commodity and CFFEX futures', async () => {
    const { records } = await quotes('nf_RB2501,nf_SR501,nf_IF2501')
    const rb = records.get('nf_RB2501')!
    const rbBar = fakeMarket.live(inst('fuRB2501'), NOW).bar
    expect(rb).toHaveLength(44)
    expect(rb[0]).toBe('螺纹钢2501')
    expect([rb[2], rb[3], rb[4], rb[5], rb[8]]).toEqual([rbBar.open, rbBar.high, rbBar.low, rbBar.preClose, rbBar.close].map((n) => fixed(n, 3)))
    expect(rb[14]).toBe(String(rbBar.volume))
    expect(rb[17]).toBe('2025-01-02')
    expect(records.get('nf_SR501')).toHaveLength(44)
    const ifx = records.get('nf_IF2501')!
    expect(ifx).toHaveLength(49)
    expect(ifx[36]).toBe('2025-01-02')
    expect(ifx[37]).toBe('15:00:00')
    expect(ifx[48]).toBe('沪深300股指2501')
  })

  it('accepts the rn= cache-buster', async () => {
    const res = await call('https://hq.sinajs.cn/rn=1704186000000&list=sh600519')
    expect(new TextDecoder('gbk').decode(await res.arrayBuffer())).toContain('var hq_str_sh600519="贵州茅台,')
  })
})

describe('sina getKLineData', () => {
  const url = (q: string) => `https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData?${q}&ma=no`
  const rows = async (q: string) => {
    const text = await (await call(url(q))).text()
    expect(text.startsWith('=(')).toBe(true)
    expect(text.endsWith(');')).toBe(true)
    return JSON.parse(text.slice(2, -2))
  }

  it('answers raw day bars with 3-decimal prices and shares, without amount (fixture kline-sh600519-day-2026-03-18)', async () => {
    const data = await rows('symbol=sh600519&scale=240&datalen=2')
    expect(data).toHaveLength(2)
    const raw = fakeMarket.dailyBars(inst('sh600519'), '2025-01-02', '2025-01-02', NOW)[0]
    expect(data[1]).toEqual({ day: '2025-01-02', open: fixed(raw.open, 3), high: fixed(raw.high, 3), low: fixed(raw.low, 3), close: fixed(raw.close, 3), volume: String(raw.volume) })
  })

  it('answers minute bars dated by their end with seconds', async () => {
    const data = await rows('symbol=sz000001&scale=5&datalen=2')
    expect(data.map((r: any) => r.day)).toEqual(['2025-01-02 14:55:00', '2025-01-02 15:00:00'])
  })

  it('caps datalen at 1023', async () => {
    const data = await rows('symbol=sh600519&scale=1&datalen=5000')
    expect(data).toHaveLength(1023)
  })

  it('answers =(null); for unknown symbols and keeps the variable name', async () => {
    expect(await (await call(url('symbol=sh999999&scale=240&datalen=2'))).text()).toBe('=(null);')
    const named = await call('https://quotes.sina.cn/cn/api/jsonp_v2.php/var%20_sh600519_240=/CN_MarketDataService.getKLineData?symbol=sh600519&scale=240&datalen=1')
    expect(await named.text()).toMatch(/^var _sh600519_240=\(\[\{"day":"2025-01-02"/)
  })
})

describe('sina qfq.js', () => {
  it('lists factors newest first at 16 decimals, f = 1/qfqFactor, with the 1900-01-01 sentinel last, then `;` and a comment', async () => {
    const res = await call('https://finance.sina.com.cn/realstock/company/sh600519/qfq.js')
    const text = await res.text()
    expect(text).toMatch(/^var sh600519qfq=\{"total":2,"data":\[\{"d":"2024-06-19", "f":"1\.0{16}"\},/)
    expect(text).toMatch(/\};\n\/\*[^]*\*\/$/)
    const object = (t: string) => JSON.parse(t.slice('var sh600519qfq='.length, t.indexOf('};') + 1))
    // The 2025-06-26 dividend is after the clock and not listed yet.
    // The model's factors have 6 significant decimals (bars.ts sinaQfqFactor), written at Sina's 16.
    const f16 = (x: number) => fixed(Number(fixed(x, 6)), 16)
    expect(object(text)).toEqual({ total: 2, data: [{ d: '2024-06-19', f: f16(1) }, { d: '1900-01-01', f: f16(1 / 0.98) }] })
    const later = await call('https://finance.sina.com.cn/realstock/company/sh600519/qfq.js', REFERER, Date.parse('2025-07-01T07:30:00Z'))
    const all = object(await later.text())
    expect(all.data.map((e: any) => e.f)).toEqual([f16(1), f16(1 / 0.985), f16(1 / (0.985 * 0.98))])
  })

  it('answers 404 for a code without corporate actions and for unknown codes', async () => {
    expect((await call('https://finance.sina.com.cn/realstock/company/sz000001/qfq.js')).status).toBe(404)
    expect((await call('https://finance.sina.com.cn/realstock/company/sh999999/qfq.js')).status).toBe(404)
  })
})

describe('sina empty forms and routing', () => {
  it('has an empty form per endpoint', async () => {
    const q = sinaEmpty(new URL('https://hq.sinajs.cn/list=sh600519,rt_hk00700'), fakeMarket)!
    expect(new TextDecoder('gbk').decode(await q.arrayBuffer())).toBe('var hq_str_sh600519="";\nvar hq_str_rt_hk00700="";\n')
    const k = sinaEmpty(new URL('https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData?symbol=sh600519'), fakeMarket)!
    expect(await k.text()).toBe('=(null);')
  })

  it('404s unknown paths', async () => {
    expect((await call('https://finance.sina.com.cn/realstock/company/sh600519/hisdata_klc2/klc_kl.js')).status).toBe(404)
  })
})

import { describe, expect, it } from 'vitest'
import type { Instrument } from '../../domain/instrument'
import { parseSymbol } from '../../domain/symbols'
import { ChannelError } from '../errors'
import { fetchQuotes, parseQuotes, quotesUrl } from './quotes'
import { LinePool } from '../live-lines'
import type { ChannelContext } from '../types'
import capturedNoneKnown from '../../../test/fixtures/push2/ulist-rc102-unknown-codes.json?raw'
import capturedLunch from '../../../test/fixtures/push2/ulist-quote-600519-2026-09-10-113118-lunch.json?raw'

const want = (...pairs: Array<[string, string]>) =>
  new Map<string, Instrument>(pairs.map(([secid, code]) => [secid, parseSymbol(code)]))

// Hand-written rows in the shape of README "Real-time quotes" / upstreams.md §1.3 (fltt=2).
const MOUTAI = `{"f2":1520.0,"f3":0.76,"f4":11.5,"f5":21345,"f6":3243567890.0,"f8":0.17,"f12":"600519","f13":1,"f14":"贵州茅台","f15":1525.0,"f16":1505.2,"f17":1510.0,"f18":1508.5,"f124":1735801203,"f297":20250102}`
const PINGAN = `{"f2":11.32,"f3":1.52,"f4":0.17,"f5":856432,"f6":965432100.5,"f8":0.44,"f12":"000001","f13":0,"f14":"平安银行","f15":11.4,"f16":11.1,"f17":11.2,"f18":11.15,"f124":1735801203,"f297":20250102}`
const TENCENT = `{"f2":418.2,"f3":1.02,"f4":4.2,"f5":18234567,"f6":7612345678.0,"f8":0.2,"f12":"00700","f13":116,"f14":"腾讯控股","f15":420.0,"f16":412.4,"f17":414.0,"f18":414.0,"f124":1735805403,"f297":20250102}`
const APPLE = `{"f2":243.85,"f3":-2.62,"f4":-6.57,"f5":55740731,"f6":13652000000.0,"f8":0.37,"f12":"AAPL","f13":105,"f14":"苹果","f15":249.1,"f16":241.82,"f17":248.93,"f18":250.42,"f124":1735851600,"f297":20250102}`
const SSE = `{"f2":3262.56,"f3":-2.66,"f4":-89.2,"f5":512345678,"f6":512345678901.0,"f8":"-","f12":"000001","f13":1,"f14":"上证指数","f15":3351.73,"f16":3242.09,"f17":3347.94,"f18":3351.76,"f124":1735801203,"f297":20250102}`
const HALTED = `{"f2":"-","f3":"-","f4":"-","f5":"-","f6":"-","f8":"-","f12":"600000","f13":1,"f14":"浦发银行","f15":"-","f16":"-","f17":"-","f18":10.05,"f124":1735781400,"f297":20250102}`
const REBAR = `{"f2":3300.0,"f3":0.3,"f4":10.0,"f5":1234567,"f6":40740711000.0,"f8":"-","f12":"rb2501","f13":113,"f14":"螺纹钢2501","f15":3320.0,"f16":3280.0,"f17":3290.0,"f18":3290.0,"f124":1735801203,"f297":20250102}`
const CNH = `{"f2":7.3512,"f3":0.05,"f4":0.0037,"f5":0,"f6":0,"f8":"-","f12":"USDCNH","f13":133,"f14":"美元兑离岸人民币","f15":7.3601,"f16":7.3402,"f17":7.3475,"f18":7.3475,"f124":1735801203,"f297":20250102}`

const body = (...rows: string[]) => `{"rc":0,"rt":11,"svr":181735076,"lt":1,"full":1,"dlmkts":"","data":{"total":${rows.length},"diff":[${rows.join(',')}]}}`

const expectMalformed = (fn: () => unknown) => expect(fn).toThrow(expect.objectContaining({ kind: 'malformed', channel: 'eastmoney' }))

describe('quotesUrl', () => {
  it('asks for the README field list and the secids in order', () => {
    expect(quotesUrl(['1.600519', '0.000001', '116.00700'])).toBe(
      'https://push2.eastmoney.com/api/qt/ulist.np/get?fltt=2&invt=2&fields=f2,f3,f4,f5,f6,f8,f12,f13,f14,f15,f16,f17,f18,f124,f297&secids=1.600519,0.000001,116.00700'
    )
  })
})

describe('parseQuotes', () => {
  it('reads an A-share row, converting lots to shares', () => {
    const q = parseQuotes(body(MOUTAI), want(['1.600519', 'sh600519'])).get('sh600519')
    expect(q).toEqual({
      code: 'sh600519',
      name: '贵州茅台',
      date: '2025-01-02',
      time: '15:00:03',
      last: 1520,
      open: 1510,
      high: 1525,
      low: 1505.2,
      preClose: 1508.5,
      volume: 2134500,
      amount: 3243567890,
      turnover: 0.17,
      halted: false,
      traded: true,
    })
  })

  it('maps rows by f13.f12, not by position', () => {
    // Same code 000001 on two markets, answered in the opposite order.
    const quotes = parseQuotes(body(PINGAN, SSE), want(['1.000001', 'sh000001'], ['0.000001', 'sz000001']))
    expect(quotes.get('sh000001')?.name).toBe('上证指数')
    expect(quotes.get('sz000001')?.name).toBe('平安银行')
    expect(quotes.get('sz000001')?.volume).toBe(85643200)
  })

  it('keeps HK and US volumes in shares and stamps US quotes in Eastern time', () => {
    const quotes = parseQuotes(body(TENCENT, APPLE), want(['116.00700', 'hk00700'], ['105.AAPL', 'usAAPL']))
    expect(quotes.get('hk00700')).toMatchObject({ volume: 18234567, amount: 7612345678, date: '2025-01-02', time: '16:10:03' })
    expect(quotes.get('usAAPL')).toMatchObject({ last: 243.85, volume: 55740731, date: '2025-01-02', time: '16:00:00' })
  })

  it('gives an index "-" turnover as null', () => {
    const q = parseQuotes(body(SSE), want(['1.000001', 'sh000001'])).get('sh000001')
    expect(q).toMatchObject({ turnover: null, last: 3262.56, volume: 51234567800 })
  })

  it('reads futures (case-insensitive code) and forex rows', () => {
    const quotes = parseQuotes(body(REBAR, CNH), want(['113.rb2501', 'fuRB2501'], ['133.USDCNH', 'fxUSDCNH']))
    expect(quotes.get('fuRB2501')).toMatchObject({ last: 3300, volume: 1234567, turnover: null })
    expect(quotes.get('fxUSDCNH')).toMatchObject({ last: 7.3512, volume: 0, amount: 0, turnover: null })
  })

  it('reports a halted row at the previous close with zeros for the day', () => {
    const q = parseQuotes(body(HALTED), want(['1.600000', 'sh600000'])).get('sh600000')
    expect(q).toEqual({
      code: 'sh600000',
      name: '浦发银行',
      date: '2025-01-02',
      time: '09:30:00',
      last: 10.05,
      open: 0,
      high: 0,
      low: 0,
      preClose: 10.05,
      volume: 0,
      amount: null,
      turnover: null,
      halted: true,
      traded: false,
    })
  })

  it('falls back to f124 in Beijing time for the date when f297 is missing', () => {
    const row = MOUTAI.replace(',"f297":20250102', '').replace('1735801203', '1735747200') // 2025-01-01 16:00 UTC
    expect(parseQuotes(body(row), want(['1.600519', 'sh600519'])).get('sh600519')).toMatchObject({ date: '2025-01-02', time: '00:00:00' })
  })

  it('returns an empty map for data:null and drops unknown secids', () => {
    expect(parseQuotes('{"rc":0,"data":null}', want(['1.600519', 'sh600519'])).size).toBe(0)
    expect(parseQuotes('{"rc":102,"data":null}', want(['1.600519', 'sh600519'])).size).toBe(0)
    // What ulist.np answers when it knows none of the secids (test/fixtures/push2/SOURCE.md): none known, not a failure.
    expect(parseQuotes(capturedNoneKnown, want(['1.600001', 'sh600001'])).size).toBe(0)
    const quotes = parseQuotes(body(MOUTAI), want(['1.600519', 'sh600519'], ['1.601999', 'sh601999']))
    expect([...quotes.keys()]).toEqual(['sh600519'])
  })

  it('ignores rows nobody asked for', () => {
    expect([...parseQuotes(body(PINGAN, MOUTAI), want(['1.600519', 'sh600519'])).keys()]).toEqual(['sh600519'])
  })

  it('lets the first answered US candidate win', () => {
    const nyse = APPLE.replace('"AAPL","f13":105', '"SPY","f13":106')
    const amex = APPLE.replace('"AAPL","f13":105', '"SPY","f13":107').replace('243.85', '244.0')
    const wanted = want(['105.SPY', 'usSPY'], ['106.SPY', 'usSPY'], ['107.SPY', 'usSPY'])
    expect(parseQuotes(body(amex, nyse), wanted).get('usSPY')?.last).toBe(243.85)
    expect(parseQuotes(body(amex), wanted).get('usSPY')?.last).toBe(244)
  })

  it('accepts diff as an object keyed by position', () => {
    const text = `{"rc":0,"data":{"total":1,"diff":{"0":${MOUTAI}}}}`
    expect(parseQuotes(text, want(['1.600519', 'sh600519'])).get('sh600519')?.last).toBe(1520)
  })

  it('accepts a JSONP-wrapped body', () => {
    const text = `jQuery35107_1735801203({"rc":0,"data":{"total":1,"diff":[${MOUTAI}]}});`
    expect(parseQuotes(text, want(['1.600519', 'sh600519'])).get('sh600519')?.last).toBe(1520)
  })

  it.each([
    ['high below low', MOUTAI.replace('"f15":1525.0', '"f15":1500.0')],
    ['last outside the range', MOUTAI.replace('"f2":1520.0', '"f2":1530.0')],
    ['a non-number price', MOUTAI.replace('"f17":1510.0', '"f17":"abc"')],
    ['a "-" price on a trading row', MOUTAI.replace('"f15":1525.0', '"f15":"-"')],
    ['a negative volume', MOUTAI.replace('"f5":21345', '"f5":-1')],
    ['no previous close', HALTED.replace('"f18":10.05', '"f18":"-"')],
    ['a short trade date', MOUTAI.replace('20250102', '2025012')],
    ['an impossible trade date', MOUTAI.replace('20250102', '20251399')],
    ['an absurd time stamp', MOUTAI.replace('1735801203', '8639999971200.001')],
    ['no date at all', MOUTAI.replace(',"f124":1735801203,"f297":20250102', '')],
  ])('refuses a row with %s as malformed', (_, row) => {
    expectMalformed(() => parseQuotes(body(row), want(['1.600519', 'sh600519'], ['1.600000', 'sh600000'])))
  })

  it.each([
    ['garbage text', '<html>502 Bad Gateway</html>'],
    ['an empty body', ''],
    ['truncated JSON', body(MOUTAI).slice(0, 120)],
    ['a JSON array', '[1,2,3]'],
    ['no rc', '{"data":null}'],
    ['data of the wrong type', '{"rc":0,"data":[1]}'],
    ['data without diff', '{"rc":0,"data":{"total":0}}'],
    ['a row that is not an object', '{"rc":0,"data":{"diff":[42]}}'],
    ['a row without f12', '{"rc":0,"data":{"diff":[{"f13":1,"f2":1}]}}'],
  ])('refuses %s as malformed', (_, text) => {
    expectMalformed(() => parseQuotes(text, want(['1.600519', 'sh600519'])))
  })

  it('throws only ChannelError', () => {
    try {
      parseQuotes('nope', want(['1.600519', 'sh600519']))
    } catch (e) {
      expect(e).toBeInstanceOf(ChannelError)
    }
  })
})

// A real ulist.np row of 600519 taken in the lunch break of 2026-09-10 (an excerpt: the fields its
// project reads), f124 11:31:18: test/fixtures/push2/SOURCE.md.
describe('parseQuotes on a captured lunch-break row', () => {
  it('reads the morning as traded, dated and timed by f124 when f297 is absent', () => {
    const q = parseQuotes(capturedLunch, want(['1.600519', 'sh600519'])).get('sh600519')!
    expect(q).toMatchObject({
      date: '2026-09-10', time: '11:31:18', last: 1283.98, preClose: 1290.88, open: 1291, high: 1294.99, low: 1283.01,
      volume: 1_070_100, amount: 1_375_928_521, halted: false, traded: true,
    })
    // Adds up: the average price lies in the morning's range.
    expect(q.amount! / q.volume).toBeGreaterThan(q.low)
    expect(q.amount! / q.volume).toBeLessThan(q.high)
  })
})

describe('fetchQuotes through the live lines', () => {
  it('shares ulist.np rows within the cadence and reads them as the direct answer', async () => {
    const requests: string[] = []
    const fetch: typeof globalThis.fetch = async (input: RequestInfo | URL) => {
      requests.push(new URL(String(input)).searchParams.get('secids') ?? '')
      return new Response(body(TENCENT, APPLE, MOUTAI))
    }
    // 2025-01-02 12:00 Beijing: Hong Kong's lunch, an A-share trading day.
    const clock = { now: Date.parse('2025-01-02T04:00:00Z') }
    const lines = new LinePool(() => clock.now, 0)
    const ctx: ChannelContext = { fetch, timeoutMs: 1_000, lines, now: () => clock.now }
    const hk = [parseSymbol('hk00700')]
    const first = await fetchQuotes(hk, ctx)
    expect(first.get('hk00700')).toEqual(parseQuotes(body(TENCENT), want(['116.00700', 'hk00700'])).get('hk00700'))
    expect(await fetchQuotes(hk, ctx)).toEqual(first)
    expect(requests).toEqual(['116.00700'])
    // 3 s later the row is asked for again.
    clock.now += 3_000
    await fetchQuotes(hk, ctx)
    expect(requests).toHaveLength(2)
  })
})

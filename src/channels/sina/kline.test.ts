import { describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { fakeContext, failureKind } from '../testkit'
import type { KlineRequest } from '../types'
import { sina } from './index'
import { parseKline } from './kline'

// Shapes of upstreams.md §2.6 (invented values).
const M5 = `=([{"day":"2025-01-02 14:55:00","open":"1519.000","high":"1521.000","low":"1518.800","close":"1520.500","volume":"31200","amount":"47425600.0000"},
{"day":"2025-01-02 15:00:00","open":"1520.500","high":"1520.900","low":"1519.600","close":"1520.000","volume":"49800","amount":"75696000.0000"}]);`
const DAYS = `/*<script>location.href='//sina.com';</script>*/
=([{"day":"2024-06-20","open":"1500.000","high":"1510.000","low":"1490.000","close":"1500.000","volume":"2134500","amount":"3201750000.000"},
{"day":"2024-06-21","open":"1480.000","high":"1490.000","low":"1470.000","close":"1485.000","volume":"2501200","amount":"3714282000.000"},
{"day":"2025-06-20","open":"1420.000","high":"1430.000","low":"1410.000","close":"1425.000","volume":"1800000","amount":"2565000000.000"}]);`
const QFQ = 'var sh600519qfq={total:2,data:[{d:"2024-06-21",f:"1.000000"},{d:"2001-08-27",f:"1.010000"}]}'

const req = (code: string, period: KlineRequest['period'], extra: Partial<KlineRequest> = {}): KlineRequest => ({ instrument: parseSymbol(code), period, count: 30, ...extra })
const BASE = 'https://quotes.sina.cn/cn/api/jsonp_v2.php/=/CN_MarketDataService.getKLineData'
const REFERER = { referer: 'https://finance.sina.com.cn/' }
const kind = failureKind

describe('sina parseKline', () => {
  it('reads minute bars: bar end without seconds, shares, CNY, no turnover', () => {
    expect(parseKline(M5, 5)).toEqual([
      { date: '2025-01-02 14:55', open: 1519, close: 1520.5, high: 1521, low: 1518.8, volume: 31_200, amount: 47_425_600, turnover: null },
      { date: '2025-01-02 15:00', open: 1520.5, close: 1520, high: 1520.9, low: 1519.6, volume: 49_800, amount: 75_696_000, turnover: null },
    ])
  })

  it('reads day bars behind a leading comment', () => {
    expect(parseKline(DAYS, 240).map((b) => b.date)).toEqual(['2024-06-20', '2024-06-21', '2025-06-20'])
  })

  it('calls =(null); and =([]); empty', () => {
    expect(kind(() => parseKline('=(null);', 240))).toBe('empty')
    expect(kind(() => parseKline('=([]);', 5))).toBe('empty')
  })

  it.each([
    ['high < low', M5.replace('"high":"1521.000"', '"high":"1500.000"')],
    ['out-of-order dates', M5.replace('15:00:00', '14:50:00')],
    ['a day-scale date at a minute scale', M5.replace('2025-01-02 14:55:00', '2025-01-02')],
    ['a non-numeric price', M5.replace('"1519.000"', '"n/a"')],
    ['garbage', 'Forbidden'],
    ['a truncated payload', M5.slice(0, 100)],
    ['a non-array payload', '=({"a":1});'],
  ])('rejects %s as malformed', (_, text) => {
    expect(kind(() => parseKline(text, 5))).toBe('malformed')
  })
})

describe('sina.kline', () => {
  it('asks scale 5 with the Referer for m5', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: M5 }))
    const bars = await sina.kline(req('sh600519', 'm5', { count: 1 }), ctx)
    expect(calls).toEqual([{ url: `${BASE}?symbol=sh600519&scale=5&ma=no&datalen=1`, headers: REFERER }])
    expect(bars.map((b) => b.date)).toEqual(['2025-01-02 15:00'])
  })

  it('builds qfq day bars from scale 240 and qfq.js', async () => {
    const { ctx, calls } = fakeContext((url) => ({ body: url.endsWith('qfq.js') ? QFQ : DAYS }))
    const bars = await sina.kline(req('sh600519', 'day'), ctx)
    expect(calls.map((c) => c.url).sort()).toEqual(['https://finance.sina.com.cn/realstock/company/sh600519/qfq.js', `${BASE}?symbol=sh600519&scale=240&ma=no&datalen=30`])
    expect(calls.every((c) => c.headers.referer === REFERER.referer)).toBe(true)
    expect(bars.map((b) => [b.date, b.open, b.close, b.volume])).toEqual([
      ['2024-06-20', 1485.15, 1485.15, 2_134_500],
      ['2024-06-21', 1480, 1485, 2_501_200],
      ['2025-06-20', 1420, 1425, 1_800_000],
    ])
  })

  it('serves raw day bars when qfq.js is 404, and filters start/end locally', async () => {
    const { ctx } = fakeContext((url) => (url.endsWith('qfq.js') ? { status: 404, body: '' } : { body: DAYS }))
    const bars = await sina.kline(req('sh600519', 'day', { start: '2024-06-20', end: '2024-06-21' }), ctx)
    expect(bars.map((b) => [b.date, b.close])).toEqual([['2024-06-20', 1500], ['2024-06-21', 1485]])
  })

  it('caps datalen at 1023 and fetches no factors for an index', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: DAYS }))
    await sina.kline(req('sh000001', 'day', { count: 1212 }), ctx)
    expect(calls.map((c) => c.url)).toEqual([`${BASE}?symbol=sh000001&scale=240&ma=no&datalen=1023`])
  })

  it('surfaces a 403 as a ban (src/channels/ban.ts)', async () => {
    const { ctx } = fakeContext(() => ({ status: 403, body: 'Forbidden' }))
    await expect(sina.kline(req('sh600519', 'm1'), ctx)).rejects.toMatchObject({ kind: 'banned' })
  })

  it('is empty for an unknown symbol', async () => {
    const { ctx } = fakeContext(() => ({ body: '=(null);' }))
    await expect(sina.kline(req('sh600519', 'm30'), ctx)).rejects.toMatchObject({ kind: 'empty' })
  })

  it.each([
    ['week bars', req('sh600519', 'week')],
    ['month bars', req('sh600519', 'month')],
    ['season bars', req('sh600519', 'season')],
    ['year bars', req('sh600519', 'year')],
    ['HK', req('hk00700', 'day')],
    ['US', req('usAAPL', 'day')],
    ['futures week bars', req('fuRB2501', 'week')],
    ['futures minute bars', req('fuRB0', 'm5')],
  ])('refuses %s without fetching', async (_, r) => {
    const { ctx, calls } = fakeContext(() => ({ body: '' }))
    await expect(sina.kline(r, ctx)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(calls).toHaveLength(0)
  })

  it('fetches futures day bars from getDailyKLine, main continuous contracts by their Sina symbol', async () => {
    const body = 'var _=([{"d":"2026-09-01","o":"3197.000","h":"3200.000","l":"3158.000","c":"3174.000","v":"710896","p":"1290303.000","s":"3175.000"}]);'
    const { ctx, calls } = fakeContext(() => ({ body }))
    const bars = await sina.kline(req('fuRB0', 'day'), ctx)
    expect(bars).toEqual([{ date: '2026-09-01', open: 3197, close: 3174, high: 3200, low: 3158, volume: 710896, amount: null, turnover: null }])
    expect(calls[0].url).toBe('https://stock2.finance.sina.com.cn/futures/api/jsonp.php/var%20_=/InnerFuturesNewService.getDailyKLine?symbol=RB0')
    await sina.kline(req('fuSR2501', 'day'), ctx)
    expect(calls[1].url).toMatch(/symbol=SR501$/)
  })
})

// Real getKLineData rows (test/fixtures/sina/SOURCE.md): 2019 rows carry no amount at either
// scale; from 2023-11-03 minute rows carry `amount` (4 decimals), earlier bars "0.0000".
const RAW = import.meta.glob('/test/fixtures/sina/kline-*.txt', { query: '?raw', import: 'default', eager: true }) as Record<string, string>
const rowsOf = (name: string, section?: string) => {
  const text = RAW[`/test/fixtures/sina/${name}`]
  const blocks = text.split(/^# /m)
  const block = section === undefined ? text : blocks.find((b) => b.startsWith(section))!
  return block.split('\n').filter((l) => l.startsWith('{')).map((l) => l.replace(/,$/, ''))
}
const wrap = (rows: string[]) => `=([${rows.join(',')}]);`

describe('sina parseKline on captured rows', () => {
  it('2023-11 scale=60: amount in CNY, 0.0000 before 2023-11-03 read as unknown', () => {
    const bars = parseKline(wrap(rowsOf('kline-sh600036-scale60-amount-2023-11-03.txt')), 60)
    expect(bars.map((b) => b.date)).toEqual(['2023-11-02 14:00', '2023-11-02 15:00', '2023-11-03 10:30', '2023-11-03 11:30', '2023-11-03 14:00'])
    expect(bars.slice(0, 2).map((b) => b.amount)).toEqual([null, null])
    expect(bars[2]).toEqual({ date: '2023-11-03 10:30', open: 30.68, close: 30.75, high: 30.82, low: 30.6, volume: 13_461_959, amount: 413_422_934.6641, turnover: null })
    // Amount over volume is each bar's average price, inside its range: volume in shares.
    for (const b of bars.slice(2)) {
      expect(b.amount! / b.volume).toBeGreaterThanOrEqual(b.low)
      expect(b.amount! / b.volume).toBeLessThanOrEqual(b.high)
    }
  })

  it('2019 scale=60 and scale=240 (with and without ma): no amount key', () => {
    const m60 = parseKline(wrap(rowsOf('kline-qfq-sh600036-sh600103-2019.txt', 'scale=60')), 60)
    expect(m60.map((b) => [b.date, b.close, b.volume, b.amount])).toEqual([['2019-12-27 14:00', 37.98, 7_457_497, null], ['2019-12-27 15:00', 37.86, 7_211_017, null]])
    const day = parseKline(wrap(rowsOf('kline-qfq-sh600036-sh600103-2019.txt', 'scale=240&ma=no')), 240)
    const withMa = parseKline(wrap(rowsOf('kline-qfq-sh600036-sh600103-2019.txt', 'scale=240 without')), 240)
    expect(withMa).toEqual(day)
    expect(day[1]).toEqual({ date: '2019-12-27', open: 38.1, close: 37.86, high: 38.5, low: 37.8, volume: 35_953_534, amount: null, turnover: null })
    // The hourly bars of 12-27 end the day at the day bar's close.
    expect(m60[1].close).toBe(day[1].close)
  })
})

describe('sina parseKline on a captured day answer (2026-03)', () => {
  // sh600519's day rows of 2026-03-17/18, as kept without the JSONP wrapper (test/fixtures/sina/SOURCE.md):
  // no `amount` key at scale=240; the same days' Tencent bars agree (volume 49454 lots = 4945361 shares).
  it('reads the rows: volume in shares, no amount', () => {
    const rows = RAW['/test/fixtures/sina/kline-sh600519-day-2026-03-18.txt']
    expect(Object.keys(JSON.parse(rows)[0])).toEqual(['day', 'open', 'high', 'low', 'close', 'volume'])
    expect(parseKline(`=(${rows});`, 240)).toEqual([
      { date: '2026-03-17', open: 1468, close: 1485, high: 1498.07, low: 1461.19, volume: 4_945_361, amount: null, turnover: null },
      { date: '2026-03-18', open: 1489, close: 1468.8, high: 1496.5, low: 1463.15, volume: 3_555_100, amount: null, turnover: null },
    ])
  })
})

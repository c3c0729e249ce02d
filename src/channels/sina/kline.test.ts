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

  it('surfaces a 403 as http', async () => {
    const { ctx } = fakeContext(() => ({ status: 403, body: 'Forbidden' }))
    await expect(sina.kline(req('sh600519', 'm1'), ctx)).rejects.toMatchObject({ kind: 'http' })
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

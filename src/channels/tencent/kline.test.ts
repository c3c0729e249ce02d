import { afterEach, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { eastmoney } from '../eastmoney'
import { fakeContext } from '../testkit'
import type { KlineRequest } from '../types'
import { tencent } from './index'

const row = (d: string, c: string) => `["${d}","${c}","${c}","${c}","${c}","100.000",{},"0.10","12.00"]`
const answer = (code: string, key: string, rows: string[]) => `{"code":0,"msg":"","data":{"${code}":{"${key}":[${rows.join(',')}]}}}`
const req = (code: string, period: KlineRequest['period'], extra: Partial<KlineRequest> = {}): KlineRequest => ({ instrument: parseSymbol(code), period, count: 30, ...extra })

describe('tencent.kline', () => {
  it('asks newfqkline for qfq A-share bars with start/end in param, and keeps the last count', async () => {
    const rows = ['2025-01-02', '2025-01-03', '2025-01-06'].map((d, k) => row(d, String(10 + k)))
    const { ctx, calls } = fakeContext(() => ({ body: answer('sh600519', 'qfqday', rows) }))
    const bars = await tencent.kline(req('sh600519', 'day', { count: 2, start: '2025-01-01', end: '2025-01-06' }), ctx)
    expect(calls).toEqual([{ url: 'https://proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get?param=sh600519,day,2025-01-01,2025-01-06,2,qfq', headers: {} }])
    expect(bars.map((b) => [b.date, b.close, b.volume, b.amount])).toEqual([
      ['2025-01-03', 11, 10_000, 120_000],
      ['2025-01-06', 12, 10_000, 120_000],
    ])
  })

  it('asks hkfqkline for HK with empty start/end', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: answer('hk00700', 'qfqweek', ['["2025-01-03","380","385","386","379","1000"]']) }))
    const [bar] = await tencent.kline(req('hk00700', 'week'), ctx)
    expect(calls[0].url).toBe('https://proxy.finance.qq.com/ifzqgtimg/appstock/app/hkfqkline/get?param=hk00700,week,,,30,qfq')
    expect(bar).toEqual({ date: '2025-01-03', open: 380, close: 385, high: 386, low: 379, volume: 1000, amount: null, turnover: null })
  })

  it('uses the listed venue for a known US ticker and leaves fq empty for a US index', async () => {
    const { ctx, calls } = fakeContext((url) => {
      const code = /param=([^,]+)/.exec(url)![1]
      return { body: answer(code, code === 'usDJI' ? 'day' : 'qfqmonth', ['["2025-01-31","1","1","1","1","5"]']) }
    })
    await tencent.kline(req('usBABA', 'month'), ctx)
    await tencent.kline(req('us.DJI', 'day'), ctx)
    expect(calls.map((c) => c.url)).toEqual([
      'https://proxy.finance.qq.com/ifzqgtimg/appstock/app/usfqkline/get?param=usBABA.N,month,,,30,qfq',
      'https://proxy.finance.qq.com/ifzqgtimg/appstock/app/usfqkline/get?param=usDJI,day,,,30,',
    ])
  })

  it('tries .OQ then .N for an unknown US ticker', async () => {
    const { ctx, calls } = fakeContext((url) =>
      url.includes('usZZZZ.N,') ? { body: answer('usZZZZ.N', 'qfqday', ['["2025-01-02","1","1","1","1","5"]']) } : { body: '{"code":0,"msg":"","data":{}}' }
    )
    const bars = await tencent.kline(req('usZZZZ', 'day'), ctx)
    expect(bars).toHaveLength(1)
    expect(calls.map((c) => /param=([^,]+)/.exec(c.url)![1])).toEqual(['usZZZZ.OQ', 'usZZZZ.N'])
  })

  it('is empty when no venue knows the ticker', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: '{"code":0,"msg":"","data":{}}' }))
    await expect(tencent.kline(req('usZZZZ', 'day'), ctx)).rejects.toMatchObject({ kind: 'empty' })
    expect(calls).toHaveLength(2)
  })

  it('asks mkline for A-share minute bars', async () => {
    const body = answer('sz000001', 'm15', ['["202501021500","11.30","11.32","11.33","11.29","1200.00",{},"0.01"]'])
    const { ctx, calls } = fakeContext(() => ({ body }))
    const [bar] = await tencent.kline(req('sz000001', 'm15'), ctx)
    expect(calls[0].url).toBe('https://proxy.finance.qq.com/ifzqgtimg/appstock/app/kline/mkline?param=sz000001,m15,,30')
    expect(bar).toEqual({ date: '2025-01-02 15:00', open: 11.3, close: 11.32, high: 11.33, low: 11.29, volume: 120_000, amount: null, turnover: null })
  })

  it.each([
    ['season bars', req('sh600519', 'season')],
    ['year bars', req('sh600519', 'year')],
    ['HK minute bars', req('hk00700', 'm5')],
    ['sectors', req('pt0477', 'day')],
    ['futures', req('fuRB2501', 'day')],
  ])('refuses %s without fetching', async (_, r) => {
    const { ctx, calls } = fakeContext(() => ({ body: '' }))
    await expect(tencent.kline(r, ctx)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(calls).toHaveLength(0)
  })

  it('is empty when nothing falls in the range', async () => {
    const { ctx } = fakeContext(() => ({ body: answer('sh600519', 'qfqday', [row('2025-01-02', '10')]) }))
    await expect(tencent.kline(req('sh600519', 'day', { start: '2025-02-01', end: '2025-02-28' }), ctx)).rejects.toMatchObject({ kind: 'empty' })
  })

  it('surfaces HTTP failures as http', async () => {
    const { ctx } = fakeContext(() => ({ status: 500, body: '' }))
    await expect(tencent.kline(req('sh600519', 'day'), ctx)).rejects.toMatchObject({ kind: 'http' })
  })
})

describe('tencent.kline against Eastmoney in the emulator', () => {
  afterEach(() => setClock(null))

  // Tencent counts a STAR stock's volume in shares, a main-board stock's in lots: both must come
  // out in shares equal to Eastmoney's (test/fixtures/tencent/SOURCE.md).
  it.each(['sh688981', 'sh600519'])('gives %s the same day and minute volumes as Eastmoney', async (code) => {
    setClock(Date.parse('2026-11-20T15:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    for (const period of ['day', 'm5'] as const) {
      const r = req(code, period, { count: 5 })
      const [tx, em] = await Promise.all([tencent.kline(r, ctx), eastmoney.kline(r, ctx)])
      expect(tx.map((b) => b.date)).toEqual(em.map((b) => b.date))
      tx.forEach((b, i) => expect(b.volume).toBeCloseTo(em[i].volume, -2))
    }
  })
})

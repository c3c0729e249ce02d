import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { fetchForeignList, foreignListUrl, parseForeignPage, toForeignRow } from './foreign-list'
import { fakeContext } from '../testkit'

// Rows in the clist wire shape of upstreams.md §3.1 (fltt=2, np=1): HK rows print market 116,
// US rows their venue (105 NASDAQ, 106 NYSE); values hand-written, not a capture.
const HK = {
  f2: 507.45, f3: -0.54, f5: 25043100, f6: 12695512873.57, f7: 2.74, f8: 0.27, f9: 21.5, f12: '00700', f13: 116, f14: '腾讯控股',
  f15: 513.83, f16: 499.89, f17: 510.38, f18: 510.22, f20: 4668540000000, f21: 4668540000000, f23: 4.1, f24: 6.2, f25: 31.4,
  f115: 21.47, f124: 1795147200, f297: 20261120,
}
const US_HALTED = { ...HK, f2: '-', f3: '-', f5: '-', f6: '-', f7: '-', f8: '-', f12: 'NIO', f13: 106, f14: '蔚来', f9: '-', f115: '-', f297: 20261118 }
const page = (rows: unknown[], total = rows.length) => JSON.stringify({ rc: 0, rt: 6, data: { total, diff: rows } })

describe('foreign list parsing', () => {
  it('reads an HK row in the listing currency: volume in shares, caps in HKD, P/E from f115', () => {
    expect(toForeignRow('hk', HK)).toEqual({
      code: 'hk00700', name: '腾讯控股', date: '2026-11-20', halted: false, close: 507.45, preClose: 510.22, changePct: -0.54, amplitude: 2.74,
      volume: 25043100, amount: 12695512873.57, turnover: 0.27, pe: 21.47, pb: 4.1, totalCap: 4668540000000, floatCap: 4668540000000, change60d: 6.2, changeYtd: 31.4,
    })
    expect(toForeignRow('hk', { ...HK, f115: '-' }).pe).toBe(21.5)
  })

  it('keeps a halted US row with null day values and no P/E (not invented)', () => {
    const r = toForeignRow('us', US_HALTED)
    expect(r).toMatchObject({ code: 'usNIO', date: '2026-11-18', halted: true, close: null, volume: null, pe: null, pb: 4.1, preClose: 510.22 })
  })

  it('dates a US row without f297 by its f124 in US Eastern time', () => {
    // 1795147200 = 2026-11-20 04:00 UTC = 2026-11-19 23:00 Eastern (EST, UTC-5).
    expect(toForeignRow('us', { ...HK, f12: 'AAPL', f13: 105, f297: undefined }).date).toBe('2026-11-19')
    expect(toForeignRow('hk', { ...HK, f297: undefined }).date).toBe('2026-11-20')
  })

  it.each([
    ['a code that is not the market’s', 'hk', { ...HK, f12: 'AAPL' }],
    ['a row of another market', 'us', { ...HK, f12: 'AAPL', f13: 1 }],
    ['text where a number belongs', 'hk', { ...HK, f20: 'n/a' }],
    ['a negative cap', 'hk', { ...HK, f21: -5 }],
    ['a change % that disagrees with the prices', 'hk', { ...HK, f3: 5.1 }],
    ['a date that is none', 'hk', { ...HK, f297: 20261340 }],
  ] as const)('rejects %s', (_what, market, row) => {
    expect(() => toForeignRow(market, row)).toThrow(ChannelError)
  })

  it('reads a page; data null is an empty page', () => {
    expect(parseForeignPage('hk', page([HK], 2700))).toMatchObject({ total: 2700, rows: [{ code: 'hk00700' }] })
    expect(parseForeignPage('hk', JSON.stringify({ rc: 0, data: null }))).toEqual({ total: 0, rows: [] })
  })

  it('asks for the market’s fs filter and its fields', () => {
    const url = new URL(foreignListUrl('hk', 2))
    expect(url.searchParams.get('fs')).toBe('m:128 t:3,m:128 t:4,m:128 t:1,m:128 t:2')
    expect(url.searchParams.get('pn')).toBe('2')
    expect(url.searchParams.get('fields')).toContain('f115')
    expect(new URL(foreignListUrl('us', 1)).searchParams.get('fs')).toBe('m:105,m:106,m:107')
  })

  it('walks the pages and fails over to the mirror host when the first fails', async () => {
    const { ctx, calls } = fakeContext((url) => {
      if (url.includes('//push2.')) return { status: 502, body: 'busy' }
      const pn = Number(new URL(url).searchParams.get('pn'))
      return { body: page([pn === 1 ? HK : { ...HK, f12: '00005', f14: '汇丰控股' }], 2) }
    })
    const rows = await fetchForeignList(ctx, 'hk')
    expect(rows.map((r) => r.code)).toEqual(['hk00005', 'hk00700'])
    expect(new URL(calls[0].url).hostname).toBe('push2.eastmoney.com')
    expect(calls.slice(1).map((c) => new URL(c.url).hostname)).toEqual(['push2delay.eastmoney.com', 'push2delay.eastmoney.com'])
  })
})

import { describe, expect, it } from 'vitest'
import { valuationStats } from '../../domain/market-valuation'
import { failureKind, fakeContext } from '../testkit'
import { fetchMarketValuation, parseValuationPage, valuationListUrl } from './market-valuation'

// In the shape of upstreams.md §3.1 (np=1, fltt=2) with the valuation ids of §1.5.
const MOUTAI = { f12: '600519', f13: 1, f14: '贵州茅台', f20: 1909422000000, f23: 7.85, f115: 22.35, f297: 20250102 }
const LOSS = { f12: '000004', f13: 0, f14: '*ST国华', f20: 801234567, f23: 3.1, f115: -20.3, f297: 20250102 }
const BJ = { f12: '830799', f13: 0, f14: '艾融软件', f20: 8400000000, f23: '-', f115: '-', f297: 20250102 }
const page = (total: number, diff: unknown[]) => JSON.stringify({ rc: 0, rt: 6, svr: 1, lt: 1, full: 1, dlmkts: '', data: { total, diff } })

describe('parseValuationPage', () => {
  it('reads PE TTM, PB and market cap by key; "-" is null; a loss is a negative PE', () => {
    expect(parseValuationPage(page(3, [MOUTAI, LOSS, BJ])).rows).toEqual([
      { code: 'sh600519', name: '贵州茅台', date: '2025-01-02', marketCap: 1909422000000, peTtm: 22.35, pb: 7.85 },
      { code: 'sz000004', name: '*ST国华', date: '2025-01-02', marketCap: 801234567, peTtm: -20.3, pb: 3.1 },
      { code: 'bj830799', name: '艾融软件', date: '2025-01-02', marketCap: 8400000000, peTtm: null, pb: null },
    ])
  })

  it.each([
    ['a bad code', { ...MOUTAI, f12: 'BK0477' }],
    ['a foreign market', { ...MOUTAI, f13: 116 }],
    ['a negative market cap', { ...MOUTAI, f20: -1 }],
    ['a text PE', { ...MOUTAI, f115: 'abc' }],
    ['no trade date', { ...MOUTAI, f297: '-' }],
  ])('refuses %s as malformed', (_why, row) => {
    expect(failureKind(() => parseValuationPage(page(1, [row])))).toBe('malformed')
  })

  it('asks for the valuation fields over every A-share board', () => {
    const url = new URL(valuationListUrl(1))
    expect(url.searchParams.get('fields')).toBe('f12,f13,f14,f20,f23,f115,f297')
    expect(url.searchParams.get('fs')).toBe('m:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048')
  })

  it('walks every page and refuses a list that comes up short', async () => {
    const pages: Record<string, string> = { 1: page(3, [MOUTAI, LOSS]), 2: page(3, [BJ]) }
    const { ctx } = fakeContext((u) => ({ body: pages[new URL(u).searchParams.get('pn')!] }))
    expect((await fetchMarketValuation(ctx)).map((r) => r.code)).toEqual(['sh600519', 'sz000004', 'bj830799'])
    const short = fakeContext(() => ({ body: page(3, [MOUTAI]) })).ctx
    await expect(fetchMarketValuation(short)).rejects.toMatchObject({ kind: 'malformed' })
    const none = fakeContext(() => ({ body: '{"rc":0,"data":null}' })).ctx
    await expect(fetchMarketValuation(none)).rejects.toMatchObject({ kind: 'empty' })
  })
})

describe('valuationStats', () => {
  it('takes medians of the positive ratios and aggregates over market cap, losses included', () => {
    const s = valuationStats([
      { code: 'sh600000', marketCap: 100, peTtm: 10, pb: 1 },
      { code: 'sh600001', marketCap: 100, peTtm: 20, pb: 2 },
      { code: 'sh600002', marketCap: 100, peTtm: -50, pb: 4 },
      { code: 'sh600003', marketCap: null, peTtm: 5, pb: 1 },
    ])
    // Earnings 10 + 5 - 2 = 13 on a cap of 300; book 100 + 50 + 25 = 175.
    expect(s).toEqual({ stocks: 3, pe_ttm_median: 15, pe_ttm_overall: 23.08, loss_making: 1, pb_median: 2, pb_overall: 1.71, market_cap: 300 })
  })
})

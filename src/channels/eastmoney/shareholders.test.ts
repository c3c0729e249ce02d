import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import realCount from '../../../test/fixtures/eastmoney/holdernum-det-300124-2023-05-19.json'
import realFloat from '../../../test/fixtures/eastmoney/freeholders-002811-2025q1.json'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { fetchText } from '../http'
import { failureKind } from '../testkit'
import type { ChannelContext } from '../types'
import { readDatacenter } from './datacenter'
import { fetchShareholders, holderUrl, parseHolderCounts, parseHolders } from './shareholders'

const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
const MOUTAI = parseSymbol('sh600519')
const page = async (report: 'top' | 'float' | 'count') => readDatacenter(await fetchText(ctx, 'eastmoney', holderUrl(report, MOUTAI)))!.data

beforeAll(() => {
  resetEmulator()
  setClock(Date.parse('2026-11-20T16:00:00+08:00'))
})
afterAll(() => resetEmulator())

describe('holderUrl', () => {
  it('asks one stock, newest period first by rank, ten rows (twelve periods of counts)', () => {
    const u = new URL(holderUrl('top', MOUTAI))
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ reportName: 'RPT_DMSK_HOLDERS', filter: '(SECURITY_CODE="600519")', sortColumns: 'END_DATE,RANK', sortTypes: '-1,1', pageSize: '10' })
    expect(new URL(holderUrl('float', MOUTAI)).searchParams.get('sortColumns')).toBe('END_DATE,HOLDER_RANK')
    expect(new URL(holderUrl('count', MOUTAI)).searchParams.get('pageSize')).toBe('12')
  })

  it('refuses a code that is not an A-share stock', () => {
    expect(failureKind(() => holderUrl('top', parseSymbol('hk00700')))).toBe('unsupported')
  })
})

describe('over the emulator', () => {
  it('reads the latest period\'s top ten and float top ten, and twelve holder counts', async () => {
    const s = await fetchShareholders(ctx, MOUTAI)
    expect(s.top.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(new Set(s.top.map((h) => h.endDate))).toEqual(new Set(['2026-09-30']))
    expect(s.float).toHaveLength(10)
    expect(s.counts).toHaveLength(12)
    expect(s.counts[0]).toMatchObject({ endDate: '2026-09-30', totalShares: market.byCode('sh600519')!.totalShares })
    const inst = market.byCode('sh600519')!
    expect(s.top.reduce((a, h) => a + h.shares, 0)).toBeLessThanOrEqual(inst.totalShares!)
    expect(s.float.reduce((a, h) => a + h.shares, 0)).toBeLessThanOrEqual(inst.floatShares!)
  })
})

describe('parseHolders refuses what does not add up', () => {
  it.each([
    ['ranks out of order', (r: any[]) => [r[1], r[0], ...r.slice(2)]],
    ['a lower rank holding more', (r: any[]) => [r[0], { ...r[1], HOLD_NUM: r[0].HOLD_NUM + 1 }, ...r.slice(2)]],
    ['ratios beyond 100%', (r: any[]) => [{ ...r[0], HOLD_RATIO: 99 }, ...r.slice(1)]],
    ['a row of another stock', (r: any[]) => [...r.slice(0, 9), { ...r[9], SECURITY_CODE: '600520' }]],
    ['an older period above a newer one', (r: any[]) => [{ ...r[0], END_DATE: '2026-06-30 00:00:00' }, ...r.slice(1)]],
  ])('%s', async (_why, spoil) => {
    const rows = await page('top')
    expect(parseHolders(rows, MOUTAI, 'top')).toHaveLength(10)
    expect(failureKind(() => parseHolders(spoil(rows), MOUTAI, 'top'))).toBe('malformed')
  })

  it('stops at the period before when the newest has fewer than ten holders', async () => {
    const rows = await page('float')
    const older = { ...rows[9], END_DATE: '2026-06-30 00:00:00', HOLDER_RANK: 1 }
    expect(parseHolders([...rows.slice(0, 9), older], MOUTAI, 'float')).toHaveLength(9)
  })
})

describe('parseHolderCounts refuses what does not add up', () => {
  it.each([
    ['an average holding that is not shares / holders', (r: any[]) => [{ ...r[0], AVG_HOLD_NUM: r[0].AVG_HOLD_NUM * 2 }, ...r.slice(1)]],
    ['periods not newest first', (r: any[]) => [r[1], r[0], ...r.slice(2)]],
    ['a change that does not lead from the previous count', (r: any[]) => [{ ...r[0], HOLDER_NUM_CHANGE: r[0].HOLDER_NUM_CHANGE + 1 }, ...r.slice(1)]],
    ['a count that is no positive integer', (r: any[]) => [{ ...r[0], HOLDER_NUM: 0 }, ...r.slice(1)]],
  ])('%s', async (_why, spoil) => {
    const rows = await page('count')
    expect(parseHolderCounts(rows, MOUTAI)).toHaveLength(12)
    expect(failureKind(() => parseHolderCounts(spoil(rows), MOUTAI))).toBe('malformed')
  })
})

describe('a real float top-ten answer (002811, Q1 2025; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads the holder, its float ratio, type, word of change and update date', () => {
    const page = readDatacenter(JSON.stringify(realFloat))!
    // One row a page (pageSize=1): pages = count.
    expect(page).toMatchObject({ pages: 360, count: 360 })
    const row = page.data[0] as typeof realFloat.result.data[0]
    // A float ratio above the total ratio: the float is smaller than the total (306.6 million shares, of which 281.7 million float).
    expect(row.HOLD_NUM / (row.HOLD_RATIO / 100)).toBeGreaterThan(row.HOLD_NUM / (row.FREE_HOLDNUM_RATIO / 100))
    const got = parseHolders(page.data, parseSymbol('sz002811'), 'float')
    expect(got).toEqual([{
      endDate: '2025-03-31', rank: 1, name: '深圳市亚泰一兆投资有限公司', type: '投资公司', sharesType: 'A股', shares: 141961723, ratio: 50.394280226319,
      change: null, changePct: null, changeText: '不变', noticeDate: '2025-04-29',
    }])
  })
})

describe('a real holder-count row (300124, 2023-05-19; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads a count dated off the quarter, with its notice date; the row adds up', () => {
    // Average holding × holders = total A shares and average value × holders = market cap, to the share and the fen.
    expect(realCount.AVG_HOLD_NUM * realCount.HOLDER_NUM).toBeCloseTo(realCount.TOTAL_A_SHARES, 0)
    expect(realCount.AVG_MARKET_CAP * realCount.HOLDER_NUM).toBeCloseTo(realCount.TOTAL_MARKET_CAP, 0)
    expect((realCount.HOLDER_NUM_CHANGE / realCount.PRE_HOLDER_NUM) * 100).toBeCloseTo(realCount.HOLDER_NUM_RATIO, 9)
    expect(parseHolderCounts([realCount], parseSymbol('sz300124'))).toEqual([{
      endDate: '2023-05-19', holders: 69177, avgShares: 38468.6626479899, change: 1548, changePct: 2.288958878588, avgMarketCap: 2246954.58526909,
      totalMarketCap: 155437577345.16, totalShares: 2661146676, intervalChangePct: 1.5826087, noticeDate: '2023-05-22',
    }])
  })
})

describe('the emulator\'s float top ten', () => {
  it('writes the real F10 columns in their forms beside the columns=ALL ones', async () => {
    const real = Object.keys(realFloat.result.data[0])
    for (const r of await page('float')) {
      expect(real.filter((k) => !(k in r) && k !== 'HOLD_RATIO_CHANGE')).toEqual([])
      expect(r.SHARES_TYPE).toBe('A股')
      expect(String(r.HOLDER_CODE)).toMatch(/^\d{8}$/)
      expect(r.HOLD_RATIO).toBeLessThanOrEqual(r.FREE_HOLDNUM_RATIO as number)
      expect(r.HOLD_CHANGE).toBe(r.HOLDNUM_CHANGE_NAME)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { WHOLE_MARKET_WALK } from '../page-walk'
import { failureKind, fakeContext } from '../testkit'
import { fetchRankListMarket, parseRankListPage, rankListUrl } from './market-rank'
import capturedRow from '../../../test/fixtures/tencent/rank-row-sh600519.json?raw'

// The row of upstreams.md §3.2 (strings throughout; turnover in 10,000 CNY, volume in lots).
const MOUTAI = { code: 'sh600519', name: '贵州茅台', zxj: '1520.00', zd: '11.50', zdf: '0.76', zf: '1.31', hsl: '0.17', volume: '21345', turnover: '324357', stock_type: 'GP-A' }
const page = (total: number, rows: unknown[]) => JSON.stringify({ code: 0, msg: 'ok', data: { total, rank_list: rows } })

describe('parseRankListPage', () => {
  it('reads a row in CNY and shares, the previous close as last − change', () => {
    expect(parseRankListPage(page(1, [MOUTAI]), '2025-01-02').rows).toEqual([
      { code: 'sh600519', name: '贵州茅台', date: '2025-01-02', close: 1520, preClose: 1508.5, volume: 2134500, amount: 3243570000, halted: false, traded: true },
    ])
  })

  it('reads zero volume as not traded', () => {
    expect(parseRankListPage(page(1, [{ ...MOUTAI, zd: '0.00', zdf: '0.00', volume: '0', turnover: '0' }]), '2025-01-02').rows[0].halted).toBe(true)
  })

  it.each([
    ['a change percent that does not match', { ...MOUTAI, zdf: '7.60' }],
    ['a code without prefix', { ...MOUTAI, code: '600519' }],
    ['a text price', { ...MOUTAI, zxj: '-' }],
    ['a negative volume', { ...MOUTAI, volume: '-1' }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => parseRankListPage(page(1, [row]), '2025-01-02'))).toBe('malformed')
  })

  it('refuses an error code', () => {
    expect(failureKind(() => parseRankListPage('{"code":-1,"msg":"err","data":null}', '2025-01-02'))).toBe('malformed')
  })

  it('pages by offset', () => {
    expect(new URL(rankListUrl(400)).searchParams.get('offset')).toBe('400')
  })

  it('calls an empty list empty and a short one malformed', async () => {
    await expect(fetchRankListMarket(fakeContext(() => ({ body: page(0, []) })).ctx, '2025-01-02')).rejects.toMatchObject({ kind: 'empty' })
    await expect(fetchRankListMarket(fakeContext(() => ({ body: page(300, [MOUTAI]) })).ctx, '2025-01-02')).rejects.toMatchObject({ kind: 'malformed' })
  })
})

// One whole aStock row as the host sent it (600519, 2025, published 2025-06-20:
// test/fixtures/tencent/SOURCE.md). Only the row was kept; the envelope is the test's.
describe('parseRankListPage on a captured row', () => {
  const row = JSON.parse(capturedRow)

  it('reads it: volume in lots written with two decimals, turnover in 10,000 CNY', () => {
    expect(row.volume).toBe('34816.00')
    expect(parseRankListPage(page(1, [row]), '2025-06-20').rows).toEqual([
      { code: 'sh600519', name: '贵州茅台', date: '2025-06-20', close: 1428.66, preClose: 1426, volume: 3_481_600, amount: 4_990_680_000, halted: false, traded: true },
    ])
  })

  it('adds up: change %, turnover % and caps on 1256197800 shares, amount over volume near the last price', () => {
    const n = (k: string) => Number(row[k])
    expect((n('zd') / (n('zxj') - n('zd'))) * 100).toBeCloseTo(n('zdf'), 2)
    const shares = (n('ltsz') * 1e8) / n('zxj')
    expect(Math.abs(shares / 1_256_197_800 - 1)).toBeLessThan(1e-5)
    expect(((n('volume') * 100) / shares) * 100).toBeCloseTo(n('hsl'), 2)
    // The day's range is zf % of the previous close (20.96 CNY); the average price lies within it of the last.
    const average = (n('turnover') * 1e4) / (n('volume') * 100)
    expect(Math.abs(average - n('zxj'))).toBeLessThan((n('zf') / 100) * (n('zxj') - n('zd')))
  })

  it('carries many more keys than the parser reads', () => {
    expect(Object.keys(row)).toHaveLength(28)
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['lb', 'ltsz', 'zsz', 'pe_ttm', 'pn', 'speed', 'state', 'zljlr', 'zdf_y']))
  })
})

describe('fetchRankListMarket over the emulator', () => {
  it('reads every listed A-share stock once, at the live prices', async () => {
    resetEmulator()
    const now = Date.parse('2026-11-20T10:30:00+08:00')
    setClock(now)
    // The emulator renders the whole market in this process: a budget that a busy machine cannot overrun.
    const rows = await fetchRankListMarket({ fetch: createEmulatorFetch(market), timeoutMs: 10_000 }, '2026-11-20', { ...WHOLE_MARKET_WALK, budgetMs: 120_000 })
    const listed = market.instruments().filter((i) => i.kind === 'stock' && i.listDate <= '2026-11-20')
    expect(rows).toHaveLength(listed.length)
    const moutai = rows.find((r) => r.code === 'sh600519')!
    const live = market.live(market.byCode('sh600519')!, now)
    expect(moutai).toMatchObject({ close: live.bar.close, preClose: live.bar.preClose, volume: live.bar.volume })
    setClock(null)
    // The whole market's live prices are seconds of CPU: a bound for a loaded machine, not a speed check.
  }, 120_000)
})

import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext } from '../testkit'
import { boardListUrl, fetchIndustryBoards, parseBoardPage } from './board-list'

// In the shape of upstreams.md §3.1 / §5.11 (np=1, fltt=2): an industry board row.
const LIQUOR = { f2: 41234.5, f3: 1.23, f12: 'BK0477', f13: 90, f14: '酿酒行业', f109: -2.5, f297: 20250102 }
const page = (total: number, diff: unknown[]) => JSON.stringify({ rc: 0, rt: 6, svr: 1, lt: 1, full: 1, dlmkts: '', data: { total, diff } })

describe('parseBoardPage', () => {
  it('reads boards into pt codes with today\'s and 5-session change', () => {
    expect(parseBoardPage(page(1, [LIQUOR])).rows).toEqual([{ code: 'pt0477', name: '酿酒行业', date: '2025-01-02', last: 41234.5, changePct: 1.23, change5dPct: -2.5 }])
  })

  it('reads a board without trades yet as nulls', () => {
    const [row] = parseBoardPage(page(1, [{ ...LIQUOR, f2: '-', f3: '-', f109: '-' }])).rows
    expect(row).toMatchObject({ last: null, changePct: null, change5dPct: null })
  })

  it.each([
    ['a stock code', { ...LIQUOR, f12: '600519' }],
    ['another market', { ...LIQUOR, f13: 1 }],
    ['no trade date', { ...LIQUOR, f297: '-' }],
    ['a change of -100% or less', { ...LIQUOR, f3: -100 }],
    ['a text change', { ...LIQUOR, f109: 'abc' }],
  ])('refuses %s as malformed', (_why, row) => {
    expect(failureKind(() => parseBoardPage(page(1, [row])))).toBe('malformed')
  })

  it('asks for industry boards without flag 50', () => {
    expect(new URL(boardListUrl(2)).searchParams.get('fs')).toBe('m:90 t:2 f:!50')
  })

  it('refuses a list shorter than it claims', async () => {
    const { ctx } = fakeContext(() => ({ body: page(3, [LIQUOR]) }))
    await expect(fetchIndustryBoards(ctx)).rejects.toMatchObject({ kind: 'malformed' })
  })
})

describe('fetchIndustryBoards over the emulator', () => {
  it('reads every sector the market has', async () => {
    resetEmulator()
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const rows = await fetchIndustryBoards({ fetch: createEmulatorFetch(market), timeoutMs: 5000 })
    expect(rows.map((r) => r.code).sort()).toEqual(market.instruments().filter((i) => i.kind === 'sector').map((i) => i.code).sort())
    expect(rows.every((r) => r.date === '2026-11-20' && r.changePct !== null && r.change5dPct !== null)).toBe(true)
    setClock(null)
  })
})

import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { parseBoardDirectoryPage, parseBoardMembersPage } from './boards'
import capturedBoardFlow from '../../../test/fixtures/push2/clist-board-fflow-p1-2025-10-27-153942-jsonp.json?raw'
import capturedGainers from '../../../test/fixtures/push2/clist-sh-gainers-p1-2024-08-08-175620-jsonp.json?raw'
import capturedIndustry from '../../../test/fixtures/push2/clist-industry-boards-p1-2026-08-22.json?raw'

const page = (total: number, diff: unknown) => JSON.stringify({ rc: 0, rt: 6, data: { total, diff } })

describe('board directory and constituents pages', () => {
  it('reads board codes and names (array or object diff)', () => {
    expect(parseBoardDirectoryPage(page(2, [{ f12: 'BK0574', f13: 90, f14: '锂电池' }, { f12: 'BK0989', f13: 90, f14: '储能 ' }]))).toEqual({ total: 2, rows: [{ code: 'BK0574', name: '锂电池' }, { code: 'BK0989', name: '储能' }] })
    expect(parseBoardDirectoryPage(page(1, { 0: { f12: 'BK0477', f14: '酿酒行业' } })).rows).toEqual([{ code: 'BK0477', name: '酿酒行业' }])
  })

  it('reads constituents as our codes', () => {
    const p = parseBoardMembersPage(page(3, [{ f12: '600519', f13: 1, f14: '贵州茅台' }, { f12: '300750', f13: 0, f14: '宁德时代' }, { f12: '830799', f13: 0, f14: '艾融软件' }]))
    expect(p.rows.map((r) => r.code)).toEqual(['sh600519', 'sz300750', 'bj830799'])
  })

  it('is empty on data:null and rejects what is not a board list', () => {
    expect(parseBoardDirectoryPage(JSON.stringify({ rc: 0, data: null }))).toEqual({ total: 0, rows: [] })
    expect(() => parseBoardDirectoryPage(page(1, [{ f12: '0574', f14: 'x' }]))).toThrow(/BK plus four digits/)
    expect(() => parseBoardDirectoryPage(page(1, [{ f12: 'BK0574', f14: '' }]))).toThrow(/no name/)
    expect(() => parseBoardDirectoryPage(page(-1, []))).toThrow(ChannelError)
    expect(() => parseBoardMembersPage(page(1, [{ f12: '600519', f13: 116 }]))).toThrow(ChannelError)
    expect(() => parseBoardMembersPage('nope')).toThrow(ChannelError)
  })
})

// A real clist/get page (JSONP, fltt=2, SH main + STAR sorted by change), 2024-08-08 17:56:20:
// test/fixtures/push2/SOURCE.md. The constituents parser reads f12/f13/f14 of any A-share page.
describe('a captured clist/get page', () => {
  it('reads its codes and names as constituents, with the total of the whole list', () => {
    const { total, rows } = parseBoardMembersPage(capturedGainers)
    expect(total).toBe(2384)
    expect(rows).toHaveLength(20)
    expect(rows[0]).toEqual({ code: 'sh600107', name: '美尔雅' })
    expect(rows.at(-1)).toEqual({ code: 'sh600266', name: '城建发展' })
    expect(rows.every((r) => /^sh6\d{5}$/.test(r.code))).toBe(true)
  })
})

// A real clist/get page of industry boards (JSONP, sorted by main net inflow), 2025-10-27 after the
// close (f124 15:39:42): test/fixtures/push2/SOURCE.md.
describe('a captured board page', () => {
  it('reads the boards\' codes and names, with the total of the whole directory', () => {
    const { total, rows } = parseBoardDirectoryPage(capturedBoardFlow)
    expect(total).toBe(86)
    expect(rows).toHaveLength(50)
    expect(rows[0]).toEqual({ code: 'BK0459', name: '电子元件' })
    expect(new Set(rows.map((r) => r.code)).size).toBe(50)
  })

  it('adds up: main = super-large + large on every board, every ratio is its net over one amount', () => {
    const body = capturedBoardFlow.slice(capturedBoardFlow.indexOf('(') + 1, capturedBoardFlow.lastIndexOf(')'))
    for (const r of JSON.parse(body).data.diff as Array<Record<string, number>>) {
      expect(r.f62).toBe(r.f66 + r.f72)
      const amount = r.f62 / (r.f184 / 100)
      if (Math.abs(r.f81) >= 1) expect((r.f78 / amount) * 100 / r.f81).toBeCloseTo(1, 1)
      expect(r.f124).toBe(1761550782)
    }
  })
})

describe('a captured industry board page (fs m:90 t:2, 3 of 496 boards, taken 2026-08-22; test/fixtures/push2/SOURCE.md)', () => {
  it('reads the boards, and each leader carries its own market (f141 1 for Shanghai, 0 for Shenzhen)', () => {
    const p = parseBoardDirectoryPage(capturedIndustry)
    expect(p.rows).toEqual([
      { code: 'BK0420', name: '航空机场' },
      { code: 'BK0421', name: '铁路公路' },
      { code: 'BK0422', name: '物流' },
    ])
    const diff = JSON.parse(capturedIndustry).data.diff as Array<Record<string, unknown>>
    expect(diff.map((r) => [r.f140, r.f141])).toEqual([['900945', 1], ['600368', 1], ['001228', 0]])
    // A board's main net inflow is whole yuan (sent as 1583464.0).
    expect(capturedIndustry).toContain('"f62":1583464.0,')
    for (const r of diff) expect(Number.isInteger(r.f62)).toBe(true)
  })
})

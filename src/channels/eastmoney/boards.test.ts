import { describe, expect, it } from 'vitest'
import { ChannelError } from '../errors'
import { parseBoardDirectoryPage, parseBoardMembersPage } from './boards'

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

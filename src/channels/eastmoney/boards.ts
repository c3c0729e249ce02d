/**
 * Eastmoney board directories and board constituents, both walks of `push2 …/api/qt/clist/get`
 * (upstreams.md §3.1, §5.11): `fs=m:90 t:2 f:!50` lists industry boards (行业板块), `m:90 t:3
 * f:!50` concept boards (概念板块), `b:BK0477 f:!50` the stocks of one board (akshare
 * `stock_board_industry_cons_em`, `stock_board_concept_cons_em`). Only codes and names are read.
 */
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { isObject, readData } from './envelope'
import { fetchAllPages, type ListPage } from './list-pages'
import { canonicalCode, MARKET_LIST_URL } from './market-list'
import { CHANNEL } from './wire'

export type BoardKind = 'industry' | 'concept'

const KIND_FS: Record<BoardKind, string> = { industry: 'm:90 t:2 f:!50', concept: 'm:90 t:3 f:!50' }
const PAGE_SIZE = 100
/** Eastmoney lists about 500 industry and 450 concept boards; far more is not this list. */
const MAX_BOARDS = 3_000
/** The biggest boards hold a few thousand stocks (the market has about 5,500). */
const MAX_MEMBERS = 8_000

const listUrl = (fs: string, page: number) => `${MARKET_LIST_URL}?pn=${page}&pz=${PAGE_SIZE}&po=1&np=1&fltt=2&invt=2&fid=f12&fs=${encodeURIComponent(fs)}&fields=f12,f13,f14`

function page<T>(text: string, max: number, what: string, row: (raw: Record<string, unknown>) => T): ListPage<T> {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const total = data.total
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > max) throw malformed(CHANNEL, `${what} total is not a count: ${JSON.stringify(total)}`)
  const list = Array.isArray(data.diff) ? data.diff : isObject(data.diff) ? Object.values(data.diff) : null
  if (!list) throw malformed(CHANNEL, `${what} has no diff`)
  return {
    total,
    rows: list.map((raw) => {
      if (!isObject(raw)) throw malformed(CHANNEL, `${what} row is not an object`)
      return row(raw)
    }),
  }
}

export interface BoardEntry {
  /** `BK` + four digits. */
  code: string
  name: string
}

/** One page of a board directory. */
export function parseBoardDirectoryPage(text: string): ListPage<BoardEntry> {
  return page(text, MAX_BOARDS, 'board directory', (raw) => {
    const code = raw.f12
    if (typeof code !== 'string' || !/^BK\d{4}$/.test(code)) throw malformed(CHANNEL, `board code is not BK plus four digits: ${JSON.stringify(code)}`)
    const name = raw.f14
    if (typeof name !== 'string' || name.trim() === '') throw malformed(CHANNEL, `board ${code} has no name`)
    return { code, name: name.trim() }
  })
}

/** Every board of a kind, each once. */
export function fetchBoardDirectory(ctx: ChannelContext, kind: BoardKind): Promise<BoardEntry[]> {
  return fetchAllPages(ctx, `${kind} board directory`, (pn) => listUrl(KIND_FS[kind], pn), parseBoardDirectoryPage, (b) => b.code)
}

export interface BoardMember {
  /** Canonical code, `sh600519`. */
  code: string
  name: string
}

/** One page of a board's constituents. */
export function parseBoardMembersPage(text: string): ListPage<BoardMember> {
  return page(text, MAX_MEMBERS, 'board constituents', (raw) => ({ code: canonicalCode(raw), name: typeof raw.f14 === 'string' ? raw.f14 : '' }))
}

/** The stocks of board `code` (`BK0477`); a board with no stock is `empty`. */
export function fetchBoardMembers(ctx: ChannelContext, code: string): Promise<BoardMember[]> {
  if (!/^BK\d{4}$/.test(code)) throw malformed(CHANNEL, `not a board code: ${code}`)
  return fetchAllPages(ctx, `board ${code}`, (pn) => listUrl(`b:${code} f:!50`, pn), parseBoardMembersPage, (m) => m.code)
}

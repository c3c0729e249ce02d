/**
 * Every Eastmoney industry board (行业板块) with today's and the last five sessions' change, in one
 * walk of `push2 …/api/qt/clist/get` with `fs=m:90 t:2 f:!50` (upstreams.md §3.1, §5.11). Board
 * codes `BK0477` become our sector codes `pt0477`. A page that does not add up is `malformed`.
 */
import { isValidDate } from '../../domain/dates'
import { mapLimit } from '../../domain/concurrency'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import { isObject, readData } from './envelope'
import { MARKET_LIST_URL } from './market-list'
import { CHANNEL, QUOTE_FIELDS as Q } from './wire'

/** Industry boards, without the flag-50 entries Eastmoney hides from its own board pages. */
const INDUSTRY_BOARDS_FS = 'm:90 t:2 f:!50'

/** List-namespace ids we read, by meaning (fltt=2). */
const BOARD_FIELDS = { last: Q.last, changePct: Q.changePct, code: Q.code, market: Q.market, name: Q.name, tradeDate: Q.tradeDate, change5d: 'f109' } as const
const F = BOARD_FIELDS
const FIELD_LIST = Object.values(F).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(',')

const PAGE_SIZE = 100
/** Eastmoney lists about 500 industry boards; far more is not this list. */
const MAX_TOTAL = 2_000

export interface BoardRow {
  /** Our sector code, `pt0477`. */
  code: string
  name: string
  /** Trade date `YYYY-MM-DD` of the row. */
  date: string
  /** Board index level, points; null when not traded yet. */
  last: number | null
  /** Today's change, percent; null when not traded yet. */
  changePct: number | null
  /** Change over the last 5 sessions, percent; null when the board has no such history. */
  change5dPct: number | null
}

export function boardListUrl(page: number): string {
  return `${MARKET_LIST_URL}?pn=${page}&pz=${PAGE_SIZE}&po=1&np=1&fltt=2&invt=2&fid=f12&fs=${encodeURIComponent(INDUSTRY_BOARDS_FS)}&fields=${FIELD_LIST}`
}

function toRow(raw: unknown): BoardRow {
  if (!isObject(raw)) throw malformed(CHANNEL, 'board row is not an object')
  const code = raw[F.code]
  if (typeof code !== 'string' || !/^BK\d{4}$/.test(code)) throw malformed(CHANNEL, `board code is not BK plus four digits: ${JSON.stringify(code)}`)
  if (raw[F.market] !== 90 && raw[F.market] !== '90') throw malformed(CHANNEL, `board ${code} has market ${JSON.stringify(raw[F.market])}, not 90`)
  const d = String(raw[F.tradeDate] ?? '')
  const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`
  if (!/^\d{8}$/.test(d) || !isValidDate(date)) throw malformed(CHANNEL, `board ${code} has no trade date: ${JSON.stringify(raw[F.tradeDate])}`)
  const traded = raw[F.last] !== '-'
  const changePct = traded ? num(CHANNEL, raw[F.changePct], `${F.changePct} of ${code}`) : null
  const change5dPct = optNum(CHANNEL, raw[F.change5d], `${F.change5d} of ${code}`)
  for (const v of [changePct, change5dPct]) if (v !== null && (v <= -100 || v > 1000)) throw malformed(CHANNEL, `board ${code} change ${v}% is not a change`)
  return {
    code: 'pt' + code.slice(2),
    name: typeof raw[F.name] === 'string' ? (raw[F.name] as string) : '',
    date,
    last: traded ? num(CHANNEL, raw[F.last], `${F.last} of ${code}`) : null,
    changePct,
    change5dPct,
  }
}

/** Parses one page: its claimed total and rows. */
export function parseBoardPage(text: string): { total: number; rows: BoardRow[] } {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const total = data.total
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > MAX_TOTAL) throw malformed(CHANNEL, `board list total is not a count: ${JSON.stringify(total)}`)
  const list = Array.isArray(data.diff) ? data.diff : isObject(data.diff) ? Object.values(data.diff) : null
  if (!list) throw malformed(CHANNEL, 'board list has no diff')
  return { total, rows: list.map(toRow) }
}

/** Every industry board, each once; nothing at all is `empty`. */
export async function fetchIndustryBoards(ctx: ChannelContext): Promise<BoardRow[]> {
  const first = parseBoardPage(await fetchText(ctx, CHANNEL, boardListUrl(1)))
  if (first.rows.length === 0) throw empty(CHANNEL, 'industry board list is empty')
  const size = first.rows.length
  const pages = Math.ceil(first.total / size)
  const rest = await mapLimit(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2), 2, async (pn) => {
    const page = parseBoardPage(await fetchText(ctx, CHANNEL, boardListUrl(pn)))
    if (page.total !== first.total) throw malformed(CHANNEL, `board list total changed from ${first.total} to ${page.total} at page ${pn}`)
    return page.rows
  })
  const byCode = new Map<string, BoardRow>()
  for (const r of [first.rows, ...rest].flat()) if (!byCode.has(r.code)) byCode.set(r.code, r)
  if (byCode.size !== first.total) throw malformed(CHANNEL, `board list claims ${first.total} boards, gave ${byCode.size}`)
  return [...byCode.values()]
}

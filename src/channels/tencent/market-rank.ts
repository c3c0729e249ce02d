/**
 * The whole A-share market from Tencent's rank list (upstreams.md §3.2), the second channel of
 * /v1/changedist and the overview's trade type: `proxy.finance.qq.com/cgi/cgi-bin/rank/hs/
 * getBoardRankList?board_code=aStock`, 200 rows a page by `offset`, sorted by code-independent
 * `price`, deduplicated by code. The list carries no previous close and no date: the previous
 * close is `zxj − zd`, checked against `zdf`; the date is the caller's session date **(ours)**:
 * the latest session that has traded. The list has no suspension flag: a row with zero volume has
 * not traded in that session while others have, and counts as halted. Amount (`turnover`) is in
 * 10,000 CNY, volume in lots.
 */
import { walkRest, WHOLE_MARKET_WALK, type WalkBudget } from '../page-walk'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import { parseJson } from '../json'
import type { ChannelContext } from '../types'
import type { RankListRow } from './rank-list-row'
import { num } from '../validate'
import { securityName } from '../names'

const CHANNEL = 'tencent'
const RANK_LIST_URL = 'https://proxy.finance.qq.com/cgi/cgi-bin/rank/hs/getBoardRankList'
const PAGE = 200
const MAX_TOTAL = 20_000
/** How far `zdf` may sit from the change percent recomputed from `zxj` and `zd` (2-decimal rounding of both). */
const PCT_SLACK = 0.05

export function rankListUrl(offset: number): string {
  return `${RANK_LIST_URL}?_appver=11.17.0&board_code=aStock&sort_type=price&direct=down&offset=${offset}&count=${PAGE}`
}

const cents = (x: number) => Math.round(x * 100) / 100

function toRow(raw: unknown, date: string): RankListRow {
  if (typeof raw !== 'object' || raw === null) throw malformed(CHANNEL, 'rank row is not an object')
  const r = raw as Record<string, unknown>
  const code = r.code
  if (typeof code !== 'string' || !/^(sh|sz|bj)\d{6}$/.test(code)) throw malformed(CHANNEL, `rank row code ${JSON.stringify(code)} is not an A-share code`)
  const n = (k: string) => num(CHANNEL, r[k], `${k} of ${code}`)
  const close = n('zxj')
  const change = n('zd')
  const pct = n('zdf')
  const volume = n('volume')
  const amount = n('turnover') * 1e4
  const preClose = cents(close - change)
  if (close <= 0 || preClose <= 0) throw malformed(CHANNEL, `non-positive price for ${code}`)
  if (volume < 0 || amount < 0) throw malformed(CHANNEL, `negative volume or amount for ${code}`)
  if (Math.abs(((close - preClose) / preClose) * 100 - pct) > PCT_SLACK) throw malformed(CHANNEL, `zdf ${pct} of ${code} does not match zxj ${close} and zd ${change}`)
  return { code, name: typeof r.name === 'string' ? securityName(r.name) : '', date, close, preClose, volume: Math.round(volume * 100), amount: cents(amount), halted: volume === 0, traded: volume > 0 }
}

/** Parses one page: the total it claims and its rows (dated `date`). */
export function parseRankListPage(text: string, date: string): { total: number; rows: RankListRow[] } {
  const json = parseJson(CHANNEL, text, 'rank list')
  const body = json as { code?: unknown; data?: { total?: unknown; rank_list?: unknown } }
  if (typeof json !== 'object' || json === null || body.code !== 0) throw malformed(CHANNEL, `rank list code ${JSON.stringify(body?.code)}`)
  const total = body.data?.total
  const list = body.data?.rank_list
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > MAX_TOTAL) throw malformed(CHANNEL, `rank list total is not a count: ${JSON.stringify(total)}`)
  if (!Array.isArray(list)) throw malformed(CHANNEL, 'rank list has no rank_list')
  return { total, rows: list.map((r) => toRow(r, date)) }
}

/** Every A-share stock, each once, for the session `date`; nothing is `empty`, a short list `malformed`. */
export async function fetchRankListMarket(ctx: ChannelContext, date: string, budget: WalkBudget = WHOLE_MARKET_WALK): Promise<RankListRow[]> {
  const startedAt = Date.now()
  const first = parseRankListPage(await fetchText(ctx, CHANNEL, rankListUrl(0)), date)
  if (first.total === 0 || first.rows.length === 0) throw empty(CHANNEL, 'rank list is empty')
  const offsets = Array.from({ length: Math.ceil(first.total / PAGE) - 1 }, (_, i) => (i + 1) * PAGE)
  const rest = await walkRest(CHANNEL, offsets, startedAt, async (offset) => {
    const page = parseRankListPage(await fetchText(ctx, CHANNEL, rankListUrl(offset)), date)
    if (page.total !== first.total) throw malformed(CHANNEL, `rank list total changed from ${first.total} to ${page.total} at offset ${offset}`)
    return page.rows
  }, budget)
  const byCode = new Map<string, RankListRow>()
  for (const r of [first.rows, ...rest].flat()) if (!byCode.has(r.code)) byCode.set(r.code, r)
  if (byCode.size !== first.total) throw malformed(CHANNEL, `rank list claims ${first.total} stocks, gave ${byCode.size}`)
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : 1))
}

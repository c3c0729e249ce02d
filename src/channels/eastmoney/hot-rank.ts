/**
 * Eastmoney Guba's popularity rank (人气榜, upstreams.md §4.1): POST
 * `emappdata.eastmoney.com/stockrank/getAllCurrentList` (A-shares and ETFs) and
 * `…/getAllCurrHkUsList` with `marketType` `000004` (US). Rows carry only the ranked code, its
 * rank and its rank change; prices come from the quote channels. A list whose ranks are not
 * 1, 2, 3… or that names a code twice is `malformed`; no rows is `empty`.
 */
import type { Instrument } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import { parseJsonObject } from '../json'
import type { ChannelContext } from '../types'
import { isObject } from './envelope'
import { CHANNEL } from './wire'

export const HOT_RANK_URLS = {
  cn: 'https://emappdata.eastmoney.com/stockrank/getAllCurrentList',
  us: 'https://emappdata.eastmoney.com/stockrank/getAllCurrHkUsList',
} as const

export type HotList = keyof typeof HOT_RANK_URLS

/** Guba's `marketType` per list ('' = the A-share list; `000004` US, INF: `000003` is HK per akshare). */
const MARKET_TYPE: Record<HotList, string> = { cn: '', us: '000004' }

/** Guba serves at most this many rows per page; one page covers /v1/hot's largest `limit`. */
const HOT_RANK_PAGE_SIZE = 100

/** Any UUID-like string is accepted as `globalId` (upstreams.md §4.1). */
const GLOBAL_ID = '786e4c21-70dc-435a-93bb-38'

export interface HotRankEntry {
  instrument: Instrument
  /** 1-based rank in its list. */
  rank: number
  /** Rank change as Guba reports it (`hisRc`, older answers `rc`; positive = moved up); null when absent. */
  rankChange: number | null
}

/** The POST body of one page of a list. */
export function hotRankBody(list: HotList, pageNo = 1, pageSize = HOT_RANK_PAGE_SIZE): string {
  return JSON.stringify({ appId: 'appId01', globalId: GLOBAL_ID, marketType: MARKET_TYPE[list], pageNo, pageSize })
}

/**
 * `SH600519` / `SZ000001` / `BJ830799` / `US|AAPL` / `HK|00700` → our instrument; null for a
 * well-formed code outside the ranges we serve (B shares, say). Any other shape is `malformed`.
 */
export function instrumentOfSc(sc: string): Instrument | null {
  const m = /^(SH|SZ|BJ)(\d{6})$/.exec(sc) ?? /^(US|HK)\|([A-Z0-9.-]+)$/.exec(sc)
  if (!m) throw malformed(CHANNEL, `rank code ${JSON.stringify(sc)} is not SH/SZ/BJ plus six digits or US|/HK| plus a symbol`)
  try {
    return parseSymbol(m[1].toLowerCase() + m[2])
  } catch (e) {
    if (e instanceof SymbolError) return null
    throw e
  }
}

/**
 * Parses one rank page: rows in rising rank order (positive integers), each code once. Rows naming
 * codes we do not serve are left out; the others keep their ranks. Real rows look like
 * `{"sc":"SZ000938","rk":1,"hisRc":1}` (no name, no price); upstreams.md §4.1 also shows `rc`.
 */
export function parseHotRank(text: string): HotRankEntry[] {
  const json = parseJsonObject(CHANNEL, text, 'rank answer')
  if (json.status !== 0) throw malformed(CHANNEL, `rank status ${JSON.stringify(json.status)}: ${String(json.message ?? '')}`)
  if (!Array.isArray(json.data)) throw malformed(CHANNEL, 'rank answer has no data list')
  const seen = new Set<string>()
  const out: HotRankEntry[] = []
  let last = 0
  json.data.forEach((row, k) => {
    if (!isObject(row) || typeof row.sc !== 'string') throw malformed(CHANNEL, `rank row ${k} has no sc`)
    const rk = row.rk
    if (typeof rk !== 'number' || !Number.isInteger(rk) || rk <= last) throw malformed(CHANNEL, `rank row ${row.sc} has rk ${JSON.stringify(rk)} after ${last}`)
    last = rk
    const rc = row.hisRc ?? row.rc
    if (rc !== undefined && rc !== null && !Number.isInteger(rc)) throw malformed(CHANNEL, `rank change of ${row.sc} is not an integer: ${JSON.stringify(rc)}`)
    if (seen.has(row.sc)) throw malformed(CHANNEL, `rank list names ${row.sc} twice`)
    seen.add(row.sc)
    const instrument = instrumentOfSc(row.sc)
    if (instrument) out.push({ instrument, rank: rk, rankChange: typeof rc === 'number' ? rc : null })
  })
  return out
}

/** The top of one list (one page of {@link HOT_RANK_PAGE_SIZE}). */
export async function fetchHotRank(ctx: ChannelContext, list: HotList): Promise<HotRankEntry[]> {
  const text = await fetchText(ctx, CHANNEL, HOT_RANK_URLS[list], { post: hotRankBody(list), headers: { 'content-type': 'application/json' } })
  const rows = parseHotRank(text)
  if (rows.length === 0) throw empty(CHANNEL, `the ${list} popularity rank is empty`)
  return rows
}

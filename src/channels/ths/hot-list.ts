/**
 * THS (同花顺, 10jqka) hot stock list, the second source of /v1/hot's A-share ranking
 * (upstreams.md §4.2, adata `Hot.hot_rank_100_ths`): GET
 * `dq.10jqka.com.cn/fuyao/hot_list_data/out/hot_list/v1/stock?stock_type=a&type=hour&list_type=normal`,
 * no key, JSON `{"status_code":0,"data":{"stock_list":[{"order":1,"code":"600487","market":17,
 * "name":"亨通光电","rate":"478995.0","rise_and_fall":10.0087,"hot_rank_chg":3,"tag":{…}}]}}`.
 * `order` is the rank, `rate` the heat, `rise_and_fall` the change in percent; `hot_rank_chg`
 * (places moved, positive = up) is in some captures and not in others: absent means null.
 * `market` is THS's market id: 17 Shanghai, 33 Shenzhen (seen in captures), 151 Beijing: no hot
 * list capture with a Beijing row was found, but THS numbers its markets the same way in its PC
 * quote protocol, where a public client's tests put BSE `920083` under market 151 beside `300750`
 * under 33 (research index file ids 66666301935, 66589505397), and a Rust client's hot-list test
 * (file id 55100883635, hand-written row) gives `430047` 诺思兰德 market 151.
 * A-share stocks only: no ETFs, no US list.
 */
import type { Instrument } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import type { HotRankEntry } from '../eastmoney/hot-rank'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import { isObject, parseJsonObject } from '../json'
import type { ChannelContext } from '../types'

const CHANNEL = 'ths'

export const THS_HOT_URL = 'https://dq.10jqka.com.cn/fuyao/hot_list_data/out/hot_list/v1/stock?stock_type=a&type=hour&list_type=normal'

/** THS market ids → our prefix (17 and 33 seen in hot-list captures; 151 Beijing as THS's quote protocol numbers it). */
const MARKET_PREFIX: Record<number, 'sh' | 'sz' | 'bj'> = { 17: 'sh', 33: 'sz', 151: 'bj' }


/**
 * A six-digit code as an A-share stock: by THS's market id when it gives one, else the exchange
 * whose stock range holds the code (000001 is 平安银行 here, never the SSE index). Null for a code
 * outside the ranges we serve.
 */
function stockOf(code: string, market: unknown): Instrument | null {
  const known = typeof market === 'number' ? MARKET_PREFIX[market] : undefined
  for (const prefix of known ? [known] : (['sh', 'sz', 'bj'] as const)) {
    try {
      const inst = parseSymbol(prefix + code)
      if (inst.kind === 'stock') return inst
    } catch (e) {
      if (!(e instanceof SymbolError)) throw e
    }
  }
  return null
}

/**
 * Parses the hot list: rows in rising `order` (positive integers), each code once, six-digit codes.
 * Codes outside our ranges are left out, the others keep their ranks. A `status_code` other than
 * 0 or a body without `data.stock_list` is `malformed`.
 */
export function parseThsHotList(text: string): HotRankEntry[] {
  const json = parseJsonObject(CHANNEL, text, 'hot list')
  if (json.status_code !== undefined && json.status_code !== 0) throw malformed(CHANNEL, `hot list status_code ${JSON.stringify(json.status_code)}`)
  const list = isObject(json.data) ? json.data.stock_list : undefined
  if (!Array.isArray(list)) throw malformed(CHANNEL, 'hot list has no data.stock_list')
  const seen = new Set<string>()
  const out: HotRankEntry[] = []
  let last = 0
  list.forEach((row, k) => {
    if (!isObject(row) || typeof row.code !== 'string' || !/^\d{6}$/.test(row.code)) throw malformed(CHANNEL, `hot list row ${k} has no six-digit code`)
    const order = row.order
    if (typeof order !== 'number' || !Number.isInteger(order) || order <= last) throw malformed(CHANNEL, `hot list row ${row.code} has order ${JSON.stringify(order)} after ${last}`)
    last = order
    const chg = row.hot_rank_chg
    if (chg !== undefined && chg !== null && !Number.isInteger(chg)) throw malformed(CHANNEL, `rank change of ${row.code} is not an integer: ${JSON.stringify(chg)}`)
    const rf = row.rise_and_fall
    if (rf !== undefined && rf !== null && !(typeof rf === 'number' && Number.isFinite(rf))) throw malformed(CHANNEL, `rise_and_fall of ${row.code} is not a number`)
    if (seen.has(row.code)) throw malformed(CHANNEL, `hot list names ${row.code} twice`)
    seen.add(row.code)
    const instrument = stockOf(row.code, row.market)
    if (instrument) out.push({ instrument, rank: order, rankChange: typeof chg === 'number' ? chg : null })
  })
  return out
}

/** The THS hot list (its top 100). */
export async function fetchThsHotList(ctx: ChannelContext): Promise<HotRankEntry[]> {
  const text = await fetchText(ctx, CHANNEL, THS_HOT_URL, { headers: { accept: 'application/json' } })
  const rows = parseThsHotList(text)
  if (rows.length === 0) throw empty(CHANNEL, 'the THS hot list is empty')
  return rows
}

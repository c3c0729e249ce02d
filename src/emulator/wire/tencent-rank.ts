/**
 * Tencent's whole-market rank list (`proxy.finance.qq.com/cgi/cgi-bin/rank/hs/getBoardRankList`,
 * upstreams.md §3.2) as the emulator answers it, for `board_code=aStock`: every A-share stock
 * listed by the clock's Beijing date, sorted by `sort_type` (`price`, `PriceRatio`, `volume`;
 * `direct=up|down`, ties by code), `count` rows (at most 200) from `offset`. Numbers are strings as
 * Tencent sends them: `zxj` last, `zd` change, `zdf` change %, `volume` lots (two decimals),
 * `turnover` amount in whole 10,000 CNY, `hsl` turnover %. Rows show the latest session, the last one until today's opening
 * match (an assumption, day-timeline.ts); a stock without a trade in it sits at its last close with
 * zero change and volume. Another board answers an empty list.
 */
import { beijing } from '../../domain/dates'
import { hasTraded } from '../market/quote'
import type { EmuInstrument, LiveQuote, MarketModel } from '../market/types'
import { fixed, pctOf } from './format'
import { jsonResponse } from './respond'

export const RANK_LIST_PATH = '/cgi/cgi-bin/rank/hs/getBoardRankList'

const MAX_COUNT = 200
const SORT_KEYS: Record<string, (q: LiveQuote) => number> = {
  price: (q) => q.bar.close,
  PriceRatio: (q) => (hasTraded(q) ? pctOf(q.bar.close - q.bar.preClose, q.bar.preClose) : 0),
  volume: (q) => (hasTraded(q) ? q.bar.volume : 0),
}

const stockLists = new WeakMap<MarketModel, EmuInstrument[]>()
function stocks(market: MarketModel): EmuInstrument[] {
  let list = stockLists.get(market)
  if (!list) stockLists.set(market, (list = market.instruments().filter((i) => i.kind === 'stock' && i.board !== undefined)))
  return list
}

const answer = (offset: number, total: number, rows: unknown[]) => jsonResponse({ code: 0, msg: 'ok', data: { offset, total, rank_list: rows } }, 'application/json; charset=utf-8')

function row(q: LiveQuote): Record<string, string> {
  const inst = q.instrument
  const b = q.bar
  // A line without a trade is flat at its reference price: zero change, volume and amount.
  const pre = b.preClose
  const last = b.close
  return {
    code: inst.code,
    name: inst.name,
    zxj: fixed(last, inst.decimals),
    zd: fixed(last - pre, inst.decimals),
    zdf: fixed(pctOf(last - pre, pre), 2),
    zf: fixed(pctOf(b.high - b.low, pre), 2),
    hsl: fixed(b.turnover ?? 0, 2),
    // Lots with two decimals (a STAR stock's odd shares make fractional lots), amount in whole 10k CNY
    // (test/fixtures/tencent/rank-row-sh600519.json: "34816.00", "499068").
    volume: fixed(b.volume / 100, 2),
    turnover: String(Math.round(b.amount / 1e4)),
    stock_type: 'GP-A',
  }
}

/** The last ordering built: a client walks all pages of one ordering at one clock, so each page need not rebuild the market. */
let last: { market: MarketModel; key: string; rows: Array<{ q: LiveQuote; k: number }> } | null = null

/** Every listed stock's live quote, in the requested order (ties by code). */
function ordered(market: MarketModel, now: number, sortType: string, sign: number) {
  const memoKey = `${now} ${sortType} ${sign}`
  if (last && last.market === market && last.key === memoKey) return last.rows
  const today = beijing(now).date
  const key = SORT_KEYS[sortType] ?? SORT_KEYS.price
  const rows = stocks(market)
    .filter((i) => i.listDate <= today)
    .map((i) => {
      const q = market.live(i, now)
      return { q, k: key(q) }
    })
  rows.sort((a, b) => (a.k !== b.k ? (a.k - b.k) * sign : a.q.instrument.code < b.q.instrument.code ? -1 : 1))
  last = { market, key: memoKey, rows }
  return rows
}

/** Answers one rank-list request. */
export function handleRankList(params: URLSearchParams, market: MarketModel, now: number): Response {
  if (params.get('board_code') !== 'aStock') return answer(0, 0, [])
  const keyed = ordered(market, now, params.get('sort_type') ?? '', params.get('direct') === 'up' ? 1 : -1)
  const offset = Math.max(0, Math.floor(Number(params.get('offset')) || 0))
  const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(Number(params.get('count')) || 20)))
  return answer(offset, keyed.length, keyed.slice(offset, offset + count).map(({ q }) => row(q)))
}

/** The `empty` fault's answer: no rows. */
export function rankListEmpty(): Response {
  return answer(0, 0, [])
}

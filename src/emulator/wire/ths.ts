/**
 * THS (同花顺, `dq.10jqka.com.cn`) hot stock list as the emulator answers it (upstreams.md §4.2):
 * GET `/fuyao/hot_list_data/out/hot_list/v1/stock?stock_type=a&type=hour&list_type=normal` →
 * `{"status_code":0,"status_msg":"success","data":{"stock_list":[{"order","code","market","name",
 * "rate","rise_and_fall","hot_rank_chg","tag"}]}}`, the top 100. The ranking is the market's one
 * popularity model (market/popularity.ts, the list Guba ranks) restricted to stocks, as THS's list
 * has no ETFs; `rise_and_fall` is the change of the live quote at the clock, so the list agrees
 * with every quote channel; `rate` (heat) falls with the rank.
 */
import { beijing, addDays } from '../../domain/dates'
import { popularityRank } from '../market/popularity'
import { hasTraded } from '../market/quote'
import type { EmuInstrument, MarketModel } from '../market/types'
import { jsonResponse, notFound } from './respond'

const STOCK_PATH = '/fuyao/hot_list_data/out/hot_list/v1/stock'

/** Rows THS serves. */
const LIST_SIZE = 100

/** THS market ids (17 Shanghai and 33 Shenzhen as captured; 151 Beijing as the channel infers). */
const MARKET_ID: Record<string, number> = { sh: 17, sz: 33, bj: 151 }

const answer = (stockList: unknown[]) => jsonResponse({ status_code: 0, status_msg: 'success', data: { stock_list: stockList } })

/** The stocks of the popularity ranking on `date`, re-ranked 1, 2, 3… */
function stockRanks(market: MarketModel, date: string): Map<EmuInstrument, number> {
  const out = new Map<EmuInstrument, number>()
  for (const e of popularityRank(market, 'cn', date)) if (e.instrument.kind === 'stock') out.set(e.instrument, out.size + 1)
  return out
}

/** Answers one THS request; 404 for paths the emulator does not serve. */
export function handleThs(url: URL, market: MarketModel, now: number): Response {
  if (url.pathname !== STOCK_PATH) return notFound()
  if (url.searchParams.get('stock_type') !== 'a') return answer([])
  const today = beijing(now).date
  const ranks = stockRanks(market, today)
  const before = stockRanks(market, addDays(today, -1))
  const rows = []
  for (const [inst, order] of ranks) {
    if (order > LIST_SIZE) break
    const q = market.live(inst, now)
    const b = q.bar
    const traded = hasTraded(q) && b.preClose > 0
    rows.push({
      order,
      code: inst.symbol,
      market: MARKET_ID[inst.prefix],
      name: inst.name,
      rate: `${Math.round(1_500_000 / Math.sqrt(order))}.0`,
      rise_and_fall: traded ? Number((((b.close - b.preClose) / b.preClose) * 100).toFixed(4)) : 0,
      hot_rank_chg: (before.get(inst) ?? ranks.size) - order,
      tag: { concept_tag: [] as string[] },
    })
  }
  return answer(rows)
}

/** The `empty` fault's answer: success with an empty list. */
export function thsEmpty(url: URL): Response | undefined {
  return url.pathname === STOCK_PATH ? answer([]) : undefined
}

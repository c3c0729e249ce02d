/**
 * Block trades (大宗交易) from the datacenter report `RPT_DATA_BLOCKTRADE` (upstreams.md §5.5):
 * one stock over a date range, or the whole A-share market on one day. Each row is checked: its
 * amount is price × volume, its premium is price ÷ close − 1, it answers the query.
 */
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import type { JsonObject } from './envelope'
import { bareCode, codeOfRow, dateOfRow, fetchReport, textOf } from './report-rows'
import { CHANNEL } from './wire'

const BLOCK_TRADE_REPORT = 'RPT_DATA_BLOCKTRADE'

/** One block trade. Prices in CNY, volume in shares, amount in CNY, percentages in percent. */
export interface BlockTrade {
  code: string
  name: string
  date: string
  price: number
  close: number
  /** (price ÷ close − 1) × 100, computed from the two prices and checked against the report's own. */
  premiumPct: number
  volume: number
  amount: number
  /** The stock's change that day, percent. */
  changePct: number | null
  /** Amount ÷ float market cap, percent. */
  floatPct: number | null
  buyer: string | null
  seller: string | null
}

/** One stock (`code`) over `from..to`, or every A-share stock on `date`. */
export type BlockTradeQuery = { code: string; from: string; to: string } | { date: string }

const A_SHARE = /^(sh|sz|bj)\d{6}$/

export function blockTradeFilter(q: BlockTradeQuery): string {
  if ('date' in q) return `(SECURITY_TYPE_WEB=1)(TRADE_DATE>='${q.date}')(TRADE_DATE<='${q.date}')`
  if (!A_SHARE.test(q.code)) throw unsupported(CHANNEL, `block trades are for A-share stocks, not ${q.code}`)
  return `(SECURITY_TYPE_WEB=1)(SECURITY_CODE="${bareCode(q.code)}")(TRADE_DATE>='${q.from}')(TRADE_DATE<='${q.to}')`
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

/** One report row as a trade; anything unreadable or not adding up is `malformed`. */
export function toBlockTrade(row: JsonObject): BlockTrade {
  const code = codeOfRow(row)
  const date = dateOfRow(row, 'TRADE_DATE')
  const at = (c: string) => `${c} of ${code} on ${date}`
  const price = num(CHANNEL, row.DEAL_PRICE, at('DEAL_PRICE'))
  const close = num(CHANNEL, row.CLOSE_PRICE, at('CLOSE_PRICE'))
  const volume = num(CHANNEL, row.DEAL_VOLUME, at('DEAL_VOLUME'))
  const amount = num(CHANNEL, row.DEAL_AMT, at('DEAL_AMT'))
  if (price <= 0 || close <= 0 || volume <= 0 || amount <= 0) throw malformed(CHANNEL, `block trade of ${code} on ${date} has a non-positive price, volume or amount`)
  if (Math.abs(amount - price * volume) > Math.max(1, amount * 0.005)) throw malformed(CHANNEL, `block trade of ${code} on ${date}: amount ${amount} is not price ${price} × volume ${volume}`)
  const premiumPct = round((price / close - 1) * 100, 4)
  const stated = optNum(CHANNEL, row.PREMIUM_RATIO, at('PREMIUM_RATIO'))
  // The report's own premium must agree, whether it prints percent or a fraction.
  if (stated !== null && Math.abs(stated - premiumPct) > 0.05 && Math.abs(stated * 100 - premiumPct) > 0.05) {
    throw malformed(CHANNEL, `block trade of ${code} on ${date}: PREMIUM_RATIO ${stated} disagrees with price ${price} over close ${close}`)
  }
  return {
    code,
    name: textOf(row, 'SECURITY_NAME_ABBR') ?? '',
    date,
    price,
    close,
    premiumPct,
    volume,
    amount,
    changePct: optNum(CHANNEL, row.CHANGE_RATE, at('CHANGE_RATE')),
    floatPct: optNum(CHANNEL, row.TURNOVER_RATE, at('TURNOVER_RATE')),
    buyer: textOf(row, 'BUYER_NAME'),
    seller: textOf(row, 'SELLER_NAME'),
  }
}

/** Block trades answering the query, newest first then by code; none is []. A row that does not answer it is `malformed`. */
export async function fetchBlockTrades(ctx: ChannelContext, q: BlockTradeQuery): Promise<BlockTrade[]> {
  const filter = blockTradeFilter(q)
  const rows = await fetchReport(ctx, { report: BLOCK_TRADE_REPORT, filter, sortColumns: 'TRADE_DATE,SECURITY_CODE', sortTypes: '-1,1' })
  const trades = rows.map(toBlockTrade)
  for (const t of trades) {
    const fits = 'date' in q ? t.date === q.date : t.code === q.code && t.date >= q.from && t.date <= q.to
    if (!fits) throw malformed(CHANNEL, `block trade ${t.code} ${t.date} does not answer ${JSON.stringify(q)}`)
  }
  return trades.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
}

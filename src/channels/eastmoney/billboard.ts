/**
 * The dragon-tiger board (龙虎榜) of one stock from the datacenter (upstreams.md §5.7): its
 * listings `RPT_DAILYBILLBOARD_DETAILSNEW` (one row per day and reason) and the seats of each
 * listed day, `RPT_BILLBOARD_DAILYDETAILSBUY` (top five buyers) and `…SELL` (top five sellers).
 * Amounts in CNY. Checked: net = buy − sell, every seat belongs to a listed day and reason, seat
 * ratios are fractions of the day's turnover.
 */
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import type { JsonObject } from './envelope'
import { bareCode, codeOfRow, dateOfRow, fetchReport, textOf } from './report-rows'
import { CHANNEL } from './wire'

const BILLBOARD_REPORT = 'RPT_DAILYBILLBOARD_DETAILSNEW'
const SEAT_REPORTS = { buy: 'RPT_BILLBOARD_DAILYDETAILSBUY', sell: 'RPT_BILLBOARD_DAILYDETAILSSELL' } as const

interface BoardSeat {
  name: string
  buy: number
  sell: number
  net: number
}

/** One listed day of a stock: its reasons, the listed seats' totals and the seats themselves. */
export interface BoardDay {
  date: string
  reasons: string[]
  close: number | null
  changePct: number | null
  buyAmount: number
  sellAmount: number
  netAmount: number
  /** The stock's whole turnover that day, CNY. */
  dayAmount: number | null
  buyers: BoardSeat[]
  sellers: BoardSeat[]
}

const A_SHARE = /^(sh|sz|bj)\d{6}$/

function filterOf(code: string, from: string): string {
  if (!A_SHARE.test(code)) throw unsupported(CHANNEL, `the dragon-tiger board lists A-share stocks, not ${code}`)
  return `(SECURITY_CODE="${bareCode(code)}")(TRADE_DATE>='${from}')`
}

/**
 * One seat row. The side a seat did not trade comes as `null` (read as 0); `TOTAL_BUYRIO` /
 * `TOTAL_SELLRIO`, when given, are that side over the day's `ACCUM_AMOUNT` as a fraction (real rows,
 * test/fixtures/eastmoney/billboard-seats-*.json): a ratio in another unit is refused.
 */
function toSeat(row: JsonObject, where: string): BoardSeat {
  const name = textOf(row, 'OPERATEDEPT_NAME')
  if (!name) throw malformed(CHANNEL, `seat without a name ${where}`)
  const buy = optNum(CHANNEL, row.BUY, `BUY ${where}`) ?? 0
  const sell = optNum(CHANNEL, row.SELL, `SELL ${where}`) ?? 0
  const net = optNum(CHANNEL, row.NET, `NET ${where}`) ?? buy - sell
  if (buy < 0 || sell < 0 || Math.abs(net - (buy - sell)) > 2) throw malformed(CHANNEL, `seat ${name} ${where}: net ${net} is not buy ${buy} − sell ${sell}`)
  const dayAmount = optNum(CHANNEL, row.ACCUM_AMOUNT, `ACCUM_AMOUNT ${where}`)
  for (const [col, amount] of [['TOTAL_BUYRIO', buy], ['TOTAL_SELLRIO', sell]] as const) {
    const ratio = optNum(CHANNEL, row[col], `${col} ${where}`)
    if (ratio !== null && dayAmount && Math.abs(ratio - amount / dayAmount) > 1e-6) {
      throw malformed(CHANNEL, `seat ${name} ${where}: ${col} ${ratio} is not ${amount} / ACCUM_AMOUNT ${dayAmount}`)
    }
  }
  return { name, buy, sell, net }
}

/**
 * Joins listing rows and seat rows into listed days, newest first. Pure: the parser the tests
 * feed wire samples to.
 */
export function boardDays(code: string, listings: JsonObject[], buys: JsonObject[], sells: JsonObject[]): BoardDay[] {
  const days = new Map<string, BoardDay>()
  for (const row of listings) {
    if (codeOfRow(row) !== code) throw malformed(CHANNEL, `board row of ${JSON.stringify(row.SECUCODE)} does not answer ${code}`)
    const date = dateOfRow(row, 'TRADE_DATE')
    const at = (c: string) => `${c} of ${code} on ${date}`
    const buy = num(CHANNEL, row.BILLBOARD_BUY_AMT, at('BILLBOARD_BUY_AMT'))
    const sell = num(CHANNEL, row.BILLBOARD_SELL_AMT, at('BILLBOARD_SELL_AMT'))
    const net = num(CHANNEL, row.BILLBOARD_NET_AMT, at('BILLBOARD_NET_AMT'))
    if (Math.abs(net - (buy - sell)) > 2) throw malformed(CHANNEL, `board ${code} ${date}: net ${net} is not buy ${buy} − sell ${sell}`)
    const reason = textOf(row, 'EXPLANATION') ?? ''
    const day = days.get(date)
    if (day) {
      if (reason && !day.reasons.includes(reason)) day.reasons.push(reason)
      continue
    }
    days.set(date, {
      date,
      reasons: reason ? [reason] : [],
      close: optNum(CHANNEL, row.CLOSE_PRICE, at('CLOSE_PRICE')),
      changePct: optNum(CHANNEL, row.CHANGE_RATE, at('CHANGE_RATE')),
      buyAmount: buy,
      sellAmount: sell,
      netAmount: net,
      dayAmount: optNum(CHANNEL, row.ACCUM_AMOUNT, at('ACCUM_AMOUNT')),
      buyers: [],
      sellers: [],
    })
  }
  for (const [rows, side] of [[buys, 'buyers'], [sells, 'sellers']] as const) {
    for (const row of rows) {
      const date = dateOfRow(row, 'TRADE_DATE')
      if (codeOfRow(row) !== code) throw malformed(CHANNEL, `seat row of ${JSON.stringify(row.SECURITY_CODE)} does not answer ${code}`)
      const day = days.get(date)
      if (!day) throw malformed(CHANNEL, `seat of ${code} on ${date}, a day it was not listed`)
      // Each listing of a day publishes its seats (a day listed for two reasons lists them twice:
      // test/fixtures/eastmoney/billboard-seats-buy-600611-2024-07-16.json). The day keeps those of
      // the listing whose totals it carries, its first reason's.
      const reason = textOf(row, 'EXPLANATION')
      if (reason && day.reasons.length) {
        if (!day.reasons.includes(reason)) throw malformed(CHANNEL, `seat of ${code} on ${date} for ${reason}, not a reason it was listed for`)
        if (reason !== day.reasons[0]) continue
      }
      day[side].push(toSeat(row, `of ${code} on ${date}`))
    }
  }
  for (const d of days.values()) {
    d.buyers.sort((a, b) => b.buy - a.buy)
    d.sellers.sort((a, b) => b.sell - a.sell)
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? 1 : -1))
}

/** The stock's listed days on or after `from`, newest first; [] when it was never listed. */
export async function fetchBoardDays(ctx: ChannelContext, code: string, from: string): Promise<BoardDay[]> {
  const filter = filterOf(code, from)
  const [listings, buys, sells] = await Promise.all([
    fetchReport(ctx, { report: BILLBOARD_REPORT, filter, sortColumns: 'TRADE_DATE', sortTypes: '-1' }),
    fetchReport(ctx, { report: SEAT_REPORTS.buy, filter, sortColumns: 'TRADE_DATE,BUY', sortTypes: '-1,-1' }),
    fetchReport(ctx, { report: SEAT_REPORTS.sell, filter, sortColumns: 'TRADE_DATE,SELL', sortTypes: '-1,-1' }),
  ])
  return boardDays(code, listings, buys, sells)
}

/**
 * Trading-activity reports of Eastmoney's datacenter as the emulator answers them, registered in
 * the REPORTS table of eastmoney-datacenter.ts: block trades `RPT_DATA_BLOCKTRADE` (§5.5), margin
 * trading per stock `RPTA_WEB_RZRQ_GGMX` (§5.6), and the dragon-tiger board's daily list
 * `RPT_DAILYBILLBOARD_DETAILSNEW` with its seats `RPT_BILLBOARD_DAILYDETAILSBUY` / `…SELL` (§5.7).
 * Rows come from the market model's bars, so every price and amount agrees with the K-lines.
 *
 * Candidate rows are generated for the date range and stock the filter names (the generic filter
 * then applies every predicate): a stock with no date bound gets its last year (margin: four
 * months). Without a `SECURITY_CODE`, only block trades answer, and only for a range of at most
 * 31 days (the whole market on one day is what clients ask); the other reports then have no rows.
 */
import { addDays, beijing } from '../../domain/dates'
import { FALL_REASON, listings, RISE_REASON, TURNOVER_REASON, type Listing } from '../market/billboard'
import { blockTrades, hasBlockTrades } from '../market/block-trades'
import { marginDay } from '../market/margin'
import { seatCode, seatCodeOld } from '../market/seats'
import type { EmuInstrument, MarketModel, RawBar } from '../market/types'
import { hashOf, pctOf, round } from './format'

type Cell = string | number | null
type Row = Record<string, Cell>
type Predicate = { column: string; op: string; value: string }
type Report = (market: MarketModel, now: number, filter: readonly Predicate[]) => Row[]

/** Beijing minute of day after which a session's reports are out: block trades at 15:30, the board at 16:30. */
const BLOCK_PUBLISHED = 15 * 60 + 30
const BOARD_PUBLISHED = 16 * 60 + 30

const SECU_SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const datetime = (date: string) => `${date} 00:00:00`

const stockIndex = new WeakMap<MarketModel, EmuInstrument[]>()
function aShareStocks(market: MarketModel): EmuInstrument[] {
  let all = stockIndex.get(market)
  if (!all) stockIndex.set(market, (all = market.instruments().filter((i) => i.kind === 'stock' && SECU_SUFFIX[i.prefix] !== undefined)))
  return all
}

/** The stocks a `(<column>="600519")` predicate names; null when the filter names none. */
function namedStocks(market: MarketModel, filter: readonly Predicate[], column: string): EmuInstrument[] | null {
  const p = filter.find((f) => f.column === column && f.op === '=')
  return p ? aShareStocks(market).filter((i) => i.symbol === p.value) : null
}

/** The date bounds of `column` in the filter, cut at the last published session. */
export function dateRange(filter: readonly Predicate[], column: string, lastPublished: string, defaultDays: number) {
  let from: string | undefined
  let to = lastPublished
  for (const p of filter) {
    if (p.column !== column || !/^\d{4}-\d{2}-\d{2}/.test(p.value)) continue
    const d = p.value.slice(0, 10)
    if (p.op === '>=' || p.op === '>' || p.op === '=') from = from && from > d ? from : d
    if ((p.op === '<=' || p.op === '<' || p.op === '=') && d < to) to = d
  }
  return { from: from ?? addDays(to, -defaultDays), to, bounded: from !== undefined }
}

/** The last date whose reports are out at `now`, given the minute of day they appear. */
function lastPublished(now: number, minute: number): string {
  const bj = beijing(now)
  return bj.minute >= minute ? bj.date : addDays(bj.date, -1)
}

const traded = (bars: RawBar[]) => bars.filter((b) => b.volume > 0)

const identity = (inst: EmuInstrument): Row => ({
  SECURITY_CODE: inst.symbol,
  SECUCODE: `${inst.symbol}.${SECU_SUFFIX[inst.prefix]}`,
  SECURITY_NAME_ABBR: inst.name,
})

// ---------------------------------------------------------------------------------------------
// RPT_DATA_BLOCKTRADE

/** Close-to-close change (percent) from `bar` to the session `n` sessions later, null until it exists. */
function laterChange(bars: RawBar[], i: number, n: number): number | null {
  const later = bars[i + n]
  return later ? round(pctOf(later.close - bars[i].close, bars[i].close), 4) : null
}

function blockRows(inst: EmuInstrument, from: string, to: string, market: MarketModel, now: number): Row[] {
  const bars = traded(market.dailyBars(inst, from, addDays(to, 40), now))
  const rows: Row[] = []
  for (const [i, bar] of bars.entries()) {
    if (bar.date > to) break
    const float = (inst.floatShares ?? 0) * bar.close
    for (const t of blockTrades(inst, bar)) {
      rows.push({
        TRADE_DATE: datetime(t.date),
        ...identity(inst),
        // Text, as the real rows send it ("1": blocktrade-sz-2026-09-29-all-page1.json), though filters compare it to a bare 1.
        SECURITY_TYPE_WEB: '1',
        CHANGE_RATE: round(pctOf(bar.close - bar.preClose, bar.preClose), 4),
        CLOSE_PRICE: bar.close,
        DEAL_PRICE: t.price,
        // A fraction, not percent: 11.68 over a close of 11.69 is -0.000855431993 (blocktrade-a-2026-08-17-21-page1.json).
        PREMIUM_RATIO: round((t.price - bar.close) / bar.close, 12),
        DEAL_VOLUME: t.volume,
        DEAL_AMT: t.amount,
        TURNOVER_RATE: float > 0 ? round(pctOf(t.amount, float), 4) : null,
        BUYER_NAME: t.buyer,
        SELLER_NAME: t.seller,
        CHANGE_RATE_1DAYS: laterChange(bars, i, 1),
        CHANGE_RATE_5DAYS: laterChange(bars, i, 5),
        CHANGE_RATE_10DAYS: laterChange(bars, i, 10),
        CHANGE_RATE_20DAYS: laterChange(bars, i, 20),
        BUYER_CODE: seatCode(t.buyer),
        SELLER_CODE: seatCode(t.seller),
      })
    }
  }
  return rows
}

const blockTradeReport: Report = (market, now, filter) => {
  const range = dateRange(filter, 'TRADE_DATE', lastPublished(now, BLOCK_PUBLISHED), 365)
  const named = namedStocks(market, filter, 'SECURITY_CODE')
  if (named) return named.flatMap((inst) => blockRows(inst, range.from, range.to, market, now))
  if (!range.bounded || range.from < addDays(range.to, -31)) return []
  const rows: Row[] = []
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
    for (const inst of aShareStocks(market)) if (hasBlockTrades(inst, d)) rows.push(...blockRows(inst, d, d, market, now))
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// RPTA_WEB_RZRQ_GGMX

const marginReport: Report = (market, now, filter) => {
  const named = namedStocks(market, filter, 'SCODE')
  if (!named) return []
  // Margin figures of a session are published the next morning.
  const range = dateRange(filter, 'DATE', addDays(beijing(now).date, -1), 120)
  const rows: Row[] = []
  for (const inst of named) {
    const bars = traded(market.dailyBars(inst, addDays(range.from, -30), range.to, now))
    for (let i = 1; i < bars.length; i++) {
      const bar = bars[i]
      if (bar.date < range.from) continue
      const m = marginDay(inst, bar, bars[i - 1].date, bars[i - 1].close)
      if (!m) continue
      const float = (inst.floatShares ?? 0) * bar.close
      rows.push({
        DATE: datetime(m.date),
        SCODE: inst.symbol,
        SECNAME: inst.name,
        RZYE: m.financingBalance,
        RZMRE: m.financingBuy,
        RZCHE: m.financingRepay,
        RZJME: round(m.financingBuy - m.financingRepay, 2),
        RQYE: m.lendingBalance,
        RQYL: m.lentShares,
        RQMCL: m.lentSold,
        RQCHL: m.lentRepaid,
        RQJMG: m.lentSold - m.lentRepaid,
        RZRQYE: round(m.financingBalance + m.lendingBalance, 2),
        RZRQYECZ: round(m.financingBalance - m.lendingBalance, 2),
        SPJ: bar.close,
        ZDF: round(pctOf(bar.close - bar.preClose, bar.preClose), 4),
        RZYEZB: float > 0 ? round(pctOf(m.financingBalance, float), 4) : null,
      })
    }
  }
  return rows
}

// ---------------------------------------------------------------------------------------------
// RPT_DAILYBILLBOARD_DETAILSNEW and its seats

/** Every listing of the named stocks in the filter's range, with the bar it belongs to. */
function boardListings(market: MarketModel, now: number, filter: readonly Predicate[]): Array<{ inst: EmuInstrument; bar: RawBar; listing: Listing }> {
  const named = namedStocks(market, filter, 'SECURITY_CODE')
  if (!named) return []
  const range = dateRange(filter, 'TRADE_DATE', lastPublished(now, BOARD_PUBLISHED), 365)
  const out: Array<{ inst: EmuInstrument; bar: RawBar; listing: Listing }> = []
  for (const inst of named) {
    for (const bar of traded(market.dailyBars(inst, range.from, range.to, now))) for (const listing of listings(inst, bar)) out.push({ inst, bar, listing })
  }
  return out
}

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100

const billboardReport: Report = (market, now, filter) =>
  boardListings(market, now, filter).map(({ inst, bar, listing }) => {
    const seats = [...listing.buyers, ...listing.sellers]
    const buy = sum(seats.map((s) => s.buy))
    const sell = sum(seats.map((s) => s.sell))
    return {
      ...identity(inst),
      TRADE_DATE: datetime(listing.date),
      EXPLAIN: buy >= sell ? '买方席位合计净买入' : '卖方席位合计净卖出',
      CLOSE_PRICE: bar.close,
      CHANGE_RATE: round(listing.changePct, 4),
      BILLBOARD_NET_AMT: round(buy - sell, 2),
      BILLBOARD_BUY_AMT: buy,
      BILLBOARD_SELL_AMT: sell,
      BILLBOARD_DEAL_AMT: round(buy + sell, 2),
      ACCUM_AMOUNT: round(bar.amount, 2),
      DEAL_NET_RATIO: round(pctOf(buy - sell, bar.amount), 4),
      DEAL_AMOUNT_RATIO: round(pctOf(buy + sell, bar.amount), 4),
      TURNOVERRATE: bar.turnover === null ? null : round(bar.turnover, 4),
      FREE_MARKET_CAP: inst.floatShares === null ? null : round(inst.floatShares * bar.close, 2),
      EXPLANATION: listing.reason,
      SECURITY_TYPE_CODE: '058001001',
    }
  })

/**
 * `CHANGE_TYPE` of a listing reason: the price-move and turnover codes are on real seat rows
 * (test/fixtures/eastmoney/billboard-seats-buy-600611-2024-07-16.json); the fall's is the code a
 * public client's listing row carries for it.
 */
const CHANGE_TYPE: Record<string, string> = {
  [RISE_REASON]: '137001002001001',
  [FALL_REASON]: '137001002002001',
  [TURNOVER_REASON]: '137001004001',
}
const changeType = (reason: string) => CHANGE_TYPE[reason] ?? null

/** A listing's `TRADE_ID`: one number per stock, day and reason, shared by its seats on both lists. */
const tradeId = (inst: EmuInstrument, listing: Listing) => 100_000_000 + (hashOf(`${inst.code}:${listing.date}:${listing.reason}`) % 900_000)

/**
 * A seat's record on the board (`TOTAL_BUYER_SALESTIMES_3DAY` listings, `RISE_PROBABILITY_3DAY`
 * the percent of them the stock rose within three days, a whole count over the times as on the
 * real rows). The model keeps no seat history: both are stable by seat and day.
 */
function seatRecord(name: string, date: string): { times: number; risePct: number } {
  const h = hashOf(`${name}:${date.slice(0, 7)}`)
  const times = 10 + (h % 900)
  const rises = Math.round(times * (0.3 + ((h >>> 12) % 300) / 1000))
  return { times, risePct: round((rises / times) * 100, 12) }
}

/**
 * Seats per listing, as real answers give them
 * (test/fixtures/eastmoney/billboard-seats-600127-2026-09-04.json, …-buy-600611-2024-07-16.json):
 * a day listed for two reasons publishes its seats once per listing, each row carrying the
 * listing's EXPLANATION, CHANGE_TYPE and TRADE_ID (a number, as in the later capture) and the
 * day's close, change, turnover and volume. The side a seat did not trade is `null`, and so is
 * its ratio; TOTAL_BUYRIO / TOTAL_SELLRIO are fractions of the day's turnover (`ACCUM_AMOUNT`).
 */
function seatReport(side: 'buyers' | 'sellers'): Report {
  return (market, now, filter) =>
    boardListings(market, now, filter).flatMap(({ inst, bar, listing }) => {
      const amount = round(bar.amount, 2)
      return listing[side].map((s) => {
        const record = seatRecord(s.name, listing.date)
        return {
          SECURITY_CODE: inst.symbol,
          SECUCODE: `${inst.symbol}.${SECU_SUFFIX[inst.prefix]}`,
          TRADE_DATE: datetime(listing.date),
          OPERATEDEPT_CODE: seatCode(s.name),
          OPERATEDEPT_NAME: s.name,
          EXPLANATION: listing.reason,
          CHANGE_RATE: round(listing.changePct, 4),
          CLOSE_PRICE: bar.close,
          ACCUM_AMOUNT: amount,
          ACCUM_VOLUME: bar.volume,
          BUY: s.buy > 0 ? s.buy : null,
          SELL: s.sell > 0 ? s.sell : null,
          NET: round(s.buy - s.sell, 2),
          RISE_PROBABILITY_3DAY: record.risePct,
          TOTAL_BUYER_SALESTIMES_3DAY: record.times,
          CHANGE_TYPE: changeType(listing.reason),
          OPERATEDEPT_CODE_OLD: seatCodeOld(s.name),
          TOTAL_BUYRIO: s.buy > 0 && amount > 0 ? round(s.buy / amount, 12) : null,
          TOTAL_SELLRIO: s.sell > 0 && amount > 0 ? round(s.sell / amount, 12) : null,
          TRADE_ID: tradeId(inst, listing),
        }
      })
    })
}

/** The reports of this module, by `reportName`. */
export const TRADING_REPORTS: Record<string, Report> = {
  RPT_DATA_BLOCKTRADE: blockTradeReport,
  RPTA_WEB_RZRQ_GGMX: marginReport,
  RPT_DAILYBILLBOARD_DETAILSNEW: billboardReport,
  RPT_BILLBOARD_DAILYDETAILSBUY: seatReport('buyers'),
  RPT_BILLBOARD_DAILYDETAILSSELL: seatReport('sellers'),
}

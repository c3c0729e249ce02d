/**
 * The valuation reports of Eastmoney's datacenter (upstreams.md §5.11), from the one market:
 * `RPT_VALUEINDUSTRY_DET`, one row per industry board and trading day (market/board-valuation.ts),
 * and `RPT_VALUEANALYSIS_DET`, one row per stock and trading day with the board it belongs to
 * (market/industries.ts) and its ratios at the close (market/valuation.ts, as the quotes print
 * them). Rows of a day exist from 15:30 Beijing. Amounts in CNY, shares in shares.
 *
 * Bounds, as the emulator keeps the work finite: `RPT_VALUEINDUSTRY_DET` with `BOARD_CODE=` serves
 * the board's whole history (from 2017) within the `TRADE_DATE` predicates; `ORIGINALCODE=` narrows
 * the boards computed to that one (without leading zeros, as the report writes it); without either, every board
 * for the days the predicates give, the last 10 days when they give no lower bound.
 * `RPT_VALUEANALYSIS_DET` with `SECURITY_CODE=` serves that stock's last 45 calendar days unless bounded;
 * without it, every stock (or with `BOARD_CODE=`, every stock of that board) on one day (the upper
 * bound, else the latest).
 */
import { addDays } from '../../domain/dates'
import { tradingDaysBetween } from '../../domain/trading-calendar'
import { BOARD_VALUATION_START, boardValuation, lastValuationDay } from '../market/board-valuation'
import { SECTORS } from '../market/catalog'
import { hasFundamentals, operatingCashFlowTtm, revenueTtm } from '../market/fundamentals'
import { boardMembers, boardOfValuationCode, industryBoards, industryOf, valuationBoardCode } from '../market/industries'
import type { EmuInstrument, MarketModel } from '../market/types'
import { valuationAt } from '../market/valuation'
import { dateRange } from './eastmoney-datacenter-flow'
import type { Predicate, Row } from './datacenter-rows'
import { round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const datetime = (d: string) => `${d} 00:00:00`
const r4 = (x: number | null) => (x === null ? null : round(x, 4))
/**
 * The industry report's forms (rows the datacenter sent, test/fixtures/eastmoney/valueindustry-016001-2017-01.json):
 * ratios to 12 places (`24.671569606612`), per-member averages of caps to 4 (`43882286002.3383`)
 * and of shares to 5 (`5516620864.58333`), sums of caps to the cent.
 */
const r12 = (x: number | null) => (x === null ? null : round(x, 12))
const equalTo = (filter: readonly Predicate[], column: string) => filter.find((p) => p.column === column && p.op === '=')?.value

/**
 * The board's identity columns: its valuation-report number, its BK number without leading zeros,
 * its name. The industry report calls the BK number `ORIGINALCODE`, the per-stock report
 * `ORIG_BOARD_CODE` (a captured row: test/fixtures/eastmoney/valueanalysis-300124-2023-05-24.json).
 */
const boardColumns = (bk: string, bkColumn: 'ORIGINALCODE' | 'ORIG_BOARD_CODE'): Row => ({ BOARD_CODE: valuationBoardCode(bk), [bkColumn]: String(Number(bk)), BOARD_NAME: SECTORS[bk] })

function industryValuationRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const code = equalTo(filter, 'BOARD_CODE')
  const original = equalTo(filter, 'ORIGINALCODE')
  const boards =
    code !== undefined ? [boardOfValuationCode(code)].filter((b): b is string => b !== undefined)
    : original !== undefined ? industryBoards().filter((bk) => String(Number(bk)) === original)
    : industryBoards()
  const range = dateRange(filter, 'TRADE_DATE', lastValuationDay(now), code === undefined ? 10 : 0)
  const from = code !== undefined && !range.bounded ? BOARD_VALUATION_START : range.from
  const rows: Row[] = []
  for (const bk of boards) {
    for (const d of boardValuation(market, bk, from, range.to, now)) {
      const { BOARD_CODE, ORIGINALCODE, BOARD_NAME } = boardColumns(bk, 'ORIGINALCODE')
      rows.push({
        BOARD_NAME,
        BOARD_CODE,
        ORIGINALCODE,
        TRADE_DATE: datetime(d.date),
        PE_TTM: r12(d.peTtm),
        PE_LAR: r12(d.peStatic),
        PB_MRQ: r12(d.pb),
        PCF_OCF_TTM: r12(d.pcf),
        PS_TTM: r12(d.ps),
        // Not modelled: the three-year EPS growth behind PEG.
        PEG_CAR: null,
        TOTAL_MARKET_CAP: round(d.marketCap, 2),
        MARKET_CAP_VAG: round(d.marketCap / d.count, 4),
        NOTLIMITED_MARKETCAP_A: round(d.floatCap, 2),
        NOMARKETCAP_A_VAG: round(d.floatCap / d.count, 4),
        TOTAL_SHARES: d.totalShares,
        TOTAL_SHARES_VAG: round(d.totalShares / d.count, 5),
        FREE_SHARES_VAG: round(d.floatShares / d.count, 5),
        NUM: d.count,
        LOSS_COUNT: d.lossCount,
      })
    }
  }
  return rows
}

/** One stock's row on one day, null when it has no close by then. */
function stockRow(market: MarketModel, inst: EmuInstrument, day: string, now: number): Row | null {
  const bars = market.dailyBars(inst, addDays(day, -31), day, now)
  const bar = bars.at(-1)
  if (!bar || inst.listDate > day) return null
  const v = valuationAt(market, inst, bar.close, Math.min(now, Date.parse(`${day}T23:59:59+08:00`)))
  const cap = bar.close * (inst.totalShares as number)
  const over = (x: number | null) => (x === null || x === 0 ? null : r4(cap / x))
  const bk = industryOf(inst)!
  return {
    SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
    SECURITY_CODE: inst.symbol,
    SECURITY_NAME_ABBR: inst.name,
    TRADE_DATE: datetime(day),
    CLOSE_PRICE: bar.close,
    CHANGE_RATE: bar.date === day && bar.preClose > 0 ? round((bar.close / bar.preClose - 1) * 100, 4) : 0,
    TOTAL_MARKET_CAP: round(cap, 2),
    NOTLIMITED_MARKETCAP_A: round(bar.close * (inst.floatShares ?? 0), 2),
    TOTAL_SHARES: inst.totalShares,
    FREE_SHARES_A: inst.floatShares,
    PE_TTM: r4(v.peTtm),
    PE_LAR: r4(v.peStatic),
    PB_MRQ: r4(v.pb),
    PCF_OCF_LAR: null,
    PCF_OCF_TTM: over(operatingCashFlowTtm(market, inst, day, now)),
    PS_TTM: over(revenueTtm(market, inst, day, now)),
    PEG_CAR: null,
    ...boardColumns(bk, 'ORIG_BOARD_CODE'),
  }
}

function stockValuationRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const code = equalTo(filter, 'SECURITY_CODE')
  const last = lastValuationDay(now)
  const range = dateRange(filter, 'TRADE_DATE', last, 45)
  const board = equalTo(filter, 'BOARD_CODE')
  const bk = board === undefined ? undefined : boardOfValuationCode(board)
  const candidates = code !== undefined ? market.instruments().filter((i) => i.symbol === code) : board !== undefined ? (bk ? boardMembers(market, bk) : []) : market.instruments()
  const stocks = candidates.filter((i) => hasFundamentals(i) && SUFFIX[i.prefix])
  const days = code === undefined ? [range.to > last ? last : range.to] : tradingDaysBetween(range.from, range.to > last ? last : range.to)
  const rows: Row[] = []
  for (const inst of stocks) for (const d of days) {
    const r = stockRow(market, inst, d, now)
    if (r) rows.push(r)
  }
  return rows
}

export const VALUATION_REPORTS = { RPT_VALUEINDUSTRY_DET: industryValuationRows, RPT_VALUEANALYSIS_DET: stockValuationRows }

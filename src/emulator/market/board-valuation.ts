/**
 * An industry board's valuation per trading day, the overall way (整体法) Eastmoney's industry
 * valuation report states it: the sum of the constituents' market caps over the sum of what they
 * earned, owned, sold or took in. Market cap is the raw close × total shares (the quotes' f20);
 * earnings, equity, revenue and operating cash flow are the fundamentals' figures published by that
 * day (fundamentals.ts), so the board's PE TTM is Σ cap / Σ (EPS TTM × shares): the same earnings
 * every quote's PE TTM divides by. Loss-makers stay in the sums (and are counted). Pure.
 */
import { addDays, beijing } from '../../domain/dates'
import { previousTradingDay, tradingDaysBetween } from '../../domain/trading-calendar'
import { hasFundamentals, noticeDateOf, publishedFigures } from './fundamentals'
import { boardMembers } from './industries'
import { Lru } from './lru'
import type { EmuInstrument, MarketModel } from './types'

/** The first day the report has rows for (public clients read it from early 2017). */
export const BOARD_VALUATION_START = '2017-01-03'
/** The report is filled after the close: a day's row exists from 15:30 Beijing. */
const READY_MINUTE = 15 * 60 + 30

export interface BoardDay {
  date: string
  /** Constituents listed by the day. */
  count: number
  /** Constituents whose TTM attributable net profit is negative. */
  lossCount: number
  /** Σ close × total shares, CNY. */
  marketCap: number
  /** Σ close × float shares, CNY. */
  floatCap: number
  totalShares: number
  floatShares: number
  peTtm: number | null
  peStatic: number | null
  pb: number | null
  ps: number | null
  pcf: number | null
}

/** The last day with a row at `now`: today after the report is filled, else the trading day before. */
export function lastValuationDay(now: number): string {
  const b = beijing(now)
  return b.minute >= READY_MINUTE ? tradingDaysBetween(b.date, b.date)[0] ?? previousTradingDay(b.date) : previousTradingDay(b.date)
}

/** A member's fundamentals as published by a day: TTM profit, last annual profit, equity, TTM revenue, TTM operating cash (CNY). */
type Figures = [profit: number | null, annual: number | null, equity: number | null, revenue: number | null, cash: number | null]

/** The member's figures on each day they change in [from, to], ascending: `from` first, then each report day. */
function figureSteps(market: MarketModel, inst: EmuInstrument, from: string, to: string, now: number): Array<[string, Figures]> {
  const at = (d: string): Figures => {
    const f = publishedFigures(market, inst, d, now)
    return [f.profitTtm, f.annualProfit, f.equity, f.revenueTtm, f.operatingCashTtm]
  }
  const days = new Set<string>()
  for (let q = (+from.slice(0, 4) - 1) * 4; q <= +to.slice(0, 4) * 4 + 3; q++) {
    const d = noticeDateOf(inst, q)
    if (d > from && d <= to) days.add(d)
  }
  return [from, ...[...days].sort()].map((d) => [d, at(d)])
}

const over = (cap: number, base: number, any: boolean) => (any && base !== 0 ? cap / base : null)

/**
 * Rows by board and calendar year: callers ask for every kind of range, and a year is computed once
 * (a past year for good; the current one until its last day moves). Each day's row depends only on
 * the closes and reports up to that day, so a range's rows are its years' rows, cut.
 */
const years = new Lru<string, BoardDay[]>(1024)

/** The board's rows for the trading days in [from, to] (capped by what exists at `now`), ascending. */
export function boardValuation(market: MarketModel, bk: string, from: string, to: string, now: number): BoardDay[] {
  const last = lastValuationDay(now)
  const end = to < last ? to : last
  const start = from > BOARD_VALUATION_START ? from : BOARD_VALUATION_START
  if (start > end) return []
  const rows: BoardDay[] = []
  for (let y = +start.slice(0, 4); y <= +end.slice(0, 4); y++) {
    for (const r of yearRows(market, bk, y, last, now)) if (r.date >= start && r.date <= end) rows.push(r)
  }
  return rows
}

/** One calendar year of a board's rows, up to `last`. */
function yearRows(market: MarketModel, bk: string, year: number, last: string, now: number): BoardDay[] {
  const yearStart = `${year}-01-01` > BOARD_VALUATION_START ? `${year}-01-01` : BOARD_VALUATION_START
  const yearEnd = `${year}-12-31` < last ? `${year}-12-31` : last
  const key = `${bk}|${year}|${yearEnd}`
  let rows = years.get(key)
  if (!rows) years.set(key, (rows = compute(market, bk, yearStart, yearEnd, now)))
  return rows
}

function compute(market: MarketModel, bk: string, start: string, end: string, now: number): BoardDay[] {
  if (start > end) return []
  const days = tradingDaysBetween(start, end)
  const n = days.length
  const count = new Array<number>(n).fill(0)
  const loss = new Array<number>(n).fill(0)
  const cap = new Array<number>(n).fill(0)
  const floatCap = new Array<number>(n).fill(0)
  const shares = new Array<number>(n).fill(0)
  const floatShares = new Array<number>(n).fill(0)
  // Per ratio: Σ cap of members with the figure, Σ figure, whether any member has it.
  const bases = Array.from({ length: 5 }, () => ({ cap: new Array<number>(n).fill(0), base: new Array<number>(n).fill(0), any: new Array<boolean>(n).fill(false) }))

  for (const inst of boardMembers(market, bk)) {
    if (!hasFundamentals(inst) || inst.listDate > end) continue
    // A month before the window, so a member halted on its first days still has a close to carry.
    const bars = market.dailyBars(inst, addDays(start, -31), end, now)
    const steps = figureSteps(market, inst, start, end, now)
    let k = 0
    let b = 0
    let close: number | null = null
    for (let i = 0; i < n; i++) {
      const d = days[i]
      while (b < bars.length && bars[b].date <= d) close = bars[b++].close
      while (k + 1 < steps.length && steps[k + 1][0] <= d) k++
      if (close === null || inst.listDate > d) continue
      const c = close * (inst.totalShares as number)
      count[i]++
      cap[i] += c
      floatCap[i] += close * (inst.floatShares ?? 0)
      shares[i] += inst.totalShares as number
      floatShares[i] += inst.floatShares ?? 0
      const f = steps[k][1]
      if (f[0] !== null && f[0] < 0) loss[i]++
      for (let j = 0; j < 5; j++) {
        const v = f[j]
        if (v === null) continue
        bases[j].cap[i] += c
        bases[j].base[i] += v
        bases[j].any[i] = true
      }
    }
  }
  const ratio = (j: number, i: number) => over(bases[j].cap[i], bases[j].base[i], bases[j].any[i])
  return days
    .map((date, i) => ({
      date, count: count[i], lossCount: loss[i], marketCap: cap[i], floatCap: floatCap[i], totalShares: shares[i], floatShares: floatShares[i],
      peTtm: ratio(0, i), peStatic: ratio(1, i), pb: ratio(2, i), ps: ratio(3, i), pcf: ratio(4, i),
    }))
    .filter((r) => r.count > 0)
}

/**
 * The market's margin totals per session, `RPTA_WEB_MARGIN_DAILYTRADE` (两融账户统计,
 * upstreams.md §5.6), as the emulator answers it: the sums of every margin-target stock's day in
 * market/margin.ts (the rows `RPTA_WEB_RZRQ_GGMX` prints), so the market total is the stocks'
 * total. Amounts in 100 million CNY (亿元) with 8 decimals, as the real report prints them. A
 * session's figures are out the next day. Sessions from the filter's `STATISTICS_DATE>=` bound
 * (default and furthest: 60 days back) to the last published one; the investor-count and
 * collateral columns of the real report are not modelled and left out.
 */
import { addDays, beijing } from '../../domain/dates'
import { isMarginTarget, marginDay } from '../market/margin'
import type { MarketModel } from '../market/types'

type Cell = string | number | null
type Row = Record<string, Cell>
type Predicate = { column: string; op: string; value: string }
type Report = (market: MarketModel, now: number, filter: readonly Predicate[]) => Row[]

const MAX_DAYS = 60
const YI = 1e8
const yi = (cny: number) => Math.round((cny / YI) * 1e8) / 1e8

interface Totals {
  financing: number
  lending: number
  financingBuy: number
  lendingSell: number
}

const marginTotals: Report = (market, now, filter) => {
  const to = addDays(beijing(now).date, -1)
  let from = addDays(to, -MAX_DAYS)
  for (const p of filter) {
    if (p.column === 'STATISTICS_DATE' && (p.op === '>=' || p.op === '>' || p.op === '=') && /^\d{4}-\d{2}-\d{2}/.test(p.value) && p.value.slice(0, 10) > from) from = p.value.slice(0, 10)
  }
  const byDate = new Map<string, Totals>()
  for (const inst of market.instruments()) {
    if (!isMarginTarget(inst)) continue
    const bars = market.dailyBars(inst, addDays(from, -30), to, now).filter((b) => b.volume > 0)
    for (let i = 1; i < bars.length; i++) {
      const bar = bars[i]
      if (bar.date < from) continue
      const m = marginDay(inst, bar, bars[i - 1].date, bars[i - 1].close)
      if (!m) continue
      const t = byDate.get(m.date) ?? { financing: 0, lending: 0, financingBuy: 0, lendingSell: 0 }
      t.financing += m.financingBalance
      t.lending += m.lendingBalance
      t.financingBuy += m.financingBuy
      t.lendingSell += m.lentSold * bar.close
      byDate.set(m.date, t)
    }
  }
  return [...byDate].map(([date, t]) => ({
    STATISTICS_DATE: `${date} 00:00:00`,
    FIN_BALANCE: yi(t.financing),
    LOAN_BALANCE: yi(t.lending),
    MARGIN_BALANCE: yi(t.financing + t.lending),
    FIN_BUY_AMT: yi(t.financingBuy),
    LOAN_SELL_AMT: yi(t.lendingSell),
    MARGIN_TRADE_AMT: yi(t.financingBuy + t.lendingSell),
  }))
}

export const MARGIN_MARKET_REPORTS: Record<string, Report> = { RPTA_WEB_MARGIN_DAILYTRADE: marginTotals }

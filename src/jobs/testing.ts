/**
 * For the jobs' tests: a {@link HistorySource} read straight from the emulator's market model (no
 * wire format in between), over a small sub-universe so a test does not walk 5,572 stocks, with
 * call counters and injectable failures. Also the bench's day blob ({@link marketDayRows}).
 */
import type { PeriodFigures } from '../domain/fundamental-factors'
import { financialReport } from '../emulator/market/fundamentals'
import { hasTraded } from '../emulator/market/quote'
import type { MarketModel } from '../emulator/market/types'
import { marketRow, type MarketKlineRow } from '../store/market-kline'
import type { HistorySource, SnapshotRow, SourceAction } from './source'

export interface FakeSource extends HistorySource {
  calls: { snapshot: number; rawDaily: number; actions: number; statements: number }
  /** Makes the next `n` calls of `what` throw (an upstream outage). */
  failNext(what: 'snapshot' | 'rawDaily' | 'actions' | 'statements', n: number): void
}

/** The fake over `codes` (stocks of the emulator), at the clock `now()`. */
export function marketSource(market: MarketModel, codes: readonly string[], now: () => number): FakeSource {
  const insts = codes.map((c) => {
    const i = market.byCode(c)
    if (!i) throw new Error(`the emulator has no ${c}`)
    return i
  })
  const failing = { snapshot: 0, rawDaily: 0, actions: 0, statements: 0 }
  const calls = { snapshot: 0, rawDaily: 0, actions: 0, statements: 0 }
  const hit = (what: keyof typeof failing) => {
    calls[what]++
    if (failing[what] > 0) {
      failing[what]--
      throw new Error(`injected ${what} failure`)
    }
  }
  return {
    calls,
    failNext: (what, n) => void (failing[what] = n),
    async snapshot(): Promise<SnapshotRow[]> {
      hit('snapshot')
      return insts.map((inst) => {
        const q = market.live(inst, now())
        const b = q.bar
        return {
          code: inst.code, date: q.date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume, amount: b.amount, halted: q.state === 'suspended', traded: hasTraded(q),
          totalShares: inst.totalShares, floatShares: inst.floatShares, listDate: inst.listDate, turnover: hasTraded(q) ? b.turnover : null,
        }
      })
    },
    async rawDaily(inst, from, to) {
      hit('rawDaily')
      const e = market.byCode(inst.code)
      if (!e) return []
      return market.dailyBars(e, from, to, now()).map((b) => ({ date: b.date, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume, amount: b.amount, turnover: b.turnover }))
    },
    async actions(q): Promise<SourceAction[]> {
      hit('actions')
      const list = 'code' in q ? insts.filter((i) => i.code === q.code) : insts
      const out: SourceAction[] = []
      for (const i of list) for (const a of market.actions(i, now())) if (!('exDate' in q) || a.exDate === q.exDate) out.push({ code: i.code, ...a })
      return out.sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : a.code < b.code ? -1 : 1))
    },
    async statements(period, balance) {
      hit('statements')
      const out = new Map<string, PeriodFigures>()
      for (const inst of insts) {
        const r = financialReport(market, inst, period, now())
        if (!r) continue
        out.set(inst.code, {
          notice: r.noticeDate,
          revenue: r.income.revenue,
          operating_cost: r.income.operatingCost,
          parent_net_profit: r.income.parentNetProfit,
          operating_net_cash: r.cashflow.operatingNetCash,
          total_assets: balance ? r.balance.totalAssets : null,
          total_liabilities: balance ? r.balance.totalLiabilities : null,
          // As the channel's (src/jobs/eastmoney-source.ts): the 业绩报表's BPS, read with the balance sheet.
          bps: balance ? r.balance.parentEquity / (inst.totalShares as number) : null,
          bps_notice: balance ? r.noticeDate : null,
          bps_shares: balance && Math.abs(r.income.basicEps) >= 0.1 ? r.income.parentNetProfit / r.income.basicEps : null,
        })
      }
      return out
    },
  }
}

/** Every emulator stock's bar of `date` as blob rows, ascending by code (what the jobs would store). */
export function marketDayRows(market: MarketModel, date: string, now: number): MarketKlineRow[] {
  const rows: MarketKlineRow[] = []
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock') continue
    for (const b of market.dailyBars(inst, date, date, now)) rows.push(marketRow(inst.code, b))
  }
  return rows.sort((a, b) => (a.code < b.code ? -1 : 1))
}

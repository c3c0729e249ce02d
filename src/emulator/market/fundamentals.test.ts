import { describe, expect, it } from 'vitest'
import {
  bookValuePerShare, epsDynamic, epsStatic, epsTtm, financialReports, noticeDateOf, operatingCashFlowTtm, revenueTtm,
} from './fundamentals'
import { createMarket } from './model'
import { sampleInstruments } from './testing'
import { universe } from './universe'

const market = createMarket()
const { byCode } = universe()
/** Epoch ms of a Beijing wall time. */
const bj = (date: string, hh = 10, mm = 30) => Date.parse(`${date}T00:00:00Z`) + ((hh - 8) * 60 + mm) * 60_000
const NOW = bj('2026-11-20')
const stocks = sampleInstruments(60, 0xf00d, 0).filter((i) => i.kind === 'stock')
const near = (a: number, b: number, tol = 0.011) => Math.abs(a - b) <= tol

describe('fundamentals', () => {
  it('publishes only periods whose report date has passed, newest first, with realistic lags', () => {
    const moutai = byCode.get('sh600519')!
    const reports = financialReports(market, moutai, NOW)
    expect(reports[0].period).toBe('2026-09-30')
    const periods = reports.map((r) => r.period)
    expect([...periods].sort().reverse()).toEqual(periods)
    for (const r of reports) {
      expect(r.period.slice(5)).toMatch(/^(03-31|06-30|09-30|12-31)$/)
      expect(r.noticeDate <= '2026-11-20').toBe(true)
      const lagDays = (Date.parse(r.noticeDate) - Date.parse(r.period)) / 86_400_000
      expect(lagDays).toBeGreaterThan(0)
      expect(lagDays).toBeLessThanOrEqual(r.period.endsWith('12-31') ? 120 : 62)
    }
    // Early April: the annual report may be out, Q1 is not; by May 1 both are, for everyone.
    for (const s of stocks) {
      expect(financialReports(market, s, bj('2026-04-05')).some((r) => r.period === '2026-03-31')).toBe(false)
      const may = financialReports(market, s, bj('2026-05-01'), 2).map((r) => r.period)
      expect(may).toEqual(['2026-03-31', '2025-12-31'])
    }
  })

  it('adds up: cumulative income lines, a balancing balance sheet, cash flows ending on the cash balance', () => {
    for (const s of stocks) {
      const reports = financialReports(market, s, NOW, 8)
      expect(reports.length).toBe(8)
      for (const { income: i, balance: b, cashflow: c, period } of reports) {
        expect(near(b.totalAssets, b.totalLiabilities + b.totalEquity)).toBe(true)
        expect(near(b.totalEquity, b.parentEquity + b.minorityEquity)).toBe(true)
        expect(b.totalLiabilities).toBeGreaterThan(0)
        expect(b.cash + b.accountsReceivable + b.inventory).toBeLessThanOrEqual(b.currentAssets)
        expect(b.currentAssets + b.fixedAssets).toBeLessThanOrEqual(b.totalAssets)
        expect(near(i.basicEps, i.parentNetProfit / s.totalShares!, 0.00006)).toBe(true)
        expect(near(i.operatingProfit, i.revenue - i.totalOperatingCost, 0.05)).toBe(true)
        expect(near(i.netProfit, i.totalProfit - i.incomeTax, 0.05)).toBe(true)
        expect(i.revenue).toBeGreaterThan(0)
        expect(near(c.netCashChange, c.operatingNetCash + c.investingNetCash + c.financingNetCash, 0.05)).toBe(true)
        expect(near(c.endCash, c.beginCash + c.netCashChange, 0.05)).toBe(true)
        expect(c.endCash).toBe(b.cash)
        // Begin cash is last December's balance.
        const dec = financialReports(market, s, NOW, 40).find((r) => r.period === `${+period.slice(0, 4) - 1}-12-31`)
        if (dec) expect(c.beginCash).toBe(dec.balance.cash)
      }
      // Cumulative within the year: Q3's revenue includes H1's.
      const [q3, h1] = reports
      expect(q3.income.revenue).toBeGreaterThan(h1.income.revenue)
    }
  })

  it('gives realistic valuations at the live price, with a few loss-makers', () => {
    const all = universe().list.filter((i) => i.kind === 'stock')
    const sample = all.filter((_, k) => k % 25 === 0)
    let inRange = 0
    let losses = 0
    const pbs: number[] = []
    for (const s of sample) {
      const price = market.live(s, NOW).bar.close
      const eps = epsTtm(market, s, '2026-11-20', NOW)!
      const pe = price / eps
      if (eps < 0) losses++
      else if (pe >= 5 && pe <= 80) inRange++
      pbs.push(price / bookValuePerShare(market, s, '2026-11-20', NOW)!)
    }
    expect(inRange / sample.length).toBeGreaterThan(0.8)
    expect(losses).toBeGreaterThan(0)
    expect(losses / sample.length).toBeLessThan(0.15)
    pbs.sort((a, b) => a - b)
    const median = pbs[pbs.length >> 1]
    expect(median).toBeGreaterThan(1)
    expect(median).toBeLessThan(6)
  })

  it('computes TTM figures from the published statements', () => {
    for (const s of stocks.slice(0, 10)) {
      const [q3, h1, q1, y25, q3prev] = financialReports(market, s, NOW, 5)
      void h1, void q1
      expect(q3prev.period).toBe('2025-09-30')
      const ttmProfit = q3.income.parentNetProfit + y25.income.parentNetProfit - q3prev.income.parentNetProfit
      expect(epsTtm(market, s, '2026-11-20', NOW)).toBeCloseTo(ttmProfit / s.totalShares!, 8)
      expect(revenueTtm(market, s, '2026-11-20', NOW)).toBeCloseTo(q3.income.revenue + y25.income.revenue - q3prev.income.revenue, 2)
      expect(operatingCashFlowTtm(market, s, '2026-11-20', NOW)).toBeCloseTo(
        q3.cashflow.operatingNetCash + y25.cashflow.operatingNetCash - q3prev.cashflow.operatingNetCash, 2)
      expect(bookValuePerShare(market, s, '2026-11-20', NOW)).toBeCloseTo(q3.balance.parentEquity / s.totalShares!, 8)
      expect(epsStatic(market, s, '2026-11-20', NOW)).toBeCloseTo(y25.income.parentNetProfit / s.totalShares!, 8)
      expect(epsDynamic(market, s, '2026-11-20', NOW)).toBeCloseTo((q3.income.parentNetProfit * 4) / 3 / s.totalShares!, 8)
      // An annual report alone is its own TTM; an earlier as-of date sees only what was out then.
      expect(epsTtm(market, s, '2026-03-01', NOW)).toBeCloseTo(
        (() => {
          const [q, y24, qPrev] = financialReports(market, s, bj('2026-03-01'), 5).filter((r) => r.period === '2025-09-30' || r.period === '2024-12-31' || r.period === '2024-09-30')
          return (q.income.parentNetProfit + y24.income.parentNetProfit - qPrev.income.parentNetProfit) / s.totalShares!
        })(),
        8,
      )
    }
  })

  it('is deterministic and never revises a published period', () => {
    const s = stocks[3]
    const a = financialReports(market, s, NOW, 12)
    const later = financialReports(market, s, bj('2027-06-01'), 40)
    for (const r of a) expect(later.find((x) => x.period === r.period)).toEqual(r)
    expect(noticeDateOf(s, 2026 * 4)).toBe(noticeDateOf(s, 2026 * 4))
  })

  it('has nothing for other markets and kinds', () => {
    for (const code of ['hk00700', 'usAAPL', 'sh000001', 'sh510300']) {
      const inst = byCode.get(code)!
      expect(financialReports(market, inst, NOW)).toEqual([])
      expect(epsTtm(market, inst, '2026-11-20', NOW)).toBeNull()
    }
  })
})

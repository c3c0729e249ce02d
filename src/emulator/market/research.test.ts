import { describe, expect, it } from 'vitest'
import { addDays } from '../../domain/dates'
import { epsTtm } from './fundamentals'
import { createMarket } from './model'
import { decodeInfoCode, infoCodeOf, latestResults, marketReportKeys, RATINGS, reportDates, researchReport, type ResearchReport } from './research'
import { sampleInstruments } from './testing'

const market = createMarket()
const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const TODAY = '2026-11-20'
const stocks = sampleInstruments(80, 0x5e5e, 0).filter((i) => i.kind === 'stock')

/** Every report of the sample stocks over the last year. */
const reports: ResearchReport[] = stocks.flatMap((inst) =>
  reportDates(inst, addDays(TODAY, -365), TODAY).map((d) => researchReport(market, inst, d, NOW)!)
)

describe('research reports', () => {
  it('exist for most stocks, a few a year each, on trading days only', () => {
    expect(reports.length).toBeGreaterThan(stocks.length)
    expect(new Set(reports.map((r) => r.inst.code)).size).toBeGreaterThan(stocks.length / 2)
    for (const r of reports) expect(new Date(r.date + 'T00:00:00Z').getUTCDay() % 6).not.toBe(0)
  })

  it('are deterministic and found again from their infoCode', () => {
    const r = reports[0]
    expect(researchReport(market, r.inst, r.date, NOW)).toEqual(r)
    expect(r.infoCode).toMatch(/^AP\d{18}$/)
    expect(decodeInfoCode(market, r.infoCode)).toEqual({ inst: r.inst, date: r.date })
    expect(decodeInfoCode(market, r.infoCode.slice(0, -1) + ((+r.infoCode.slice(-1) + 1) % 10))).toBeNull()
    expect(infoCodeOf(r.inst, r.date)).toBe(r.infoCode)
  })

  it('take the close of the last session before the report date', () => {
    for (const r of reports.slice(0, 20)) {
      const bars = market.dailyBars(r.inst, addDays(r.date, -20), addDays(r.date, -1), NOW)
      expect(r.close).toBe(bars[bars.length - 1].close)
    }
  })

  it('set targets on the side of the close their rating says', () => {
    const withTarget = reports.filter((r) => r.target !== null)
    expect(withTarget.length).toBeGreaterThan(reports.length / 3)
    for (const r of withTarget) {
      if (r.rating === '买入' || r.rating === '增持') expect(r.target!).toBeGreaterThan(r.close)
      if (r.rating === '减持' || r.rating === '卖出') expect(r.target!).toBeLessThan(r.close)
      if (r.targetLow !== null) expect(r.targetLow).toBeLessThan(r.target!)
    }
    // Most reports are positive, as A-share research is.
    const positive = reports.filter((r) => r.rating === '买入' || r.rating === '增持').length
    expect(positive / reports.length).toBeGreaterThan(0.6)
  })

  it('forecast EPS near the trailing EPS, PE = close / EPS', () => {
    for (const r of reports) {
      const ttm = epsTtm(market, r.inst, r.date, NOW)!
      if (ttm > 0) {
        expect(r.epsThisYear).toBeGreaterThan(ttm * 0.5)
        expect(r.epsThisYear).toBeLessThan(ttm * 1.6 + 0.01)
      }
      if (r.peThisYear !== null) expect(r.peThisYear).toBeCloseTo(r.close / r.epsThisYear, 0)
    }
  })

  it('carry the same broker\'s previous rating on the stock', () => {
    for (const r of reports.slice(0, 25)) {
      const earlier = reportDates(r.inst, addDays(r.date, -730), addDays(r.date, -1))
        .map((d) => researchReport(market, r.inst, d, NOW)!)
        .find((p) => p.broker.code === r.broker.code)
      expect(r.lastRating).toBe(earlier ? earlier.rating : null)
    }
    expect(reports.some((r) => r.lastRating !== null && r.lastRating !== r.rating)).toBe(true)
    expect(reports.some((r) => r.lastRating === r.rating)).toBe(true)
  })

  it('quote the fundamentals model in the summary', () => {
    const r = reports.find((x) => latestResults(market, x.inst, x.date, NOW)?.revenueGrowth != null)!
    const res = latestResults(market, r.inst, r.date, NOW)!
    expect(r.summary[0]).toContain(`营业收入${(res.revenue / 1e8).toFixed(2)}亿元`)
    expect(r.summary[0]).toContain(`${Math.abs(res.revenueGrowth!).toFixed(2)}%`)
    expect(r.summary.join('')).toContain(`“${r.rating}”评级`)
    expect(RATINGS).toContain(r.rating)
  })

  it('list the whole market newest first', () => {
    const keys = marketReportKeys(market, addDays(TODAY, -3), TODAY)
    expect(keys.length).toBeGreaterThan(30)
    const dates = keys.map((k) => k.date)
    expect([...dates].sort().reverse()).toEqual(dates)
  })
})

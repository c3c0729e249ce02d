import { industryOf } from './industries'
import { describe, expect, it } from 'vitest'
import { market } from '.'
import { boardsOf, compositionOf, conceptBoards, hasBusiness } from './business'
import { financialReport } from './fundamentals'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const stocks = market.instruments().filter(hasBusiness)

describe('simulated companies\' boards and business', () => {
  it('every A-share stock has one industry board and two to five concept boards, the same on every call', () => {
    for (const inst of stocks) {
      const b = boardsOf(inst)
      expect(b[0].kind).toBe('industry')
      expect(b.slice(1).every((x) => x.kind === 'concept')).toBe(true)
      expect(b.length - 1).toBeLessThanOrEqual(5)
      expect(new Set(b.map((x) => x.code)).size).toBe(b.length)
    }
    expect(boardsOf(market.byCode('sz300750')!).map((b) => b.name)).toEqual(['电池', '锂电池', '储能', '新能源车', '钠离子电池', '固态电池'])
    expect(boardsOf(market.byCode('sh000001')!)).toEqual([])
  })

  it('spreads stocks over every concept board', () => {
    const size = new Map<string, number>()
    for (const inst of stocks) for (const b of boardsOf(inst).slice(1)) size.set(b.code, (size.get(b.code) ?? 0) + 1)
    expect(size.size).toBe(conceptBoards().length)
    for (const n of size.values()) expect(n).toBeGreaterThan(20)
  })

  it('a composition splits the latest published annual revenue and cost exactly', () => {
    for (const inst of stocks.filter((_, i) => i % 50 === 0)) {
      const c = compositionOf(market, inst, NOW)
      if (!c) continue
      const report = financialReport(market, inst, c.reportDate, NOW)!
      expect(c.reportDate).toMatch(/^\d{4}-12-31$/)
      const sum = (xs: Array<{ income: number }>) => xs.reduce((s, x) => s + x.income, 0)
      for (const part of [c.products, c.industries, c.regions]) expect(sum(part)).toBeCloseTo(report.income.revenue, 1)
      expect(c.products.reduce((s, x) => s + x.cost, 0)).toBeCloseTo(report.income.operatingCost, 1)
      // Largest first.
      expect(c.products.map((p) => p.income)).toEqual([...c.products.map((p) => p.income)].sort((a, b) => b - a))
    }
  })

  it('files each stock under the one industry board the valuation reports use too', () => {
    for (const inst of stocks) expect(boardsOf(inst)[0].code).toBe('BK' + industryOf(inst))
  })
})

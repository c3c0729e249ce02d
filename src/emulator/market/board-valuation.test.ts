import { describe, expect, it } from 'vitest'
import { boardValuation, lastValuationDay } from './board-valuation'
import { boardMembers, industryOf } from './industries'
import { market } from './index'
import { valuationAt } from './valuation'

const NOW = Date.parse('2026-10-22T16:00:00+08:00')

describe('boardValuation', () => {
  it('is the overall ratio of its members: Σ cap / Σ (cap / each member\'s PE TTM)', () => {
    const rows = boardValuation(market, '0477', '2021-10-22', '2026-10-22', NOW)
    const last = rows.at(-1)!
    expect(last.date).toBe('2026-10-22')
    expect(rows.length).toBeGreaterThan(1150)
    let cap = 0
    let profit = 0
    let book = 0
    let n = 0
    for (const inst of boardMembers(market, '0477')) {
      if (inst.listDate > last.date) continue
      const bar = market.dailyBars(inst, '2026-09-01', last.date, NOW).at(-1)!
      const v = valuationAt(market, inst, bar.close, NOW)
      const c = bar.close * inst.totalShares!
      n++
      cap += c
      if (v.peTtm !== null) profit += c / v.peTtm
      if (v.pb !== null) book += c / v.pb
    }
    expect(last.count).toBe(n)
    expect(last.marketCap).toBeCloseTo(cap, 0)
    expect(last.peTtm!).toBeCloseTo(cap / profit, 6)
    expect(last.pb!).toBeCloseTo(cap / book, 6)
  })

  it('has a row per trading day once the report is filled', () => {
    expect(lastValuationDay(Date.parse('2026-10-22T15:00:00+08:00'))).toBe('2026-10-21')
    expect(lastValuationDay(NOW)).toBe('2026-10-22')
    expect(lastValuationDay(Date.parse('2026-10-25T12:00:00+08:00'))).toBe('2026-10-23')
  })

  it('puts every stock on one board and the real names where they belong', () => {
    expect(industryOf(market.byCode('sh600519')!)).toBe('0477')
    expect(industryOf(market.byCode('sh000001')!)).toBeUndefined()
  })
})

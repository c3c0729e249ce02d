import { describe, expect, it } from 'vitest'
import { tradingDaysBetween } from '../../domain/trading-calendar'
import { companyEvents } from './company-events'
import { planDates } from './dividend-plans'
import { createMarket } from './model'

const market = createMarket()
const NOW = Date.parse('2026-11-20T16:00:00+08:00')
const TODAY = '2026-11-20'

describe('company events', () => {
  it('tells each distribution at its plan, approval, record and ex-dates', () => {
    const inst = market.byCode('sh600519')!
    const events = companyEvents(market, inst, '2024-01-01', TODAY, NOW)
    const dates = events.map((e) => e.date)
    expect([...dates].sort()).toEqual(dates)
    for (const a of market.actions(inst, NOW).filter((x) => x.exDate >= '2024-06-01')) {
      const d = planDates(a)
      expect(events).toContainEqual(expect.objectContaining({ date: d.ex, type: '除权除息' }))
      expect(events).toContainEqual(expect.objectContaining({ date: d.record, type: '股权登记' }))
      expect(events).toContainEqual(expect.objectContaining({ date: d.approval, type: '股东大会' }))
    }
  })

  it('suspends on trading days without a bar and resumes on the next bar', () => {
    const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2024-01-01')
    let checked = 0
    for (const inst of stocks.slice(0, 150)) {
      const events = companyEvents(market, inst, '2025-11-20', TODAY, NOW).filter((e) => e.type === '停牌' || e.type === '复牌')
      if (!events.length) continue
      const traded = new Set(market.dailyBars(inst, '2025-11-20', TODAY, NOW).map((b) => b.date))
      for (const e of events) expect(traded.has(e.date), `${inst.code} ${e.type} ${e.date}`).toBe(e.type === '复牌')
      checked++
    }
    expect(checked).toBeGreaterThan(0)
    expect(tradingDaysBetween('2025-11-20', TODAY).length).toBeGreaterThan(200)
  })

  it('has nothing for other kinds', () => {
    expect(companyEvents(market, market.byCode('sh000001')!, '2025-01-01', TODAY, NOW)).toEqual([])
  })
})

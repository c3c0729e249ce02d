import { describe, expect, it } from 'vitest'
import { ipoPlan, ipoPlans } from './ipo'
import { market } from './index'

describe('ipoPlans', () => {
  const plans = ipoPlans(market, '2026-06-01', '2026-11-20')

  it('lists the exchange stocks listing in the window, each on its listDate with a first bar that day', () => {
    expect(plans.length).toBeGreaterThan(0)
    for (const p of plans) {
      expect(['sh', 'sz']).toContain(p.inst.prefix)
      expect(p.listDate).toBe(p.inst.listDate)
      const first = market.dailyBars(p.inst, '2016-01-01', p.listDate, Date.parse(`${p.listDate}T16:00:00+08:00`))
      expect(first.at(-1)!.date).toBe(p.listDate)
      expect(first).toHaveLength(1)
    }
  })

  it('puts the dates in the order an IPO runs, and prices below the first open', () => {
    for (const p of plans) {
      const order = [p.announceDate, p.pricingDate, p.applyDate, p.ballotDate, p.listingNoticeDate, p.listDate]
      expect([...order].sort()).toEqual(order)
      expect(p.applyDate < p.listDate).toBe(true)
      expect(p.issuePrice).toBeLessThan(p.firstOpen)
      expect(p.onlineShares).toBeLessThanOrEqual(p.issueShares)
      expect(p.winningRate).toBeLessThan(0.1)
    }
  })

  it('shows only IPOs announced by today, and is deterministic', () => {
    for (const p of ipoPlans(market, '2026-06-01', '2026-09-01')) expect(p.announceDate <= '2026-09-01').toBe(true)
    const p = plans[0]
    expect(ipoPlan(market, p.inst)).toEqual(p)
  })

  it('gives no IPO to indexes, Beijing shares or funds', () => {
    for (const code of ['sh000001', 'sh510300', 'bj830799']) expect(ipoPlan(market, market.byCode(code)!)).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { holderCount, holderNoticeDate, holderPeriods, topFloatHolders, topHolders } from './shareholders'
import { universe } from './universe'
import { createMarket } from './model'

const { list, byCode } = universe()
const sample = [byCode.get('sh600519')!, ...list.filter((i) => i.kind === 'stock').filter((_, k) => k % 389 === 0)]
const NOW = Date.parse('2026-11-20T16:00:00+08:00')

describe('shareholders', () => {
  it('publishes quarterly periods after their lag, newest first, none before listing', () => {
    const periods = holderPeriods(byCode.get('sh600519')!, '2026-11-20')
    expect(periods.slice(0, 3)).toEqual(['2026-09-30', '2026-06-30', '2026-03-31'])
    for (const p of periods) expect(holderNoticeDate(p) <= '2026-11-20').toBe(true)
    expect(holderPeriods(byCode.get('sh600519')!, '2026-10-24')[0]).toBe('2026-06-30')
  })

  it('keeps the ten within the shares, the float ten within the float, ranked and distinct', () => {
    for (const inst of sample) {
      for (const end of holderPeriods(inst, '2026-11-20').slice(0, 4)) {
        const top = topHolders(inst, end)
        const float = topFloatHolders(inst, end)
        expect(top.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        expect(new Set(top.map((h) => h.name)).size).toBe(10)
        for (let k = 1; k < 10; k++) expect(top[k].shares).toBeLessThanOrEqual(top[k - 1].shares)
        expect(top.reduce((s, h) => s + h.shares, 0)).toBeLessThanOrEqual(inst.totalShares!)
        expect(float.reduce((s, h) => s + h.shares, 0)).toBeLessThanOrEqual(inst.floatShares!)
        float.forEach((h, k) => expect(h.shares).toBeLessThanOrEqual(top[k].shares))
      }
    }
  })

  it('says what changed since the previous period', () => {
    const inst = byCode.get('sh600519')!
    const now = topHolders(inst, '2026-09-30')
    const before = new Map(topHolders(inst, '2026-06-30').map((h) => [h.name, h.shares]))
    for (const h of now) {
      if (before.has(h.name)) expect(h.change).toBe(h.shares - before.get(h.name)!)
      else expect(h).toMatchObject({ change: null, changeName: '新进' })
    }
  })

  it('counts holders with avgShares = total shares / holders and the period-end close', () => {
    const market = createMarket()
    const inst = byCode.get('sh600519')!
    const c = holderCount(market, inst, '2026-09-30', NOW)!
    const bar = market.dailyBars(inst, '2026-09-01', '2026-09-30', NOW).at(-1)!
    expect(c.close).toBe(bar.close)
    expect(c.avgShares).toBeCloseTo(inst.totalShares! / c.holders, 2)
    expect(c.marketCap).toBeCloseTo(bar.close * inst.totalShares!, 0)
  })
})

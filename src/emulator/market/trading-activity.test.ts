import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { listingReasons, listings, LISTING_MOVE_PCT } from './billboard'
import { blockTrades, hasBlockTrades, MIN_BLOCK_AMOUNT } from './block-trades'
import { dayFlow, ORDER_CLASSES } from './flow'
import { market } from './index'
import { limitOn, limitPrices } from './limits'
import { marginDay } from './margin'
import { sampleInstruments } from './testing'
import type { RawBar } from './types'

const NOW = Date.parse('2026-11-21T12:00:00+08:00')
const stocks = sampleInstruments(40, 77, 0).filter((i) => i.kind === 'stock' && i.listDate < '2025-01-01')
const barsOf = (code: string, from = '2025-06-01', to = '2026-11-20') => market.dailyBars(market.byCode(code)!, from, to, NOW).filter((b) => b.volume > 0)

describe('money flow', () => {
  it('splits each bar\'s amount over four classes and two sides, to the cent', () => {
    for (const inst of stocks.slice(0, 10)) {
      for (const bar of market.dailyBars(inst, '2026-10-01', '2026-11-20', NOW)) {
        const f = dayFlow(inst, bar)
        const total = ORDER_CLASSES.reduce((s, c) => s + f[c].inflow + f[c].outflow, 0)
        expect(Math.abs(total - bar.amount)).toBeLessThan(0.02)
        for (const c of ORDER_CLASSES) expect(Math.min(f[c].inflow, f[c].outflow)).toBeGreaterThanOrEqual(0)
      }
    }
  })

  it('is deterministic and leans with the move: the main force buys more on up days', () => {
    const inst = market.byCode('sh600519')!
    const bars = barsOf('sh600519', '2024-01-01')
    expect(dayFlow(inst, bars[5])).toEqual(dayFlow(inst, bars[5]))
    const mainNet = (b: RawBar) => {
      const f = dayFlow(inst, b)
      return f.super.inflow - f.super.outflow + f.large.inflow - f.large.outflow
    }
    const up = bars.filter((b) => b.close > b.preClose * 1.02)
    const down = bars.filter((b) => b.close < b.preClose * 0.98)
    expect(up.filter((b) => mainNet(b) > 0).length / up.length).toBeGreaterThan(0.7)
    expect(down.filter((b) => mainNet(b) < 0).length / down.length).toBeGreaterThan(0.7)
  })
})

describe('block trades', () => {
  it('lie inside the day\'s limit band, on round lots, at least 2 million CNY', () => {
    let seen = 0
    for (const inst of stocks) {
      for (const bar of market.dailyBars(inst, '2026-01-01', '2026-11-20', NOW)) {
        const trades = blockTrades(inst, bar)
        if (bar.volume > 0) expect(trades.length > 0).toBe(hasBlockTrades(inst, bar.date))
        const [down, up] = limitPrices(bar.preClose, limitOn(inst, dayNumber(bar.date))!, inst.decimals)
        for (const t of trades) {
          seen++
          expect(t.price).toBeGreaterThanOrEqual(down)
          expect(t.price).toBeLessThanOrEqual(up)
          expect(t.volume % 100).toBe(0)
          expect(t.amount).toBeGreaterThanOrEqual(MIN_BLOCK_AMOUNT - 1)
          expect(t.amount).toBeCloseTo(t.price * t.volume, 1)
          if (t.buyer !== '机构专用') expect(t.buyer).not.toBe(t.seller)
        }
      }
    }
    expect(seen).toBeGreaterThan(20)
  })
})

describe('dragon-tiger board', () => {
  it('lists a stock only on a day that meets a reason, with seats inside the day\'s turnover', () => {
    let listed = 0
    for (const inst of stocks) {
      for (const bar of market.dailyBars(inst, '2025-01-01', '2026-11-20', NOW)) {
        const ls = listings(inst, bar)
        const pct = ((bar.close - bar.preClose) / bar.preClose) * 100
        const due = Math.abs(pct) >= LISTING_MOVE_PCT - 1e-9 || (bar.turnover ?? 0) >= 20
        expect(ls.length > 0).toBe(due && bar.volume > 0)
        for (const l of ls) {
          listed++
          const traded = [...l.buyers, ...l.sellers].reduce((s, x) => s + x.buy + x.sell, 0)
          expect(traded).toBeLessThan(bar.amount)
          expect(l.buyers.map((s) => s.buy)).toEqual([...l.buyers.map((s) => s.buy)].sort((a, b) => b - a))
        }
      }
    }
    expect(listed).toBeGreaterThan(5)
  })

  it('names the reasons a bar meets', () => {
    const bar = (close: number, turnover = 1): RawBar => ({ date: '2026-11-20', open: 10, high: 11, low: 9, close, preClose: 10, volume: 1, amount: 1, turnover })
    expect(listingReasons(bar(11))).toEqual(['日涨幅偏离值达到7%的前5只证券'])
    expect(listingReasons(bar(9.3))).toEqual(['日跌幅偏离值达到7%的前5只证券'])
    expect(listingReasons(bar(10.69))).toEqual([])
    expect(listingReasons(bar(10.2, 25))).toEqual(['日换手率达到20%的前5只证券'])
  })
})

describe('margin trading', () => {
  it('carries each balance to the next day through that day\'s flows', () => {
    const inst = market.byCode('sh600519')!
    const bars = barsOf('sh600519', '2026-06-01')
    const days = bars.slice(1).map((b, i) => marginDay(inst, b, bars[i].date, bars[i].close)!)
    for (let i = 1; i < days.length; i++) {
      const [a, b] = [days[i - 1], days[i]]
      expect(b.financingBalance).toBeCloseTo(a.financingBalance + b.financingBuy - b.financingRepay, 1)
      expect(b.lentShares).toBe(a.lentShares + b.lentSold - b.lentRepaid)
      expect(b.financingRepay).toBeGreaterThanOrEqual(0)
      expect(b.lentRepaid).toBeGreaterThanOrEqual(0)
    }
  })
})

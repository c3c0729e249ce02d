import { describe, expect, it } from 'vitest'
import { epsTtm } from './fundamentals'
import { createMarket } from './model'
import { sampleInstruments } from './testing'
import { outerInner, riseSpeed, volumeRatio } from './trade-stats'
import { valuationAt } from './valuation'

const market = createMarket()
const SESSION = Date.parse('2026-11-20T10:30:00+08:00')
const BEFORE_OPEN = Date.parse('2026-11-20T09:05:00+08:00')
const stocks = sampleInstruments(40, 0x5eed, 0).filter((i) => i.kind === 'stock')

describe('trade stats', () => {
  it('splits the day\'s lots into outer and inner volume', () => {
    for (const s of stocks) {
      const q = market.live(s, SESSION)
      const { outer, inner } = outerInner(q)
      expect(outer + inner).toBe(Math.round(q.bar.volume / 100))
      expect(outer).toBeGreaterThanOrEqual(0)
    }
  })

  it('gives volume ratios around 1 and a rise speed from the minute bars', () => {
    const ratios = stocks.map((s) => volumeRatio(market, market.live(s, SESSION), SESSION)!).sort((a, b) => a - b)
    expect(ratios[ratios.length >> 1]).toBeGreaterThan(0.4)
    expect(ratios[ratios.length >> 1]).toBeLessThan(2.5)
    const s = stocks[0]
    const q = market.live(s, SESSION)
    const bars = market.minuteBars(s, 1, q.date, q.date, SESSION)
    const base = bars[bars.length - 6].close
    expect(riseSpeed(market, q, SESSION)).toBeCloseTo(((q.bar.close - base) / base) * 100, 8)
  })

  it('has no ratio and no speed before the day\'s first trade', () => {
    const q = market.live(stocks[0], BEFORE_OPEN, 'tencent')
    expect(q.state).toBe('preopen')
    expect(volumeRatio(market, q, BEFORE_OPEN)).toBeNull()
    expect(riseSpeed(market, q, BEFORE_OPEN)).toBe(0)
  })
})

describe('valuationAt', () => {
  it('is price over the fundamentals model\'s per-share figures; null for kinds without statements', () => {
    const s = stocks[1]
    expect(valuationAt(market, s, 12.34, SESSION).peTtm).toBeCloseTo(12.34 / epsTtm(market, s, '2026-11-20', SESSION)!, 10)
    expect(valuationAt(market, market.byCode('sh510300')!, 4, SESSION)).toEqual({ peTtm: null, peDynamic: null, peStatic: null, pb: null })
  })
})

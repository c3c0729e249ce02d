import { describe, expect, it } from 'vitest'
import { isTradingDay } from '../../domain/trading-calendar'
import { clearHistoryCaches } from './history'
import { market } from './index'

/** Epoch ms of a Beijing wall time. */
const bj = (date: string, hh: number, mm: number) => Date.parse(`${date}T00:00:00Z`) + ((hh - 8) * 60 + mm) * 60_000
const NOW = bj('2026-11-20', 16, 0)
const get = (code: string) => market.byCode(code)!

describe('market model: daily bars', () => {
  it('serves a whole history on trading days only, ascending', () => {
    const bars = market.dailyBars(get('sh600519'), '2010-01-01', '2026-12-31', NOW)
    expect(bars[0].date).toBe('2016-08-08')
    expect(bars.at(-1)!.date).toBe('2026-11-20')
    expect(bars.length).toBeGreaterThan(2400)
    for (let i = 0; i < bars.length; i++) {
      expect(isTradingDay(bars[i].date)).toBe(true)
      if (i) expect(bars[i].date > bars[i - 1].date).toBe(true)
    }
    expect(market.dailyBars(get('sh600519'), '2026-01-10', '2026-01-01', NOW)).toEqual([])
    expect(market.dailyBars(get('sh600519'), '2015-01-01', '2016-08-05', NOW)).toEqual([])
  })

  it('starts at the listing date and stops at a contract last day', () => {
    const catl = market.dailyBars(get('sz300750'), '2018-01-01', '2018-12-31', NOW)
    expect(catl[0].date).toBe('2018-06-11')
    const rb = market.dailyBars(get('fuRB2501'), '2020-01-01', '2026-01-01', NOW)
    expect(rb[0].date).toBe('2024-01-02')
    expect(rb.at(-1)!.date).toBe('2025-01-15')
    for (const b of rb) expect(b.turnover).toBeNull()
  })

  it('returns only closed bars, plus today’s partial bar while the session is open', () => {
    const inst = get('sz000001')
    const before = market.dailyBars(inst, '2025-03-01', '2025-03-31', bj('2025-03-12', 9, 0))
    expect(before.at(-1)!.date).toBe('2025-03-11')
    const during = market.dailyBars(inst, '2025-03-01', '2025-03-31', bj('2025-03-12', 10, 30))
    expect(during.at(-1)!.date).toBe('2025-03-12')
    const live = market.live(inst, bj('2025-03-12', 10, 30))
    expect(during.at(-1)).toEqual(live.bar)
    const after = market.dailyBars(inst, '2025-03-01', '2025-03-31', bj('2025-03-12', 15, 0))
    expect(after.at(-1)!.volume).toBeGreaterThan(during.at(-1)!.volume)
    expect(after.at(-1)).toEqual(market.dailyBars(inst, '2025-03-12', '2025-03-12', NOW)[0])
  })

  it('keeps HK and US on their own calendars and dates', () => {
    const hk = market.dailyBars(get('hk00700'), '2025-09-29', '2025-12-31', NOW).map((b) => b.date)
    expect(hk).toContain('2025-10-02')
    expect(hk).not.toContain('2025-12-25')
    expect(hk).not.toContain('2025-12-26')
    const us = market.dailyBars(get('usAAPL'), '2025-11-20', '2025-12-31', NOW).map((b) => b.date)
    expect(us).not.toContain('2025-11-27')
    expect(us).not.toContain('2025-12-25')
    // 2025-03-12 23:00 Beijing = 11:00 New York: the US day is open, so its bar is partial.
    const partial = market.dailyBars(get('usAAPL'), '2025-03-12', '2025-03-12', bj('2025-03-12', 23, 0))
    expect(partial).toHaveLength(1)
    const full = market.dailyBars(get('usAAPL'), '2025-03-12', '2025-03-12', NOW)[0]
    expect(partial[0].volume).toBeLessThan(full.volume)
  })

  it('serves one date across every stock', () => {
    const stocks = market.instruments().filter((i) => i.kind === 'stock')
    let n = 0
    for (const s of stocks) n += market.dailyBars(s, '2026-11-19', '2026-11-19', NOW).length
    expect(n).toBeGreaterThan(5300)
    expect(n).toBeLessThan(5572)
  })

  it('is deterministic regardless of cache state', () => {
    const inst = get('sz002594')
    const a = market.dailyBars(inst, '2019-01-01', '2019-12-31', NOW)
    const actions = market.actions(inst)
    clearHistoryCaches()
    expect(market.dailyBars(inst, '2019-06-01', '2019-12-31', NOW)).toEqual(a.filter((b) => b.date >= '2019-06-01'))
    expect(market.actions(inst)).toEqual(actions)
  })
})

describe('market model: minute bars', () => {
  it('opens the window on the first day of the previous month for A-share kinds', () => {
    expect(market.minuteWindowStart(get('sh600519'), bj('2025-03-12', 10, 0))).toBe('2025-02-01')
    expect(market.minuteWindowStart(get('sh000001'), bj('2025-01-06', 10, 0))).toBe('2024-12-01')
    expect(market.minuteWindowStart(get('fuRB2601'), bj('2025-03-12', 10, 0))).toBe('2025-02-01')
  })

  it('opens the window five sessions back for HK and US', () => {
    expect(market.minuteWindowStart(get('hk00700'), bj('2025-03-12', 10, 0))).toBe('2025-03-06')
    // Saturday in Beijing is still Friday 2025-03-14 in New York.
    expect(market.minuteWindowStart(get('usAAPL'), bj('2025-03-15', 8, 0))).toBe('2025-03-10')
  })

  it('returns only bars inside the window and ended by now', () => {
    const inst = get('sz000001')
    const now = bj('2025-03-12', 10, 7)
    expect(market.minuteBars(inst, 1, '2025-01-01', '2025-01-31', now)).toEqual([])
    const bars = market.minuteBars(inst, 5, '2025-01-01', '2025-03-12', now)
    expect(bars[0].date).toBe('2025-02-05 09:35')
    expect(bars.at(-1)!.date).toBe('2025-03-12 10:05')
    const ones = market.minuteBars(inst, 1, '2025-03-12', '2025-03-12', now)
    expect(ones).toHaveLength(37)
    expect(ones.at(-1)!.date).toBe('2025-03-12 10:07')
    expect(market.minuteBars(inst, 7, '2025-03-12', '2025-03-12', now)).toEqual([])
    const us = market.minuteBars(get('usAAPL'), 60, '2025-03-01', '2025-03-31', bj('2025-03-15', 8, 0))
    expect(us[0].date).toBe('2025-03-10 10:30')
    expect(us.at(-1)!.date).toBe('2025-03-14 16:00')
  })
})

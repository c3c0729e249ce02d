import { describe, expect, it } from 'vitest'
import { isTradingDay } from '../../domain/trading-calendar'
import { market } from './index'
import { universe } from './universe'

/** Epoch ms of a Beijing wall time. */
const bj = (date: string, hh: number, mm: number) => Date.parse(`${date}T00:00:00Z`) + ((hh - 8) * 60 + mm) * 60_000
const NOW = bj('2026-11-20', 16, 0)
const get = (code: string) => market.byCode(code)!
const contracts = (product: string) => universe().list.filter((i) => i.kind === 'future' && new RegExp(`^fu${product}\\d{4}$`).test(i.code))

describe('futures main continuous contracts', () => {
  it('lists one per product with its Sina name and Eastmoney main secid', () => {
    expect(get('fuRB0')).toMatchObject({ kind: 'future', symbol: 'RB0', name: '螺纹钢连续', secid: '113.rbm' })
    expect(get('fuSR0').secid).toBe('115.SRM')
    expect(get('fuIF0').secid).toBe('8.IFM')
  })

  it('follows the contract with the largest open interest at the previous close, rolling only forward', () => {
    for (const product of ['RB', 'IF', 'SR']) {
      const main = get(`fu${product}0`)
      const all = contracts(product)
      const days = market.dailyBars(main, '2025-01-01', '2026-11-20', NOW).map((b) => b.date)
      let prevDay: string | undefined
      let prevCode = ''
      let rolls = 0
      for (const d of days) {
        const c = market.mainContract(main, d)!
        if (prevDay) {
          const trading = all.filter((x) => x.listDate <= d && (x.lastDate ?? '9999') >= d)
          const best = Math.max(...trading.map((x) => market.openInterest(x, prevDay!)))
          expect(market.openInterest(c, prevDay)).toBe(best)
        }
        if (c.code !== prevCode) {
          if (prevCode) expect(c.code > prevCode).toBe(true)
          rolls++
        }
        prevCode = c.code
        prevDay = d
      }
      // Monthly contracts: roughly one roll a month.
      expect(rolls).toBeGreaterThan(15)
    }
  })

  it('splices the main contracts’ own bars at each roll', () => {
    const main = get('fuRB0')
    const bars = market.dailyBars(main, '2026-01-01', '2026-11-20', NOW)
    expect(bars.length).toBeGreaterThan(200)
    for (const b of bars) {
      expect(isTradingDay(b.date)).toBe(true)
      const c = market.mainContract(main, b.date)!
      expect(market.dailyBars(c, b.date, b.date, NOW)).toEqual([b])
    }
  })

  it('quotes as the main contract of the day, during and after the session', () => {
    const main = get('fuRB0')
    for (const now of [bj('2026-11-20', 10, 17), NOW, bj('2026-11-22', 12, 0)]) {
      const q = market.live(main, now)
      const today = new Date(now + 8 * 3_600_000).toISOString().slice(0, 10)
      const c = market.mainContract(main, today)!
      expect(c.code).toMatch(/^fuRB\d{4}$/)
      expect(q.instrument.code).toBe('fuRB0')
      expect({ ...q, instrument: null }).toEqual({ ...market.live(c, now), instrument: null })
    }
  })

  it('quotes nothing traded before the product’s first contract lists: unlisted, no volume', () => {
    const q = market.live(get('fuRB0'), bj('2022-06-01', 10, 0))
    expect(q).toMatchObject({ state: 'unlisted', instrument: { code: 'fuRB0' } })
    expect(q.bar.volume).toBe(0)
    expect(market.dailyBars(get('fuRB0'), '2022-01-01', '2022-12-31', NOW)).toEqual([])
  })

  it('has open interest only for futures inside a contract’s life', () => {
    expect(market.openInterest(get('sh600519'), '2026-11-20')).toBe(0)
    expect(market.openInterest(get('fuRB2501'), '2025-06-02')).toBe(0)
    expect(market.openInterest(get('fuRB2501'), '2024-10-15')).toBeGreaterThan(0)
    expect(market.openInterest(get('fuRB0'), '2026-11-20')).toBe(market.openInterest(market.mainContract(get('fuRB0'), '2026-11-20')!, '2026-11-20'))
  })
})

import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { actionsOf, hfqFactor, qfqFactor } from './actions'
import { barBefore, computedActions, findBar } from './history'
import { roundTo } from './limits'
import { universe } from './universe'
import type { EmuInstrument } from './types'

const { list, byCode } = universe()
const stocks = list.filter((i) => i.kind === 'stock')
// A spread of stocks, including ones with bonus issues.
const sample: EmuInstrument[] = [byCode.get('sh600519')!, byCode.get('sz300750')!, ...stocks.filter((_, i) => i % 97 === 0)]

describe('corporate actions', () => {
  it('lists actions ascending with cash and bonus; none for other kinds', () => {
    const moutai = actionsOf(byCode.get('sh600519')!)
    expect(moutai.length).toBeGreaterThanOrEqual(10)
    for (const a of moutai) expect(a.cash).toBeGreaterThan(0)
    for (const s of sample) {
      const acts = actionsOf(s)
      for (let i = 1; i < acts.length; i++) expect(acts[i].exDate > acts[i - 1].exDate).toBe(true)
    }
    expect(actionsOf(byCode.get('sh510300')!)).toEqual([])
    expect(qfqFactor(byCode.get('hk00700')!, '2020-01-02')).toBe(1)
  })

  it('sizes cash at 1–3% of the price and drops the raw price by the reference rule', () => {
    let n = 0
    for (const s of sample) {
      for (const a of computedActions(s)) {
        const before = barBefore(s, a.exDay)!
        const at = findBar(s, a.exDay)!
        expect(at, `${s.code} ${a.exDate}`).not.toBeNull()
        const P = before.block.close[before.i]
        expect(a.k).toBeCloseTo((P - a.cash) / (1 + a.bonus) / P, 12)
        // The identity raw(E−1) × k ≈ preClose(E).
        expect(at.block.pre[at.i]).toBe(roundTo(P * a.k, s.decimals))
        if (a.cash > 0) {
          expect(a.cash / P).toBeGreaterThan(0.005)
          expect(a.cash / P).toBeLessThan(0.035)
        }
        n++
      }
    }
    expect(n).toBeGreaterThan(200)
  })

  it('makes qfq prices continuous across ex-dates', () => {
    for (const s of sample) {
      for (const a of computedActions(s)) {
        const before = barBefore(s, a.exDay)!
        const at = findBar(s, a.exDay)!
        const dBefore = before.block.day[before.i]
        const qClose = before.block.close[before.i] * qfqFactor(s, new Date(dBefore * 864e5).toISOString().slice(0, 10))
        const qPre = at.block.pre[at.i] * qfqFactor(s, a.exDate)
        // Only the reference price's rounding separates them.
        expect(Math.abs(qClose / qPre - 1)).toBeLessThan(0.006 / at.block.pre[at.i] + 1e-9)
      }
    }
  })

  it('defines qfq and hfq factors as products over ex-dates', () => {
    const catl = byCode.get('sz300750')!
    const acts = computedActions(catl)
    const all = acts.reduce((f, a) => f * a.k, 1)
    expect(qfqFactor(catl, '2017-01-03')).toBeCloseTo(all, 12)
    expect(hfqFactor(catl, '2017-01-03')).toBe(1)
    expect(qfqFactor(catl, '2026-11-20')).toBe(1)
    expect(hfqFactor(catl, '2026-11-20')).toBeCloseTo(1 / all, 12)
    for (const d of ['2019-01-02', '2022-07-01', '2023-12-29']) {
      expect(qfqFactor(catl, d) / hfqFactor(catl, d)).toBeCloseTo(all, 12)
    }
    const first = acts[0]
    expect(hfqFactor(catl, first.exDate)).toBeCloseTo(1 / first.k, 12)
    expect(qfqFactor(catl, first.exDate)).toBeCloseTo(all / first.k, 12)
  })

  it('hides actions after the clock when given one', () => {
    const moutai = byCode.get('sh600519')!
    const now = Date.UTC(2024, 0, 2, 2)
    const visible = actionsOf(moutai, now)
    expect(visible.every((a) => a.exDate <= '2024-01-02')).toBe(true)
    expect(visible.length).toBeLessThan(actionsOf(moutai).length)
    expect(qfqFactor(moutai, '2024-01-02', now)).toBe(1)
    expect(qfqFactor(moutai, '2023-01-03', now)).toBeLessThan(1)
    expect(dayNumber(visible.at(-1)!.exDate)).toBeLessThan(dayNumber('2024-01-02'))
  })
})

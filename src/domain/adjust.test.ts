import { describe, expect, it } from 'vitest'
import { computedActions } from '../emulator/market/history'
import { market, roundTo } from '../emulator/market/index'
import type { EmuInstrument } from '../emulator/market/types'
import { lazyFullRows } from '../features/technical/kline-full-rows'
import { appendBars, dateNum, emptyHistory, mergeActions } from '../store/history'
import type { History } from '../store/shapes'
import { adjustEvents, factorOn, factors, roundPrice, type Fq } from './adjust'

const NOW = Date.parse('2026-11-20T16:00:00+08:00')

/** The adjusted rows of a history, oldest first. */
const fullRows = (h: History, fq: Fq) => [...lazyFullRows(h, fq).rows]

/** The stored history the jobs would build for `inst` at NOW, straight from the model. */
function historyOf(inst: EmuInstrument): History {
  const h = emptyHistory(inst.code)
  appendBars(h, market.dailyBars(inst, '2016-08-08', '2026-11-20', NOW))
  mergeActions(h, market.actions(inst, NOW))
  return h
}

/** Stocks with at least `n` actions, bonus shares among them, and a listing after 2016 among them. */
function withSeveralEvents(n: number, want: number): EmuInstrument[] {
  const out: EmuInstrument[] = []
  let lateListing = false
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock') continue
    const acts = market.actions(inst, NOW)
    if (acts.length < n || !acts.some((a) => a.bonus > 0) || !acts.some((a) => a.cash > 0)) continue
    const late = inst.listDate > '2016-08-08'
    if (out.length >= want - 1 && !late && !lateListing) continue
    lateListing ||= late
    out.push(inst)
    if (out.length >= want && lateListing) break
  }
  return out
}

describe('adjustment against the emulator’s corporate actions', () => {
  const sample = [...withSeveralEvents(4, 6), market.byCode('sz300750')!, market.byCode('sh600519')!]

  it('finds stocks with several events including bonus shares', () => {
    expect(sample.length).toBeGreaterThanOrEqual(7)
    expect(sample.filter((i) => market.actions(i, NOW).some((a) => a.bonus >= 0.3)).length).toBeGreaterThan(3)
  })

  it('derives each event’s k from the close before the ex-date, equal to the model’s', () => {
    for (const inst of sample) {
      const events = adjustEvents(historyOf(inst))
      const model = computedActions(inst).filter((a) => a.exDate <= '2026-11-20')
      expect(events.map((e) => e.exDate), inst.code).toEqual(model.map((a) => a.exDate))
      events.forEach((e, i) => expect(e.k, `${inst.code} ${e.exDate}`).toBe(model[i].k))
    }
  })

  it('qfq, hfq and nofq prices equal raw × the model’s factors, rounded to 2 decimals, on every bar', () => {
    for (const inst of sample) {
      const h = historyOf(inst)
      const raw = market.dailyBars(inst, '2016-08-08', '2026-11-20', NOW)
      const rows = { qfq: fullRows(h, 'qfq'), hfq: fullRows(h, 'hfq'), nofq: fullRows(h, 'nofq') }
      expect(rows.qfq).toHaveLength(raw.length)
      raw.forEach((b, i) => {
        const q = market.qfqFactor(inst, b.date, NOW)
        const f = market.hfqFactor(inst, b.date, NOW)
        const at = `${inst.code} ${b.date}`
        for (const k of ['open', 'high', 'low', 'close'] as const) {
          expect(rows.qfq[i][k], at).toBe(roundTo(b[k] * q, 2).toFixed(2))
          expect(rows.hfq[i][k], at).toBe(roundTo(b[k] * f, 2).toFixed(2))
          expect(rows.nofq[i][k], at).toBe(b[k].toFixed(2))
        }
        expect(rows.qfq[i].volume).toBe(String(b.volume))
        expect(rows.hfq[i].amount).toBe(b.amount.toFixed(2))
      })
    }
  })

  it('leaves the latest bar real under qfq and the first bar real under hfq', () => {
    const inst = sample[0]
    const h = historyOf(inst)
    const q = fullRows(h, 'qfq')
    const f = fullRows(h, 'hfq')
    expect(q.at(-1)!.close).toBe(h.c.at(-1)!.toFixed(2))
    expect(f[0].close).toBe(h.c[0].toFixed(2))
    expect(Number(q[0].close)).toBeLessThan(h.c[0])
  })

  it('ignores actions it cannot price: before the first bar, or not yet ex', () => {
    const h = emptyHistory('sh600000')
    appendBars(h, [
      { date: '2020-01-02', open: 10, high: 10, low: 10, close: 10, volume: 1, amount: 10 },
      { date: '2020-01-03', open: 9, high: 9, low: 9, close: 9, volume: 1, amount: 9 },
    ])
    mergeActions(h, [
      { exDate: '2019-06-01', cash: 1, bonus: 0 },
      { exDate: '2020-01-03', cash: 1, bonus: 0 },
      { exDate: '2021-06-01', cash: 1, bonus: 1 },
    ])
    const ev = adjustEvents(h)
    expect(ev.map((e) => e.exDate)).toEqual(['2020-01-03'])
    expect(ev[0].k).toBe(0.9)
    expect([...factors(h, 'qfq')]).toEqual([0.9, 1])
    expect([...factors(h, 'hfq')]).toEqual([1, 1 / 0.9])
    expect([...factors(h, 'nofq')]).toEqual([1, 1])
    expect(factorOn(ev, 'qfq', dateNum('2019-12-31'))).toBe(0.9)
  })

  it('computes factors for a slice the same as for the whole', () => {
    const h = historyOf(sample[1])
    const all = factors(h, 'qfq')
    expect([...factors(h, 'qfq', 500, 900)]).toEqual([...all.slice(500, 900)])
  })

  it('rounds half up, absorbing binary noise', () => {
    expect(roundPrice(1.005)).toBe(1.01)
    expect(roundPrice(12.344999)).toBe(12.34)
    expect(roundPrice(2.675)).toBe(2.68)
  })
})

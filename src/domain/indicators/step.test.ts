import { describe, expect, it } from 'vitest'
import type { NumericColumn } from './columns'
import { technicalRow, technicalSeries } from './row'
import { decodeState, encodeState, nextRow, nextState, nextValues, stateThrough, type StepBar } from './step'
import { toColumns } from './bars'

/** A seeded random walk of daily bars with flat days, gaps, limit-like jumps and a few flat ranges. */
function walk(n: number, seed: number, start = 20): StepBar[] {
  let x = seed
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648)
  const round = (v: number) => Math.round(v * 100) / 100
  const bars: StepBar[] = []
  let c = start
  for (let i = 0; i < n; i++) {
    const r = rnd()
    const open = round(c * (1 + (rnd() - 0.5) * 0.02))
    c = r < 0.08 ? c : round(Math.max(0.5, c * (1 + (rnd() - 0.5) * 0.12)))
    const flat = r > 0.97
    const high = flat ? c : round(Math.max(open, c) * (1 + rnd() * 0.03))
    const low = flat ? c : round(Math.min(open, c) * (1 - rnd() * 0.03))
    bars.push({ date: new Date(Date.UTC(2016, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), open: flat ? c : open, high, low, close: c, volume: Math.round(rnd() * 1e7) })
  }
  return bars
}

const id = { code: 'sh600000', name: 'Test', priceDecimals: 2 }

describe('stepping the indicators one bar at a time', () => {
  it('gives every column of every bar bit for bit as the whole-history series, for many histories', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const bars = walk(seed === 1 ? 5 : 40 + seed * 67, seed)
      const series = technicalSeries(toColumns(bars))
      let i = 0
      let compared = 0
      stateThrough(bars, (values) => {
        for (const [name, col] of Object.entries(series)) {
          const v = values[name as NumericColumn]
          // toBe is Object.is: NaN matches NaN, and any difference at all fails
          expect(v, `seed ${seed} bar ${i} ${name}`).toBe(col[i])
          compared++
        }
        i++
      })
      expect(compared).toBe(bars.length * 52)
    }
  })

  it('gives the whole-history values bit for bit on odd histories: undefined inputs, flat ranges, zero volume', () => {
    const base = walk(400, 5)
    const odd: StepBar[][] = [
      // undefined inputs at the start of the history (a listing day without an open, a missing volume)
      base.map((b, i) => (i < 3 ? { ...b, open: Number.NaN, high: i === 0 ? Number.NaN : b.high, volume: Number.NaN } : b)),
      // undefined values in the middle: every window holding one is undefined until it drops out
      base.map((b, i) => (i === 150 ? { ...b, close: Number.NaN } : i === 200 ? { ...b, high: Number.NaN, low: Number.NaN } : b)),
      // a suspension-like flat range (same price, no volume) longer than every short window
      base.map((b, i) => (i >= 100 && i < 140 ? { ...b, open: 10, high: 10, low: 10, close: 10, volume: 0 } : b)),
      // a whole history without volume, and one flat from its first bar
      base.map((b) => ({ ...b, volume: 0 })),
      base.slice(0, 60).map((b) => ({ ...b, open: 5, high: 5, low: 5, close: 5 })),
    ]
    odd.forEach((bars, n) => {
      const series = technicalSeries(toColumns(bars))
      let i = 0
      stateThrough(bars, (values) => {
        for (const [name, col] of Object.entries(series)) expect(values[name as NumericColumn], `history ${n} bar ${i} ${name}`).toBe(col[i])
        i++
      })
    })
  })

  it('rounds price levels to the instrument decimals and the rest to 4, in column order', () => {
    const bars = walk(300, 9).map((b) => ({ ...b, close: b.close + 0.0037 }))
    for (const priceDecimals of [1, 3]) {
      const who = { ...id, priceDecimals }
      const row = nextRow(stateThrough(bars.slice(0, 299)), bars[299], who)
      const whole = technicalRow(toColumns(bars), who)!
      expect(row).toEqual(whole)
      expect(Object.keys(row)).toEqual(Object.keys(whole))
    }
  })

  it('steps a stored state (through JSON) with the next bar to the row the whole history gives, without changing the state', () => {
    const bars = walk(900, 7)
    for (const cut of [1, 30, 251, 499, 899]) {
      const stored = encodeState(stateThrough(bars.slice(0, cut)))
      const state = decodeState(JSON.parse(stored))!
      const row = nextRow(state, bars[cut], id)
      expect(row, `cut ${cut}`).toEqual(technicalRow(toColumns(bars.slice(0, cut + 1)), id))
      expect(encodeState(state)).toBe(stored) // nextRow leaves the state as it was
      // and nextState then carries on exactly
      const after = nextState(state, bars[cut])
      if (cut + 1 < bars.length) expect(nextValues(after, bars[cut + 1]).mfi_MFI).toBe(technicalSeries(toColumns(bars.slice(0, cut + 2))).mfi_MFI[cut + 1])
    }
  })

  it('keeps a bounded state: the last 250 closes, 27 other bars, whatever the history length', () => {
    const s = stateThrough(walk(2000, 3))
    expect(s).toMatchObject({ i: 2000, date: walk(2000, 3)[1999].date })
    expect(s.c).toHaveLength(250)
    expect([s.o.length, s.h.length, s.l.length, s.vol.length]).toEqual([27, 27, 27, 27])
    expect(encodeState(s).length).toBeLessThan(6000)
  })

  it('refuses what is not a state of this version', () => {
    expect(decodeState(null)).toBeUndefined()
    expect(decodeState({ v: 2 })).toBeUndefined()
    expect(decodeState({ ...JSON.parse(encodeState(stateThrough(walk(3, 1)))), sums: [1] })).toBeUndefined()
  })
})

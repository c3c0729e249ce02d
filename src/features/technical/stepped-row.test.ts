import { describe, expect, it } from 'vitest'
import type { Bar, Quote } from '../../domain/bar'
import { toColumns } from '../../domain/indicators/bars'
import { technicalRow } from '../../domain/indicators/row'
import { decodeState, encodeState } from '../../domain/indicators/step'
import type { StepState } from '../../domain/indicators/step-state'
import { parseSymbol } from '../../domain/symbols'
import { stepStateThrough } from '../../domain/stock-days'
import { tradingDaysBetween } from '../../domain/trading-calendar'
import { appendBars, emptyHistory, mergeActions } from '../../store/history'
import type { History } from '../../store/shapes'
import { joinHistory } from './bars'
import { storedQfq } from '../../store/stored-qfq'
import { recentAgrees, stateSessionFor, steppedRow } from './stepped-row'

const inst = parseSymbol('sh600000')
const TODAY = '2026-11-20'
const days = tradingDaysBetween('2024-06-03', '2026-11-19')

/** A stored history through the session before TODAY: a seeded walk of raw bars, with a dividend and a bonus issue inside it. */
function history(seed = 3): History {
  let x = seed
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648
  const round = (v: number) => Math.round(v * 100) / 100
  let c = 20
  const h = emptyHistory(inst.code)
  appendBars(h, days.map((date) => {
    const open = round(c * (1 + (rnd() - 0.5) * 0.02))
    c = round(Math.max(1, c * (1 + (rnd() - 0.5) * 0.08)))
    return { date, open, high: round(Math.max(open, c) * 1.01), low: round(Math.min(open, c) * 0.99), close: c, volume: Math.round(rnd() * 1e7), amount: null }
  }))
  mergeActions(h, [{ exDate: days[200], cash: 0.5, bonus: 0 }, { exDate: days[400], cash: 0.2, bonus: 0.3 }])
  return h
}

/** The state after the history's last bar, through its stored JSON. */
const stateOf = (h: History): StepState => decodeState(JSON.parse(encodeState(stepStateThrough(h, h.t.length - 1))))!

/** What the quote series gives TODAY: the channel's last 9 past bars (qfq, as the store adjusts them) and the quote's live bar. */
function series(h: History, live = { open: 21, high: 21.8, low: 20.6, close: 21.5, volume: 4_000_000 }) {
  const past: Bar[] = storedQfq(h, h.t.length).slice(-9)
  const bars: Bar[] = [...past, { date: TODAY, ...live, amount: null, turnover: null }]
  const quote: Quote = {
    code: inst.code, name: 'Test', date: TODAY, time: '10:30:00', last: live.close, open: live.open, high: live.high, low: live.low,
    preClose: past.at(-1)!.close, volume: live.volume, amount: null, turnover: null, halted: false, traded: true,
  }
  return { bars, quote }
}

/** The whole-history computation /v1/technical makes without a state: the stored history joined to the series, then technicalRow. */
function whole(h: History, s: ReturnType<typeof series>) {
  const bars = joinHistory(h, s.bars)!
  return { row: technicalRow(toColumns(bars), { code: inst.code, name: s.quote.name, priceDecimals: 2 }), bars: bars.length }
}

describe('steppedRow', () => {
  it('gives the whole-history row byte for byte, and its bar count', () => {
    for (const seed of [1, 2, 3, 4]) {
      const h = history(seed)
      const s = series(h)
      const stepped = steppedRow(inst, s, stateOf(h))!
      const expected = whole(h, s)
      expect(JSON.stringify(stepped.row), `seed ${seed}`).toBe(JSON.stringify(expected.row))
      expect(stepped.bars).toBe(expected.bars)
      expect(stepped.bars).toBe(days.length + 1)
    }
  })

  it('steps the state of the session before the quote\'s, whatever the clock\'s day (a weekend, the night after)', () => {
    expect(stateSessionFor('2026-11-20')).toBe('2026-11-19')
    expect(stateSessionFor('2026-11-23')).toBe('2026-11-20') // a Monday: the Friday before
    expect(stateSessionFor('2026-10-08')).toBe('2026-09-30') // after the National Day holiday
  })

  it('leaves the row to the whole history when stepping would not give it', () => {
    const h = history()
    const state = stateOf(h)
    const s = series(h)
    expect(steppedRow(inst, s, state)).toBeDefined()
    // no state, or one of another session
    expect(steppedRow(inst, s, undefined)).toBeUndefined()
    expect(steppedRow(inst, s, { ...state, date: days.at(-2)! })).toBeUndefined()
    // a line without a trade in its session (suspended, before the open)
    expect(steppedRow(inst, { ...s, quote: { ...s.quote, traded: false } }, state)).toBeUndefined()
    // an ex-date: the quote's previous close is not the stored one
    expect(steppedRow(inst, { ...s, quote: { ...s.quote, preClose: s.quote.preClose - 0.3 } }, state)).toBeUndefined()
    // the channel's series does not end with the quote's bar
    expect(steppedRow(inst, { ...s, bars: s.bars.slice(0, -1) }, state)).toBeUndefined()
    // the channel and the store disagree on a recent close (an action the store lacks): joinHistory refuses it too
    const disagreeing = s.bars.map((b, i) => (i === 4 ? { ...b, close: b.close + 0.05 } : b))
    expect(joinHistory(h, disagreeing)).toBeUndefined()
    expect(steppedRow(inst, { ...s, bars: disagreeing }, state)).toBeUndefined()
  })
})

describe('recentAgrees', () => {
  const h = history()
  const state = stateOf(h)
  const bars = series(h).bars
  const off = (k: number, by: number) => bars.map((b, i) => (i === k ? { ...b, close: Math.round((b.close + by) * 100) / 100 } : b))

  it('accepts the channel\'s recent closes when they are the stored ones, within a cent (the upstream rounds its factor)', () => {
    expect(recentAgrees(state, bars)).toBe(true)
    expect(recentAgrees(state, off(3, 0.01))).toBe(true)
  })

  it('refuses what joinHistory refuses: an older close off by more (an action the store lacks), no day in common', () => {
    expect(recentAgrees(state, off(3, 0.02))).toBe(false)
    expect(joinHistory(h, off(3, 0.02))).toBeUndefined()
    expect(recentAgrees(state, bars.slice(-1))).toBe(false)
  })

  it('refuses a channel whose days are not the store\'s: the bar before the live one is not the state\'s last', () => {
    expect(recentAgrees(state, [...bars.slice(0, -2), bars.at(-1)!])).toBe(false)
    expect(recentAgrees({ ...state, c: state.c.slice(-3) }, bars)).toBe(false)
  })
})

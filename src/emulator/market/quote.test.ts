import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices } from './limits'
import { monthBars } from './history'
import { monthIndex } from './calendars'
import { liveQuote } from './quote'
import { pickInt, sampleInstruments } from './testing'
import { universe } from './universe'

const { byCode, list } = universe()
/** Epoch ms of a Beijing wall time. */
const bj = (date: string, hh: number, mm: number, ss = 0) => Date.parse(`${date}T00:00:00Z`) + ((hh - 8) * 60 + mm) * 60_000 + ss * 1000

describe('live quotes', () => {
  const moutai = byCode.get('sh600519')!

  it('is halted with the previous session before the open and on holidays', () => {
    const q = liveQuote(moutai, bj('2025-03-12', 9, 0))
    expect(q).toMatchObject({ halted: true, date: '2025-03-11', time: '15:00:00' })
    expect(q.bar.date).toBe('2025-03-11')
    expect(q.book.bids.every(([p, v]) => p === 0 && v === 0)).toBe(true)
    const holiday = liveQuote(moutai, bj('2025-10-03', 11, 0))
    expect(holiday).toMatchObject({ halted: true, date: '2025-09-30' })
  })

  it('shows the partial bar during the session and the full bar after the close', () => {
    const q = liveQuote(moutai, bj('2025-03-12', 10, 15, 42))
    expect(q).toMatchObject({ halted: false, date: '2025-03-12', time: '10:15:42' })
    expect(q.bar.volume).toBeGreaterThan(0)
    const lunch = liveQuote(moutai, bj('2025-03-12', 12, 0))
    expect(lunch.halted).toBe(false)
    const after = liveQuote(moutai, bj('2025-03-12', 16, 0))
    expect(after).toMatchObject({ halted: false, date: '2025-03-12', time: '15:00:00' })
    expect(after.bar.volume).toBeGreaterThan(lunch.bar.volume)
    expect(after.bar.preClose).toBe(q.bar.preClose)
  })

  it('uses the US session date and Eastern time', () => {
    const aapl = byCode.get('usAAPL')!
    // 2025-03-12 15:00 UTC = 11:00 EDT.
    const q = liveQuote(aapl, Date.UTC(2025, 2, 12, 15))
    expect(q).toMatchObject({ halted: false, date: '2025-03-12', time: '11:00:00' })
    // 2025-03-13 02:00 Beijing is still the 12th in New York, after the close.
    const late = liveQuote(aapl, Date.UTC(2025, 2, 12, 21))
    expect(late).toMatchObject({ halted: false, date: '2025-03-12', time: '16:00:00' })
  })

  it('keeps a plausible book: bids below the last, asks at or above, inside the limits', () => {
    const insts = sampleInstruments(150, 31, 3)
    for (const [k, inst] of insts.entries()) {
      const date = ['2025-03-12', '2025-06-18', '2026-11-20'][k % 3]
      const q = liveQuote(inst, bj(date, pickInt(9, 15, 7, k), pickInt(0, 59, 8, k)))
      const last = q.bar.close
      const { bids, asks } = q.book
      expect(bids).toHaveLength(5)
      expect(asks).toHaveLength(5)
      if (q.halted) continue
      const limit = limitOn(inst, dayNumber(q.date))
      const [dn, up] = limit === null ? [0, Infinity] : limitPrices(q.bar.preClose, limit, inst.decimals)
      for (const [p, v] of bids) if (p) expect(p < last && p >= dn && v >= 0, inst.code).toBe(true)
      for (const [p, v] of asks) if (p) expect(p >= last && p <= up && v >= 0, inst.code).toBe(true)
      const ps = bids.filter(([p]) => p).map(([p]) => p)
      for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeLessThan(ps[i - 1])
    }
  })

  it('empties the ask side at limit-up', () => {
    // Find a limit-up close among main-board stocks.
    let found = false
    for (const s of list.filter((i) => i.board === 'sh-main').slice(0, 400)) {
      const b = monthBars(s, monthIndex('2025-04-01'))!
      for (let i = 0; i < b.n && !found; i++) {
        if (b.close[i] !== limitPrices(b.pre[i], s.limit!, 2)[1]) continue
        const date = new Date(b.day[i] * 864e5).toISOString().slice(0, 10)
        const q = liveQuote(s, bj(date, 15, 30))
        expect(q.bar.close).toBe(b.close[i])
        expect(q.book.asks.every(([p, v]) => p === 0 && v === 0)).toBe(true)
        expect(q.book.bids[0][0]).toBeGreaterThan(0)
        found = true
      }
      if (found) break
    }
    expect(found).toBe(true)
  })

  it('quotes an instrument that has not listed yet at its reference price', () => {
    const late = list.filter((i) => i.kind === 'stock' && i.listDate > '2026-06-01')[0]
    const q = liveQuote(late, bj('2026-01-05', 10, 0))
    expect(q.halted).toBe(true)
    expect(q.bar.volume).toBe(0)
    expect(q.bar.close).toBeGreaterThan(0)
  })
})

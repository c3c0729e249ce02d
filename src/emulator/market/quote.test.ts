import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices } from './limits'
import { monthBars } from './history'
import { monthIndex } from './calendars'
import { findBar, rawBar } from './history'
import { market } from './index'
import { hasTraded, liveQuote } from './quote'
import { pickInt, sampleInstruments } from './testing'
import { universe } from './universe'

const { byCode, list } = universe()
/** The raw bar of `inst` on `date`. */
const rawDay = (inst: (typeof list)[number], date: string) => {
  const f = findBar(inst, dayNumber(date))!
  return rawBar(f.block, f.i)
}
/** Epoch ms of a Beijing wall time. */
const bj = (date: string, hh: number, mm: number, ss = 0) => Date.parse(`${date}T00:00:00Z`) + ((hh - 8) * 60 + mm) * 60_000 + ss * 1000

describe('live quotes', () => {
  const moutai = byCode.get('sh600519')!
  // 2025-03-11 and 2025-03-12 are trading days (a Tuesday and a Wednesday).
  const final = (d: string) => rawDay(moutai, d)

  it('shows the last session\'s final line, with its closing book, from the close until the host\'s morning reset', () => {
    for (const at of [bj('2025-03-11', 15, 10), bj('2025-03-11', 23, 0), bj('2025-03-12', 2, 0), bj('2025-03-12', 8, 59)]) {
      const q = liveQuote(moutai, at, 'tencent')
      expect(q).toMatchObject({ state: 'closed', date: '2025-03-11' })
      expect(q.bar).toEqual(final('2025-03-11'))
      expect(q.book.bids[0][0]).toBeGreaterThan(0)
      expect(q.book.asks[0][0]).toBeGreaterThan(0)
    }
    // Each host stamps its last update of the session (SOURCE.md captures); before that, the clock.
    expect(liveQuote(moutai, bj('2025-03-12', 2, 0), 'tencent').time).toBe('16:14:58')
    expect(liveQuote(moutai, bj('2025-03-12', 2, 0), 'sina').time).toBe('15:00:03')
    expect(liveQuote(moutai, bj('2025-03-12', 2, 0), 'eastmoney').time).toBe('15:34:03')
    expect(liveQuote(moutai, bj('2025-03-11', 15, 10), 'tencent').time).toBe('15:10:00')
  })

  it('shows the last session on holidays and weekends, on every host', () => {
    for (const host of ['tencent', 'sina', 'eastmoney', 'list'] as const) {
      expect(liveQuote(moutai, bj('2025-10-03', 11, 0), host)).toMatchObject({ state: 'closed', date: '2025-09-30' })
      expect(liveQuote(moutai, bj('2025-03-15', 10, 0), host)).toMatchObject({ state: 'closed', date: '2025-03-14' })
    }
  })

  it('re-stamps Tencent and Sina lines at 09:00 without a trade; Eastmoney keeps the last session until the auction, the lists until the match', () => {
    const tx = liveQuote(moutai, bj('2025-03-12', 9, 5, 30), 'tencent')
    expect(tx).toMatchObject({ state: 'preopen', date: '2025-03-12', time: '09:00:00' })
    expect(tx.bar).toMatchObject({ volume: 0, preClose: final('2025-03-11').close })
    expect(tx.book.bids.concat(tx.book.asks).every(([p, v]) => p === 0 && v === 0)).toBe(true)
    expect(liveQuote(moutai, bj('2025-03-12', 9, 5, 30), 'sina')).toMatchObject({ state: 'preopen', time: '09:05:30' })
    expect(liveQuote(moutai, bj('2025-03-12', 9, 5), 'eastmoney')).toMatchObject({ state: 'closed', date: '2025-03-11' })
    expect(liveQuote(moutai, bj('2025-03-12', 9, 20), 'list')).toMatchObject({ state: 'closed', date: '2025-03-11' })
  })

  it('shows the opening auction 09:15–09:25: the price the day opens at, bid1 = ask1 with the matched volume, the rest on level 2 without a price', () => {
    const today = final('2025-03-12')
    for (const host of ['tencent', 'sina', 'eastmoney'] as const) {
      const q = liveQuote(moutai, bj('2025-03-12', 9, 20), host)
      expect(q.state).toBe('auction')
      expect(q.auction!.price).toBe(today.open)
      expect(q.auction!.matched).toBeGreaterThan(0)
      expect(q.book.bids[0]).toEqual([today.open, q.auction!.matched])
      expect(q.book.asks[0]).toEqual([today.open, q.auction!.matched])
      const side = q.auction!.side === 'bid' ? q.book.bids : q.book.asks
      expect(side[1]).toEqual([0, q.auction!.unmatched])
      expect(q.bar).toMatchObject({ volume: 0, preClose: today.preClose })
    }
    // The matched volume builds up towards the opening match.
    const early = liveQuote(moutai, bj('2025-03-12', 9, 15), 'tencent').auction!.matched
    const late = liveQuote(moutai, bj('2025-03-12', 9, 24), 'tencent').auction!.matched
    expect(late).toBeGreaterThanOrEqual(early)
  })

  it('opens at 09:25 with the matched volume at the open, the same bar the daily bars show, within the first minute bar', () => {
    const at = bj('2025-03-12', 9, 27)
    const q = liveQuote(moutai, at, 'tencent')
    const o = final('2025-03-12').open
    expect(q).toMatchObject({ state: 'trading', date: '2025-03-12', time: '09:27:00' })
    expect(q.bar).toMatchObject({ open: o, high: o, low: o, close: o })
    expect(q.bar.volume).toBeGreaterThan(0)
    expect(market.dailyBars(moutai, '2025-03-12', '2025-03-12', at)).toEqual([q.bar])
    const first = market.minuteBars(moutai, 1, '2025-03-12', '2025-03-12', bj('2025-03-12', 9, 31))[0]
    expect(first.volume).toBeGreaterThanOrEqual(q.bar.volume)
    expect(market.dailyBars(moutai, '2025-03-12', '2025-03-12', bj('2025-03-12', 9, 24))).toEqual([])
  })

  it('shows the partial bar during the session, the morning at lunch, the full bar after the close', () => {
    const q = liveQuote(moutai, bj('2025-03-12', 10, 15, 42))
    expect(q).toMatchObject({ state: 'trading', date: '2025-03-12', time: '10:15:42' })
    expect(q.bar.volume).toBeGreaterThan(0)
    const lunch = liveQuote(moutai, bj('2025-03-12', 12, 0), 'sina')
    expect(lunch).toMatchObject({ state: 'trading', time: '11:30:00' })
    expect(lunch.bar).toEqual(liveQuote(moutai, bj('2025-03-12', 11, 30)).bar)
    const after = liveQuote(moutai, bj('2025-03-12', 16, 0), 'tencent')
    expect(after).toMatchObject({ state: 'closed', date: '2025-03-12', time: '16:00:00' })
    expect(after.bar).toEqual(final('2025-03-12'))
    expect(after.bar.volume).toBeGreaterThan(lunch.bar.volume)
  })

  it('shows a suspension at the last close, with no book, on every host', () => {
    const date = '2025-03-12'
    const stock = list.find((i) => i.kind === 'stock' && i.listDate < '2024-01-01' && !findBar(i, dayNumber(date)) && findBar(i, dayNumber('2025-03-11')))!
    expect(stock).toBeDefined()
    for (const host of ['tencent', 'sina', 'eastmoney', 'list'] as const) {
      const q = liveQuote(stock, bj(date, 10, 0), host)
      expect(q).toMatchObject({ state: 'suspended', date })
      expect(q.bar).toMatchObject({ close: rawDay(stock, '2025-03-11').close, volume: 0 })
      expect(q.book.bids.every(([p, v]) => p === 0 && v === 0)).toBe(true)
    }
  })

  it('uses the US session date and Eastern time', () => {
    const aapl = byCode.get('usAAPL')!
    // 2025-03-12 15:00 UTC = 11:00 EDT.
    const q = liveQuote(aapl, Date.UTC(2025, 2, 12, 15))
    expect(q).toMatchObject({ state: 'trading', date: '2025-03-12', time: '11:00:00' })
    // 2025-03-13 02:00 Beijing is still the 12th in New York, after the close.
    const late = liveQuote(aapl, Date.UTC(2025, 2, 12, 21))
    expect(late).toMatchObject({ state: 'closed', date: '2025-03-12', time: '16:00:00' })
    // Before the next open: still the 12th's final line.
    expect(liveQuote(aapl, Date.UTC(2025, 2, 13, 12))).toMatchObject({ state: 'closed', date: '2025-03-12' })
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
      if (!hasTraded(q)) continue
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
    expect(q.state).toBe('unlisted')
    expect(q.bar.volume).toBe(0)
    expect(q.bar.close).toBeGreaterThan(0)
  })
})

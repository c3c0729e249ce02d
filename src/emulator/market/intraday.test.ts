import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { monthIndex } from './calendars'
import { findBar, monthBars } from './history'
import { dayMinuteBars, minuteDay, partialBar } from './intraday'
import { roundTo } from './limits'
import { onTick, pickInt, sampleInstruments } from './testing'
import { sessionFor } from './sessions'
import { profileOf, universe } from './universe'

const { byCode } = universe()

describe('minute bars derived from the daily bar', () => {
  it('open at the open, close at the close, touch high and low, sum volume and amount', () => {
    const insts = sampleInstruments(80, 21, 2)
    let days = 0
    for (const [k, inst] of insts.entries()) {
      const p = profileOf(inst)
      const block = monthBars(inst, pickInt(monthIndex('2025-06-01'), monthIndex('2026-10-01'), 3, k))!
      if (!block.n) continue
      const i = pickInt(0, block.n - 1, 4, k)
      const md = minuteDay(inst, block, i)
      const where = `${inst.code} ${block.day[i]}`
      expect(md.n).toBe(sessionFor(inst.kind).minutes)
      expect(md.open[0], where).toBe(block.open[i])
      expect(md.close[md.n - 1], where).toBe(block.close[i])
      expect(Math.max(...md.high), where).toBe(block.high[i])
      expect(Math.min(...md.low), where).toBe(block.low[i])
      expect(md.volume.reduce((a, b) => a + b, 0), where).toBe(block.volume[i])
      expect(Math.abs(md.amount.reduce((a, b) => a + b, 0) - block.amount[i]), where).toBeLessThan(0.05)
      for (let j = 0; j < md.n; j++) {
        const [o, h, l, c, v, a] = [md.open[j], md.high[j], md.low[j], md.close[j], md.volume[j], md.amount[j]]
        expect(l <= Math.min(o, c) && Math.max(o, c) <= h, `${where} #${j}`).toBe(true)
        for (const x of [o, h, l, c]) expect(onTick(x, inst.decimals)).toBe(true)
        expect(v % p.lot).toBe(0)
        expect(a).toBeGreaterThanOrEqual(0)
        if (v > 0 && p.volumeMode !== 'index') {
          expect(a / v, `${where} #${j}`).toBeGreaterThanOrEqual(l - 0.01)
          expect(a / v, `${where} #${j}`).toBeLessThanOrEqual(h + 0.01)
        }
      }
      days++
    }
    expect(days).toBeGreaterThan(60)
  })

  it('has a U-shaped volume profile', () => {
    const inst = byCode.get('sh600519')!
    const f = findBar(inst, dayNumber('2025-03-12'))!
    const md = minuteDay(inst, f.block, f.i)
    const sum = (a: number, b: number) => md.volume.slice(a, b).reduce((x, y) => x + y, 0)
    expect(sum(0, 10)).toBeGreaterThan(sum(100, 110) * 1.5)
    expect(sum(230, 240)).toBeGreaterThan(sum(100, 110))
  })

  it('aggregates into 5/15/30/60-minute bars within session halves', () => {
    const ends = (code: string, day: string, minutes: number) =>
      dayMinuteBars(byCode.get(code)!, dayNumber(day), minutes, Infinity).map((b) => b.date.slice(11))
    expect(ends('sh600519', '2025-03-12', 60)).toEqual(['10:30', '11:30', '14:00', '15:00'])
    expect(ends('sh600519', '2025-03-12', 30)).toHaveLength(8)
    expect(ends('sh600519', '2025-03-12', 5)).toHaveLength(48)
    expect(ends('sh600519', '2025-03-12', 1)[0]).toBe('09:31')
    expect(ends('hk00700', '2025-03-12', 60)).toEqual(['10:30', '11:30', '12:00', '14:00', '15:00', '16:00'])
    expect(ends('usAAPL', '2025-03-12', 60)).toEqual(['10:30', '11:30', '12:30', '13:30', '14:30', '15:30', '16:00'])
    const inst = byCode.get('sz000001')!
    const f = findBar(inst, dayNumber('2025-03-12'))!
    const hour = dayMinuteBars(inst, dayNumber('2025-03-12'), 60, Infinity)
    expect(hour.reduce((s, b) => s + b.volume, 0)).toBe(f.block.volume[f.i])
    expect(hour[0].open).toBe(f.block.open[f.i])
    expect(hour[3].close).toBe(f.block.close[f.i])
    expect(hour[0].date).toBe('2025-03-12 10:30')
    for (const b of hour) expect(b.turnover).toBeCloseTo((b.volume / inst.floatShares!) * 100, 3)
    expect(dayMinuteBars(byCode.get('sh000001')!, dayNumber('2025-03-12'), 60, Infinity)[0].turnover).toBeNull()
    // Only bars ended by the limit minute.
    expect(dayMinuteBars(inst, dayNumber('2025-03-12'), 30, 10 * 60 + 29).map((b) => b.date.slice(11))).toEqual(['10:00'])
  })

  it('builds the partial daily bar from the minutes ended so far', () => {
    const inst = byCode.get('sz000001')!
    const f = findBar(inst, dayNumber('2025-03-12'))!
    const md = minuteDay(inst, f.block, f.i)
    const at10 = partialBar(inst, f.block, f.i, 600)
    expect(at10.open).toBe(f.block.open[f.i])
    expect(at10.close).toBe(md.close[29])
    expect(at10.volume).toBe(md.volume.slice(0, 30).reduce((a, b) => a + b, 0))
    expect(at10.high).toBe(Math.max(...md.high.slice(0, 30)))
    expect(at10.preClose).toBe(f.block.pre[f.i])
    const atOpen = partialBar(inst, f.block, f.i, 570)
    expect(atOpen).toMatchObject({ open: f.block.open[f.i], close: f.block.open[f.i], volume: 0 })
    const full = partialBar(inst, f.block, f.i, 900)
    expect(full).toMatchObject({ close: f.block.close[f.i], high: f.block.high[f.i], low: f.block.low[f.i], volume: f.block.volume[f.i] })
  })

  it('gives the same partial bar, to the last bit, whichever minutes were asked before (the running aggregate)', () => {
    const inst = byCode.get('sh600519')!
    const f = findBar(inst, dayNumber('2026-11-20'))!
    const md = minuteDay(inst, f.block, f.i)
    /** The partial bar added up from the minutes, with nothing kept between calls. */
    const direct = (minute: number) => {
      const j = md.ends.filter((e) => e <= minute).length
      let [high, low, volume, amount] = [-Infinity, Infinity, 0, 0]
      for (let k = 0; k < j; k++) {
        high = Math.max(high, md.high[k])
        low = Math.min(low, md.low[k])
        volume += md.volume[k]
        amount += md.amount[k]
      }
      return { high, low, volume, amount: roundTo(amount, 2), close: md.close[j - 1] }
    }
    // Forward in steps, back to the morning, the same minute twice, lunch, and the close.
    for (const minute of [571, 600, 601, 640, 600, 600, 690, 700, 780, 781, 899, 900, 575]) {
      expect(partialBar(inst, f.block, f.i, minute), `minute ${minute}`).toMatchObject(direct(minute))
    }
  })
})

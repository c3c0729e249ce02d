import { describe, expect, it } from 'vitest'
import { dayNumber } from '../../domain/dates'
import { isSession, monthDays, monthIndex, monthOfDay } from './calendars'
import { barBefore, monthBars } from './history'
import { limitOn, limitPrices, roundTo } from './limits'
import { onTick, pickInt, sampleInstruments } from './testing'
import { profileOf, universe } from './universe'

const NOW_MONTH = monthIndex('2026-11-01')

describe('daily bars: hard rules over random instruments and months', () => {
  const insts = sampleInstruments(400, 11)

  it('round prices, order OHLC, stay within limits, chain preClose, and size volume sanely', () => {
    // Some 25,000 bars with a dozen rules each: the failures are collected and asserted once, as
    // an expect() per rule and bar would cost more than building the bars.
    const broken: string[] = []
    const rule = (holds: boolean, what: string) => {
      if (!holds && broken.length < 20) broken.push(what)
    }
    let checked = 0
    for (const [k, inst] of insts.entries()) {
      const p = profileOf(inst)
      for (let j = 0; j < 4; j++) {
        const m = pickInt(0, NOW_MONTH + 12, 5, k * 10 + j)
        const b = monthBars(inst, m)!
        for (let i = 0; i < b.n; i++) {
          const d = b.day[i]
          const { open: o, high: h, low: l, close: c, pre } = { open: b.open[i], high: b.high[i], low: b.low[i], close: b.close[i], pre: b.pre[i] }
          const where = `${inst.code} day ${d}`
          for (const x of [o, h, l, c, pre]) rule(onTick(x, inst.decimals), `${where}: ${x} off the tick`)
          rule(l > 0, `${where}: low ${l}`)
          rule(l <= Math.min(o, c) && Math.max(o, c) <= h, `${where}: OHLC ${o} ${h} ${l} ${c} out of order`)
          const limit = limitOn(inst, d)
          if (limit !== null) {
            const [dn, up] = limitPrices(pre, limit, inst.decimals)
            for (const x of [o, h, l, c]) rule(x >= dn && x <= up, `${where}: ${x} outside [${dn}, ${up}]`)
          }
          rule(isSession(p.calendar, d), `${where}: not a session`)
          rule(d >= p.firstDay && d <= p.lastDay, `${where}: outside the listing`)
          if (i > 0) rule(d > b.day[i - 1], `${where}: days out of order`)
          // preClose: the previous bar's close, except on an ex-date.
          const before = i > 0 ? null : barBefore(inst, d)
          const prev = i > 0 ? b.close[i - 1] : before ? before.block.close[before.i] : null
          if (b.action?.exDay === d) {
            rule(pre === roundTo((prev! - b.action.cash) / (1 + b.action.bonus), inst.decimals), `${where}: ex-date preClose ${pre}`)
          } else if (prev !== null) rule(pre === prev, `${where}: preClose ${pre}, previous close ${prev}`)
          const v = b.volume[i]
          const a = b.amount[i]
          if (p.volumeMode === 'none') rule(v === 0 && a === 0, `${where}: volume ${v} amount ${a} where none trade`)
          else {
            rule(v > 0 && v % p.lot === 0, `${where}: volume ${v}, lot ${p.lot}`)
            rule(onTick(a, 2), `${where}: amount ${a} not in fen`)
          }
          if (p.volumeMode === 'float' || p.volumeMode === 'contracts') {
            rule(a / v >= l - 0.01 && a / v <= h + 0.01, `${where}: average price ${a / v} outside [${l}, ${h}]`)
          }
          if (inst.floatShares) rule(Math.abs(b.turnover![i] - (v / inst.floatShares) * 100) < 0.0005, `${where}: turnover ${b.turnover![i]}`)
          else rule(b.turnover === null, `${where}: turnover without float shares`)
          checked++
        }
      }
    }
    expect(broken).toEqual([])
    expect(checked).toBeGreaterThan(20000)
  }, 120_000)

  it('suspends about 1% of stock days and never two in a row', () => {
    const stocks = universe().list.filter((i) => i.kind === 'stock').slice(0, 300)
    let sessions = 0
    let bars = 0
    const twoInARow: string[] = []
    for (const s of stocks) {
      const p = profileOf(s)
      for (let m = monthIndex('2024-01-01'); m < monthIndex('2025-01-01'); m++) {
        const days = monthDays('cn', m).filter((d) => d >= p.firstDay)
        const b = monthBars(s, m)!
        sessions += days.length
        bars += b.n
        const have = new Set(b.day)
        for (let i = 1; i < days.length; i++) if (!have.has(days[i]) && !have.has(days[i - 1])) twoInARow.push(`${s.code} ${days[i - 1]} ${days[i]}`)
      }
    }
    expect(twoInARow).toEqual([])
    const rate = 1 - bars / sessions
    expect(rate).toBeGreaterThan(0.005)
    expect(rate).toBeLessThan(0.02)
  })

  it('turnover is mostly 0.2%–8% and sometimes hits the limit', () => {
    const stocks = universe().list.filter((i) => i.kind === 'stock').slice(2000, 2600)
    let n = 0
    let sensible = 0
    let limitUp = 0
    for (const s of stocks) {
      const b = monthBars(s, monthIndex('2025-03-01'))!
      for (let i = 0; i < b.n; i++) {
        n++
        if (b.turnover![i] >= 0.2 && b.turnover![i] <= 8) sensible++
        if (b.close[i] === limitPrices(b.pre[i], s.limit!, 2)[1]) limitUp++
      }
    }
    expect(sensible / n).toBeGreaterThan(0.9)
    expect(limitUp).toBeGreaterThan(0)
    expect(limitUp / n).toBeLessThan(0.02)
  })

  it('keeps index levels realistic', () => {
    const sh = universe().byCode.get('sh000001')!
    for (let m = 0; m <= NOW_MONTH; m++) {
      const b = monthBars(sh, m)!
      for (let i = 0; i < b.n; i++) {
        expect(b.close[i]).toBeGreaterThan(2300)
        expect(b.close[i]).toBeLessThan(4600)
      }
    }
  })

  it('has no bars on non-trading days, before listing, or after a contract expires', () => {
    const fu = universe().byCode.get('fuRB2501')!
    expect(monthBars(fu, monthIndex('2025-02-01'))!.n).toBe(0)
    const jan = monthBars(fu, monthIndex('2025-01-01'))!
    expect(jan.day[jan.n - 1]).toBe(dayNumber('2025-01-15'))
    expect(monthBars(fu, monthIndex('2023-12-01'))!.n).toBe(0)
    const catl = universe().byCode.get('sz300750')!
    const june = monthBars(catl, monthIndex('2018-06-01'))!
    expect(june.day[0]).toBe(dayNumber('2018-06-11'))
    expect(monthOfDay(june.day[0])).toBe(monthIndex('2018-06-01'))
  })
})

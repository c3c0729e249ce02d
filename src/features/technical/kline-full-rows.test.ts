import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { market } from '../../emulator/market/index'
import { appendBars, emptyHistory, mergeActions } from '../../store/history'
import type { History } from '../../store/shapes'
import { fullRowsBytes, lazyFullRows } from './kline-full-rows'

/** The rows as objects, the form the CSV answer streams: what the bytes must spell. */
const fullRows = (...args: Parameters<typeof lazyFullRows>) => [...lazyFullRows(...args).rows]

const NOW = Date.parse('2026-11-20T16:00:00+08:00')
const FQS = ['qfq', 'hfq', 'nofq'] as const
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** The history the jobs would store for `code` at NOW, from the emulator's model. */
function storedHistory(code: string): History {
  const inst = market.byCode(code)!
  const h = emptyHistory(code)
  appendBars(h, market.dailyBars(inst, '2016-08-08', '2026-11-20', NOW))
  mergeActions(h, market.actions(inst, NOW))
  return h
}

describe('fullRowsBytes', () => {
  it('writes a history asked the same way once, and anew for another query, another history or a history grown in place', () => {
    const h = storedHistory('sh600519')
    const first = fullRowsBytes(h, 'qfq')
    expect(fullRowsBytes(h, 'qfq')).toBe(first)
    const hfq = fullRowsBytes(h, 'hfq')
    expect(hfq).not.toBe(first)
    expect(text(hfq.bytes)).toBe(JSON.stringify(fullRows(h, 'hfq')))
    expect(fullRowsBytes(h, 'qfq', '2020-01-01')).not.toBe(first)
    const copy = storedHistory('sh600519')
    expect(fullRowsBytes(copy, 'qfq')).not.toBe(first)
    const before = fullRowsBytes(copy, 'nofq')
    appendBars(copy, market.dailyBars(market.byCode('sh600519')!, '2026-11-23', '2026-11-23', Date.parse('2026-11-23T16:00:00+08:00')))
    const grown = fullRowsBytes(copy, 'nofq')
    expect(grown.count).toBe(before.count + 1)
    expect(text(grown.bytes)).toBe(JSON.stringify(fullRows(copy, 'nofq')))
  })

  it('is the UTF-8 of JSON.stringify(fullRows(…)) byte for byte on stored histories, in every fq and range', () => {
    for (const code of ['sh600519', 'sz300750', 'sz000001']) {
      const h = storedHistory(code)
      expect(h.act.length, code).toBeGreaterThan(0)
      for (const fq of FQS) {
        for (const [start, end] of [[undefined, undefined], ['2020-01-01', '2021-06-30'], ['2030-01-01', undefined]] as const) {
          const rows = fullRows(h, fq, start, end)
          const out = fullRowsBytes(h, fq, start, end)
          expect(text(out.bytes), `${code} ${fq} ${start}..${end}`).toBe(JSON.stringify(rows))
          expect(out.count).toBe(rows.length)
          expect(out.last).toBe(rows.at(-1)?.time)
        }
      }
    }
  })

  it('agrees with fullRows on arbitrary prices, volumes, missing amounts and actions', () => {
    const price = fc.double({ min: 0.01, max: 5000, noNaN: true })
    const bar = fc.record({ o: price, h: price, l: price, c: price, vol: fc.double({ min: 0, max: 1e10, noNaN: true }), amt: fc.option(fc.double({ min: 0, max: 1e12, noNaN: true })) })
    const action = fc.tuple(fc.integer({ min: 0, max: 59 }), fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
    fc.assert(
      fc.property(fc.array(bar, { minLength: 1, maxLength: 60 }), fc.array(action, { maxLength: 4 }), fc.constantFrom(...FQS), (bars, actions, fq) => {
        const h = emptyHistory('sh600000')
        const day = (i: number) => 20250101 + Math.floor(i / 28) * 100 + (i % 28)
        h.t = bars.map((_, i) => day(i))
        h.o = bars.map((b) => b.o)
        h.h = bars.map((b) => b.h)
        h.l = bars.map((b) => b.l)
        h.c = bars.map((b) => b.c)
        h.vol = bars.map((b) => b.vol)
        h.amt = bars.map((b) => b.amt)
        h.tr = bars.map(() => null)
        const iso = (n: number) => `${String(n).slice(0, 4)}-${String(n).slice(4, 6)}-${String(n).slice(6, 8)}`
        h.act = actions.map(([i, cash, bonus]): History['act'][number] => [iso(day(i)), cash, bonus])
        h.last = iso(h.t.at(-1)!)
        return text(fullRowsBytes(h, fq).bytes) === JSON.stringify(fullRows(h, fq))
      })
    )
  })
})

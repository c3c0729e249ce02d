import { describe, expect, it } from 'vitest'
import { nextRow, stateThrough, type StepBar } from '../../domain/indicators/step'
import { JsonBytes } from '../../http/json-bytes'
import { respelledItem, steppedItemBytes, technicalItemBytes } from './item-bytes'

/** A wandering daily history of `n` bars from `start`, prices on a 0.01 grid (a stock) or 0.001 (an ETF). */
function history(n: number, start: number, decimals: number): StepBar[] {
  let s = 12345
  const random = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32)
  const grid = 10 ** decimals
  const bars: StepBar[] = []
  let close = start
  for (let i = 0; i < n; i++) {
    const open = Math.round(close * (1 + (random() - 0.5) * 0.02) * grid) / grid
    close = Math.round(open * (1 + (random() - 0.5) * 0.06) * grid) / grid
    const high = Math.max(open, close) + Math.round(random() * 0.02 * close * grid) / grid
    const low = Math.min(open, close) - Math.round(random() * 0.02 * close * grid) / grid
    const date = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)
    bars.push({ date, open, high, low, close, volume: Math.round(random() * 5e7) * 100 })
  }
  return bars
}

describe('technicalItemBytes', () => {
  const text = (b: Uint8Array) => new TextDecoder().decode(b)

  it('writes a stepped row as JSON.stringify writes the item, with and without as_of, for several histories', () => {
    const w = new JsonBytes(256)
    for (const [n, start, decimals, name] of [[600, 1688.5, 2, '贵州茅台'], [40, 3.21, 2, null], [300, 0.987, 3, '科创50ETF'], [5, 12, 2, 'A "quoted" name']] as const) {
      const bars = history(n, start, decimals)
      const state = stateThrough(bars.slice(0, -1))
      const row = nextRow(state, bars.at(-1)!, { code: 'sh600519', name, priceDecimals: decimals })
      expect(text(technicalItemBytes(w, 'sh600519', row, decimals, '2026-11-20T10:30:00+08:00'))).toBe(JSON.stringify({ code: 'sh600519', ok: true, data: row, as_of: '2026-11-20T10:30:00+08:00' }))
      expect(text(technicalItemBytes(w, 'SH600519', row, decimals))).toBe(JSON.stringify({ code: 'SH600519', ok: true, data: row }))
    }
  })

  it('writes the stepped item straight from the values as nextRow\'s row would be written, bar after bar', () => {
    const w = new JsonBytes(1024)
    for (const [n, start, decimals] of [[700, 1688.5, 2], [30, 3.21, 2], [400, 0.987, 3], [2, 12, 2], [1, 5, 2]] as const) {
      const bars = history(n, start, decimals).map((b, i) => ({ ...b, volume: i % 7 === 0 ? b.volume * 500 : b.volume }))
      const state = stateThrough([])
      for (const [k, bar] of bars.entries()) {
        const id = { code: 'sh600000', name: k % 2 ? '浦发银行' : null, priceDecimals: decimals }
        const expected = JSON.stringify({ code: 'SH600000', ok: true, data: nextRow(state, bar, id), as_of: '2026-11-20T10:30:00+08:00' })
        expect(text(steppedItemBytes(w, 'SH600000', state, bar, id, '2026-11-20T10:30:00+08:00')), `bar ${k} of ${n}`).toBe(expected)
        // the state is left as it was: stepping on gives the next bar's row
        Object.assign(state, stateThrough(bars.slice(0, k + 1)))
      }
    }
  })

  it('appends items to one writer, each view intact after the buffer grows', () => {
    const w = new JsonBytes(64)
    const bars = history(300, 25.5, 2)
    const state = stateThrough(bars.slice(0, -2))
    const rows = [bars.at(-2)!, bars.at(-1)!].map((b) => nextRow(state, b, { code: 'sz000001', name: '平安银行', priceDecimals: 2 }))
    const views = rows.map((row, k) => technicalItemBytes(w, `c${k}`, row, 2, '2026-11-20T10:30:00+08:00'))
    rows.forEach((row, k) => expect(text(views[k])).toBe(JSON.stringify({ code: `c${k}`, ok: true, data: row, as_of: '2026-11-20T10:30:00+08:00' })))
  })

  it('writes a row whose keys are in another order as the same JSON value, in column order', () => {
    const bars = history(60, 9.87, 2)
    const row = nextRow(stateThrough(bars.slice(0, -1)), bars.at(-1)!, { code: 'sz000001', name: null, priceDecimals: 2 })
    const shuffled = Object.fromEntries(Object.entries(row).reverse()) as typeof row
    const fewer = { ...row, extra: 1 } as typeof row
    const w = new JsonBytes(16)
    w.json('[')
    for (const r of [shuffled, fewer]) expect(JSON.parse(text(technicalItemBytes(w, 'sz000001', r, 2)))).toEqual({ code: 'sz000001', ok: true, data: row })
    expect(text(technicalItemBytes(w, 'sz000001', row, 2))).toBe(JSON.stringify({ code: 'sz000001', ok: true, data: row }))
  })

  it('respells an item for a code asked in another spelling', () => {
    const bars = history(60, 9.87, 2)
    const row = nextRow(stateThrough(bars.slice(0, -1)), bars.at(-1)!, { code: 'sz000001', name: '平安银行', priceDecimals: 2 })
    const bytes = technicalItemBytes(new JsonBytes(), 'sz000001', row, 2, '2026-11-20T10:30:00+08:00')
    expect(text(respelledItem(bytes, 'sz000001', 'SZ000001'))).toBe(JSON.stringify({ code: 'SZ000001', ok: true, data: row, as_of: '2026-11-20T10:30:00+08:00' }))
  })

  it('keeps large volume figures (OBV in shares) exact', () => {
    const bars = history(2500, 50, 2).map((b) => ({ ...b, volume: b.volume * 400 }))
    const row = nextRow(stateThrough(bars.slice(0, -1)), bars.at(-1)!, { code: 'sz000001', name: '平安银行', priceDecimals: 2 })
    expect(Math.abs(row.obv_OBV!) + Math.abs(row.vol_MA_10!)).toBeGreaterThan(1e9)
    expect(text(technicalItemBytes(new JsonBytes(), 'sz000001', row, 2))).toBe(JSON.stringify({ code: 'sz000001', ok: true, data: row }))
  })
})

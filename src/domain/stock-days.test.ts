import { describe, expect, it } from 'vitest'
import { factors, roundPrice } from './adjust'
import { toColumns } from './indicators/bars'
import { technicalRow } from './indicators/row'
import { STOCK_DAY_COLUMNS, stockDays, TECHNICAL_VALUE_COLUMNS, type RawDaily } from './stock-days'

/** 300 trading days of a made-up stock with a cash dividend and a 10-for-10 bonus along the way. */
function history(): RawDaily {
  const t: number[] = []
  const o: number[] = []
  const h: number[] = []
  const l: number[] = []
  const c: number[] = []
  const vol: number[] = []
  const amt: number[] = []
  const day = Date.UTC(2025, 0, 2)
  for (let i = 0; i < 300; i++) {
    const d = new Date(day + i * 86_400_000)
    t.push(Number(d.toISOString().slice(0, 10).replaceAll('-', '')))
    // After the bonus on day 200 the raw price halves, as it would.
    const base = (20 + 3 * Math.sin(i / 9) + i * 0.01) * (i >= 200 ? 0.5 : 1) - (i >= 120 ? 0.5 : 0)
    const close = roundPrice(base)
    c.push(close)
    o.push(roundPrice(base * 0.995))
    h.push(roundPrice(base * 1.02))
    l.push(roundPrice(base * 0.98))
    vol.push(100_000 + (i % 7) * 5_000)
    amt.push(close * (100_000 + (i % 7) * 5_000))
  }
  const iso = (n: number) => `${String(n).slice(0, 4)}-${String(n).slice(4, 6)}-${String(n).slice(6, 8)}`
  return { t, o, h, l, c, vol, amt, act: [[iso(t[120]), 0.5, 0], [iso(t[200]), 0, 1]] }
}

const col = (name: string) => STOCK_DAY_COLUMNS.indexOf(name)

describe('stockDays', () => {
  const x = history()
  const rows = stockDays(x, 0, x.t.length - 1)

  it('gives one row per day, with the close that traded that day', () => {
    expect(rows).toHaveLength(300)
    for (const i of [0, 119, 120, 199, 200, 299]) expect(rows[i].values[col('closePrice')]).toBe(x.c[i])
  })

  it('equals a technical row over the bars adjusted forward to that day only (nothing after it leaks in)', () => {
    for (const i of [150, 199, 250, 299]) {
      const n = i + 1
      const f = factors({ t: x.t.slice(0, n), c: x.c.slice(0, n), act: x.act }, 'qfq')
      const bars = Array.from({ length: n }, (_, k) => ({
        date: rows[k].date,
        open: roundPrice(x.o[k] * f[k]),
        high: roundPrice(x.h[k] * f[k]),
        low: roundPrice(x.l[k] * f[k]),
        close: roundPrice(x.c[k] * f[k]),
        volume: x.vol[k],
      }))
      const want = technicalRow(toColumns(bars), { code: 'sz000000', name: null, priceDecimals: 2 })!
      for (const name of TECHNICAL_VALUE_COLUMNS) expect(rows[i].values[col(name)], `${name} on day ${i}`).toBe(want[name])
    }
  })

  it('computes the day factors from the adjusted closes, and dividends from the actions of the past year', () => {
    const r = rows[200].values
    // Day 200 is the bonus ex-date: adjusted to it, day 199's close halves, so the change is the real one.
    const prevAdj = roundPrice(x.c[199] * 0.5)
    expect(r[col('ChangePCT')]).toBeCloseTo(((x.c[200] / prevAdj) - 1) * 100, 4)
    expect(r[col('Volume')]).toBe(x.vol[200])
    expect(r[col('VolumeRatio')]).toBeCloseTo(x.vol[200] / ((x.vol[195] + x.vol[196] + x.vol[197] + x.vol[198] + x.vol[199]) / 5), 4)
    expect(r[col('DividendPerShare')]).toBe(0.5)
    expect(r[col('DividendYield')]).toBeCloseTo((0.5 / x.c[200]) * 100, 4)
    expect(rows[119].values[col('DividendPerShare')]).toBe(0)
    expect(rows[0].values[col('ChangePCT')]).toBeNull()
    expect(rows[100].values[col('ma_MA_250')]).toBeNull()
  })

  it('computes a range alone the same as the whole', () => {
    const part = stockDays(x, 195, 205)
    expect(part.map((r) => r.values)).toEqual(rows.slice(195, 206).map((r) => r.values))
  })
})

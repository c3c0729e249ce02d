/**
 * The rows of /v1/kline-full: a stored history, adjusted as asked, cut to [start, end], as the
 * 7 string columns `time, open, high, low, close, volume, amount`, oldest first.
 */
import { factors, roundPrice, type Fq } from '../../domain/adjust'
import { dateNum, indexOnOrAfter, numDate } from '../../store/history'
import type { History } from '../../store/shapes'
import type { MarketKlineRow } from '../../store/market-kline'

/** One row of /v1/kline-full: a /v1/market-kline row without its code. */
export type FullRow = Omit<MarketKlineRow, 'code'>

/**
 * `JSON.stringify(fullRows(h, fq, start, end))`, byte for byte, written directly: no row objects, and
 * each price formatted from its integer cents rather than by `toFixed`. A whole history is some
 * 6,000 rows of five prices; building and serialising the objects was most of a /v1/kline-full call.
 * `last` is the date of the last row.
 */
export function fullRowsJson(h: History, fq: Fq, start?: string, end?: string): { count: number; json: string; last: string | undefined } {
  const [from, to] = span(h, start, end)
  const f = factors(h, fq, from, to)
  let json = '['
  for (let i = from; i < to; i++) {
    const k = f[i - from]
    const amt = h.amt[i]
    json +=
      `${i > from ? ',' : ''}{"time":"${numDate(h.t[i])}","open":"${pxText(h.o[i], k)}","high":"${pxText(h.h[i], k)}","low":"${pxText(h.l[i], k)}",` +
      `"close":"${pxText(h.c[i], k)}","volume":"${Math.round(h.vol[i])}","amount":"${amt === null ? '' : centsText(Math.round(amt * 100))}"}`
  }
  return { count: to - from, json: json + ']', last: to > from ? numDate(h.t[to - 1]) : undefined }
}

/** {@link px} from integer cents: `roundPrice(x * k)` is `m / 100` with m the rounded cents. */
const pxText = (x: number, k: number) => centsText(Math.round(x * k * 100 + 1e-6))

/**
 * `(m / 100).toFixed(2)` for integer cents `m`: the same text, since `m / 100` is the double nearest
 * m hundredths and rounds back to them at two decimals. Not finite: `toFixed`'s own text.
 */
export function centsText(m: number): string {
  if (!Number.isFinite(m)) return (m / 100).toFixed(2)
  const a = m < 0 ? -m : m
  const whole = Math.floor(a / 100)
  const frac = a - whole * 100
  return `${m < 0 ? '-' : ''}${whole}${frac < 10 ? '.0' : '.'}${frac}`
}

/** Adjusted rows of `h` with start ≤ date ≤ end (both optional), oldest first. */
export function fullRows(h: History, fq: Fq, start?: string, end?: string): FullRow[] {
  const [from, to] = span(h, start, end)
  const f = factors(h, fq, from, to)
  const out = new Array<FullRow>(to - from)
  for (let i = from; i < to; i++) out[i - from] = rowAt(h, i, f[i - from])
  return out
}

/**
 * The same rows made one at a time as they are read (the streamed CSV answer): only the factors
 * (one number a bar) are computed up front. `count` is how many the iterator gives.
 */
export function lazyFullRows(h: History, fq: Fq, start?: string, end?: string): { count: number; rows: Iterable<FullRow> } {
  const [from, to] = span(h, start, end)
  const f = factors(h, fq, from, to)
  function* rows() {
    for (let i = from; i < to; i++) yield rowAt(h, i, f[i - from])
  }
  return { count: to - from, rows: rows() }
}

/** The index range [from, to) of the bars with start ≤ date ≤ end. */
function span(h: History, start?: string, end?: string): [number, number] {
  const from = start ? indexOnOrAfter(h, start) : 0
  let to = h.t.length
  if (end) {
    const e = dateNum(end)
    while (to > from && h.t[to - 1] > e) to--
  }
  return [from, Math.max(from, to)]
}

const px = (x: number, k: number) => roundPrice(x * k).toFixed(2)

/** Bar `i` of `h` with its prices times the adjustment factor `k`. */
function rowAt(h: History, i: number, k: number): FullRow {
  const amt = h.amt[i]
  return {
    time: numDate(h.t[i]),
    open: px(h.o[i], k),
    high: px(h.h[i], k),
    low: px(h.l[i], k),
    close: px(h.c[i], k),
    volume: String(Math.round(h.vol[i])),
    amount: amt === null ? '' : (Math.round(amt * 100) / 100).toFixed(2),
  }
}

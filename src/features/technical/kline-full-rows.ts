/**
 * The rows of /v1/kline-full: a stored history, adjusted as asked, cut to [start, end], as the
 * 7 string columns `time, open, high, low, close, volume, amount`, oldest first.
 */
import { factors, roundPrice, type Fq } from '../../domain/adjust'
import { AsciiWriter } from '../../http/ascii-writer'
import { dateNum, indexOnOrAfter, numDate } from '../../store/history'
import type { History } from '../../store/shapes'
import type { MarketKlineRow } from '../../store/market-kline'

/** One row of /v1/kline-full: a /v1/market-kline row without its code. */
export type FullRow = Omit<MarketKlineRow, 'code'>

/** {@link fullRowsBytes}' answer: the rows, how many, and the date of the last. Never changed once made. */
export interface RowsBytes {
  count: number
  bytes: Uint8Array<ArrayBuffer>
  last: string | undefined
}

/**
 * The last rows written for each history object, with the query they answer: a pure memo, held
 * weakly by the history (the history cache hands out one object per stored version, so a
 * rewritten history is a new object and never meets an old memo). A popular stock asked the same
 * way again costs the envelope and a copy, not another 6,000 rows; one answer per history (some
 * 300 KB for the longest) bounds it by the histories the cache keeps.
 */
const LAST_ROWS = new WeakMap<History, { query: string; rows: RowsBytes }>()

/**
 * The UTF-8 bytes of `JSON.stringify([...lazyFullRows(h, fq, start, end).rows])`, byte for byte, written directly:
 * no row objects and no strings. A whole history is some 6,000 rows of five prices; building the
 * row objects, formatting each price with `toFixed` and encoding the text was most of a
 * /v1/kline-full call. `last` is the date of the last row. The bytes are shared: callers copy them
 * and never write to them.
 */
export function fullRowsBytes(h: History, fq: Fq, start?: string, end?: string): RowsBytes {
  // The lengths too: a history the jobs extend in place (appendBars, mergeActions) is a changed history.
  const query = `${fq}|${start ?? ''}|${end ?? ''}|${h.t.length}|${h.act.length}`
  const known = LAST_ROWS.get(h)
  if (known?.query === query) return known.rows
  const rows = writeFullRows(h, fq, start, end)
  LAST_ROWS.set(h, { query, rows })
  return rows
}

function writeFullRows(h: History, fq: Fq, start?: string, end?: string): RowsBytes {
  const [from, to] = span(h, start, end)
  const f = factors(h, fq, from, to)
  const w = new AsciiWriter((to - from) * ROW_BYTES + 2)
  w.ascii('[')
  for (let i = from; i < to; i++) {
    const k = f[i - from]
    const amt = h.amt[i]
    w.ascii(i > from ? ',{"time":"' : '{"time":"')
    writeDate(w, h.t[i])
    w.ascii('","open":"').cents(priceCents(h.o[i], k))
    w.ascii('","high":"').cents(priceCents(h.h[i], k))
    w.ascii('","low":"').cents(priceCents(h.l[i], k))
    w.ascii('","close":"').cents(priceCents(h.c[i], k))
    w.ascii('","volume":"').int(Math.round(h.vol[i]))
    w.ascii('","amount":"')
    if (amt !== null) w.cents(Math.round(amt * 100))
    w.ascii('"}')
  }
  w.ascii(']')
  return { count: to - from, bytes: w.bytes, last: to > from ? numDate(h.t[to - 1]) : undefined }
}

/** Bytes of a typical row, to allocate the answer once. */
const ROW_BYTES = 120

/** `roundPrice(x * k)` in integer cents: what {@link px} formats. */
const priceCents = (x: number, k: number) => Math.round(x * k * 100 + 1e-6)

/** A `YYYYMMDD` day number as {@link numDate} writes it. */
function writeDate(w: AsciiWriter, n: number): void {
  if (!(n >= 10_000_000 && n <= 99_999_999 && Number.isInteger(n))) {
    w.ascii(numDate(n))
    return
  }
  w.digits(Math.floor(n / 10_000), 4).ascii('-').digits(Math.floor(n / 100) % 100, 2).ascii('-').digits(n % 100, 2)
}

/**
 * The adjusted rows of `h` with start ≤ date ≤ end (both optional), oldest first, made one at a time
 * as they are read (the streamed CSV answer): only the factors (one number a bar) are computed up
 * front. `count` is how many the iterator gives.
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

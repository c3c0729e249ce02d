/**
 * One stock's daily history as stored in R2 (`history/<code>.json`): raw (unadjusted) bars since
 * max(listing, 2016-08-08) as columns of numbers, the corporate actions needed to adjust them, and
 * the last bar's date. The stored JSON is the in-memory shape, so reading is one JSON.parse.
 *
 *   {"v":1,"code":"sh600519","last":"2026-11-20",
 *    "t":[20160808,…],"o":[289.35,…],"h":[…],"l":[…],"c":[…],"vol":[5189500,…],"amt":[1515448311.79,…],
 *    "tr":[0.32,…],"act":[["2017-06-06",3.48,0],…]}
 *
 * t: dates as YYYYMMDD numbers, ascending; o/h/l/c: raw prices; vol: shares; amt: CNY (null when
 * the upstream had none); tr: turnover rate in percent of float shares, 2 decimals as the upstream
 * prints it (null when it had none); act: [ex-date, cash per share (CNY), bonus shares per share],
 * ascending.
 *
 * `tr` came after the first stores were written, so it is optional on disk and the version stays 1:
 * a blob without it reads as a turnover of null on every day (the chip falls back to the channel
 * for such a stock), each later write keeps the column (nulls for the old days, real values for
 * the days appended since), and the next backfill rewrites the blob whole with every day's rate
 * (`kline/get` f61 of the raw bars).
 */
import { dateNum, numDate } from '../domain/date-num'
import type { Bar } from '../domain/bar'
import { historyKey } from './keys'
import type { History } from './shapes'

const HISTORY_VERSION: History['v'] = 1

/** The bar fields a history keeps; a bar without `turnover` stores null. */
export type DayBar = Pick<Bar, 'date' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount'> & { turnover?: number | null }

export { dateNum, numDate }

/** A history with no bars yet. */
export function emptyHistory(code: string): History {
  return { v: HISTORY_VERSION, code, last: '', t: [], o: [], h: [], l: [], c: [], vol: [], amt: [], tr: [], act: [] }
}

/** Bars in the history. */
export const barCount = (h: History) => h.t.length

/** The bar at index `i` in domain form. */
export function barAt(h: History, i: number): DayBar {
  return { date: numDate(h.t[i]), open: h.o[i], high: h.h[i], low: h.l[i], close: h.c[i], volume: h.vol[i], amount: h.amt[i], turnover: h.tr[i] }
}

/**
 * Appends the bars newer than the last one (older or equal dates are ignored, so appending the
 * same day twice changes nothing). `bars` must be ascending. Returns how many were added.
 */
export function appendBars(h: History, bars: readonly DayBar[]): number {
  let added = 0
  for (const b of bars) {
    if (h.last && b.date <= h.last) continue
    h.t.push(dateNum(b.date))
    h.o.push(b.open)
    h.h.push(b.high)
    h.l.push(b.low)
    h.c.push(b.close)
    h.vol.push(b.volume)
    h.amt.push(b.amount)
    h.tr.push(b.turnover ?? null)
    h.last = b.date
    added++
  }
  return added
}

/**
 * Adds the actions whose ex-date the history does not have yet (one action per ex-date: a stock
 * pays and issues bonus shares in one event). Keeps them ascending. Returns how many were added.
 */
export function mergeActions(h: History, actions: ReadonlyArray<{ exDate: string; cash: number; bonus: number }>): number {
  const have = new Set(h.act.map((a) => a[0]))
  let added = 0
  for (const a of actions) {
    if (have.has(a.exDate)) continue
    have.add(a.exDate)
    h.act.push([a.exDate, a.cash, a.bonus])
    added++
  }
  if (added) h.act.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return added
}

/** Index of the first bar dated on or after `date` (barCount when none). */
export function indexOnOrAfter(h: History, date: string): number {
  const x = dateNum(date)
  let lo = 0
  let hi = h.t.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (h.t[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Checks a parsed document's shape; throws naming what is wrong (a damaged file is never served).
 * A blob from before the turnover column gets one of nulls (the upgrade described at the top).
 */
export function checkHistory(x: unknown): History {
  const h = x as History
  if (!h || typeof h !== 'object' || h.v !== HISTORY_VERSION) throw new Error(`history: unknown version ${JSON.stringify((h as { v?: unknown })?.v)}`)
  const n = h.t?.length
  if (h.tr === undefined && Array.isArray(h.t)) h.tr = new Array<null>(n).fill(null)
  for (const k of ['o', 'h', 'l', 'c', 'vol', 'amt', 'tr'] as const) {
    if (!Array.isArray(h[k]) || h[k].length !== n) throw new Error(`history ${h.code}: column ${k} has ${h[k]?.length} values for ${n} dates`)
  }
  if (!Array.isArray(h.act)) throw new Error(`history ${h.code}: no actions list`)
  if (n && h.last !== numDate(h.t[n - 1])) throw new Error(`history ${h.code}: last ${h.last} is not the last bar ${h.t[n - 1]}`)
  return h
}

/** The stored history of `code`, or undefined when it has not been built. */
export async function readHistory(bucket: R2Bucket, code: string): Promise<History | undefined> {
  const obj = await bucket.get(historyKey(code))
  if (!obj) return undefined
  return checkHistory(await obj.json())
}

/** Writes a history; the last bar date and size ride along as metadata for listings. */
export async function writeHistory(bucket: R2Bucket, h: History): Promise<void> {
  await bucket.put(historyKey(h.code), JSON.stringify(h), {
    httpMetadata: { contentType: 'application/json' },
    customMetadata: { last: h.last, bars: String(h.t.length) },
  })
}

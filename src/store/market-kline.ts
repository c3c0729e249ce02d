/**
 * The whole-market blob of one trading day (`market-kline/<date>.json`): the exact JSON array that
 * /v1/market-kline sends as `data`, so the route streams it without parsing. One object per stock
 * that traded that day, ascending by code, 8 string fields, unadjusted, prices with 2 decimals.
 * `customMetadata.rows` carries the row count (the route reports it without reading the body).
 */
import { roundPrice } from '../domain/adjust'
import type { DayBar } from './history'
import { marketKlineKey } from './keys'

/** One row of the blob and of /v1/market-kline. */
export interface MarketKlineRow {
  code: string
  time: string
  open: string
  high: string
  low: string
  close: string
  volume: string
  amount: string
}

/** The columns, in the order every row carries them. */
export const MARKET_KLINE_COLUMNS = ['code', 'time', 'open', 'high', 'low', 'close', 'volume', 'amount'] as const

const price = (x: number) => roundPrice(x).toFixed(2)

/** A stock's unadjusted bar as a blob row. */
export function marketRow(code: string, b: DayBar): MarketKlineRow {
  return {
    code,
    time: b.date,
    open: price(b.open),
    high: price(b.high),
    low: price(b.low),
    close: price(b.close),
    volume: String(Math.round(b.volume)),
    amount: b.amount === null ? '' : (Math.round(b.amount * 100) / 100).toFixed(2),
  }
}

/** A row back as a bar (the after-close job appends today's bars from the blob it wrote). */
export function rowBar(r: MarketKlineRow): DayBar {
  return { date: r.time, open: +r.open, high: +r.high, low: +r.low, close: +r.close, volume: +r.volume, amount: r.amount === '' ? null : +r.amount }
}

/** The blob text of rows already ascending by code, each given as its JSON text. */
export const joinRows = (rowTexts: readonly string[]) => '[' + rowTexts.join(',') + ']'

/** Writes the day's blob from rows (sorted here by code) and returns its size in bytes. */
export async function writeMarketDay(bucket: R2Bucket, date: string, rows: MarketKlineRow[]): Promise<number> {
  const sorted = [...rows].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
  return writeMarketDayText(bucket, date, JSON.stringify(sorted), sorted.length)
}

/** Writes a blob already serialised (the backfill assembles it from staged row texts). */
export async function writeMarketDayText(bucket: R2Bucket, date: string, text: string, rows: number): Promise<number> {
  const body = new TextEncoder().encode(text)
  await bucket.put(marketKlineKey(date), body, {
    httpMetadata: { contentType: 'application/json; charset=utf-8' },
    customMetadata: { rows: String(rows), date },
  })
  return body.byteLength
}

/** Rows of a stored day (jobs only; the route never parses a blob), or undefined when absent. */
export async function readMarketDay(bucket: R2Bucket, date: string): Promise<MarketKlineRow[] | undefined> {
  const obj = await bucket.get(marketKlineKey(date))
  return obj ? ((await obj.json()) as MarketKlineRow[]) : undefined
}

/** True when the day's blob exists (one HEAD, no body). */
export async function hasMarketDay(bucket: R2Bucket, date: string): Promise<boolean> {
  return (await bucket.head(marketKlineKey(date))) !== null
}

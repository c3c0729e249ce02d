/** Small builders for the indicator tests (not used by the service). */
import { toColumns, type DailyBars } from './bars'

/** A series from plain numbers. */
export const f64 = (xs: readonly number[]): Float64Array => Float64Array.from(xs)

/** Bars from [open, high, low, close, volume?] rows, dated one day apart from 2026-01-01. */
export function barsOf(rows: ReadonlyArray<readonly [number, number, number, number, number?]>): DailyBars {
  return toColumns(rows.map(([open, high, low, close, volume = 1000], i) => ({ date: dayAfter('2026-01-01', i), open, high, low, close, volume })))
}

/** Bars whose open, high, low and close all equal the close (the typical price is the close). */
export const flatBars = (closes: readonly number[], volumes?: readonly number[]) => barsOf(closes.map((c, i) => [c, c, c, c, volumes?.[i]] as const))

/** Bars with high = close + spread, low = close − spread, open = close. */
export const bandBars = (closes: readonly number[], spread = 1) => barsOf(closes.map((c) => [c, c + spread, c - spread, c] as const))

/** `n` values a + b·i. */
export const line = (n: number, a: number, b: number) => Array.from({ length: n }, (_, i) => a + b * i)

function dayAfter(start: string, days: number): string {
  return new Date(Date.parse(start + 'T00:00:00Z') + days * 86_400_000).toISOString().slice(0, 10)
}

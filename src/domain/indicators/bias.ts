import { ma, map, ratio, type Series } from './series'

/** BIAS(n) = (C − MA(C, n)) / MA(C, n) × 100: the percent distance from the n-bar mean. */
export function bias(close: Series, n: number): Series {
  const m = ma(close, n)
  return map(close.length, (i) => ratio(close[i] - m[i], m[i]) * 100)
}

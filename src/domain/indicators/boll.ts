import { ma, map, std, type Series } from './series'

/** BOLL(20, 2): MID = MA20, UPPER/LOWER = MID ± 2 × the population standard deviation. */
export function boll(close: Series, n = 20, width = 2): { upper: Series; mid: Series; lower: Series } {
  const mid = ma(close, n)
  const sd = std(close, n)
  return { upper: map(close.length, (i) => mid[i] + width * sd[i]), mid, lower: map(close.length, (i) => mid[i] - width * sd[i]) }
}

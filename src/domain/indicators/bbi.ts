import { ma, map, type Series } from './series'

/** BBI(3, 6, 12, 20): the mean of MA3, MA6, MA12 and MA20. */
export function bbi(close: Series, periods: readonly number[] = [3, 6, 12, 20]): Series {
  const mas = periods.map((n) => ma(close, n))
  return map(close.length, (i) => mas.reduce((s, m) => s + m[i], 0) / mas.length)
}

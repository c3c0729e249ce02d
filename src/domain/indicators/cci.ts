import { avedev, ma, map, ratio, type Series } from './series'
import type { Ohlcv } from './bars'

/** The typical price (H + L + C) / 3. */
export const typicalPrice = (b: Ohlcv): Series => map(b.close.length, (i) => (b.high[i] + b.low[i] + b.close[i]) / 3)

/** CCI(14) = (TP − MA(TP, 14)) / (0.015 × AVEDEV(TP, 14)). */
export function cci(b: Ohlcv, n = 14): Series {
  const tp = typicalPrice(b)
  const m = ma(tp, n)
  const dev = avedev(tp, n)
  return map(tp.length, (i) => ratio(tp[i] - m[i], 0.015 * dev[i]))
}

import { hhv, llv, map, ratio, sma, type Series } from './series'
import type { Ohlcv } from './bars'

/**
 * KDJ(9, 3, 3): RSV = (C − LLV(L, 9)) / (HHV(H, 9) − LLV(L, 9)) × 100, K = SMA(RSV, 3, 1),
 * D = SMA(K, 3, 1), J = 3K − 2D. K starts at the first RSV (bar 8), D at K; a flat 9-bar range
 * leaves RSV undefined and K carries its last value (D keeps closing in on it).
 */
export function kdj(b: Ohlcv, n = 9, m1 = 3, m2 = 3): { k: Series; d: Series; j: Series } {
  const hi = hhv(b.high, n)
  const lo = llv(b.low, n)
  const rsv = map(b.close.length, (i) => ratio(b.close[i] - lo[i], hi[i] - lo[i]) * 100)
  const k = sma(rsv, m1)
  const d = sma(k, m2)
  return { k, d, j: map(k.length, (i) => 3 * k[i] - 2 * d[i]) }
}

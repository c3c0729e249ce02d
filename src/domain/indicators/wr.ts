import { hhv, llv, map, ratio, type Series } from './series'
import type { Ohlcv } from './bars'

/** Williams %R as Tongdaxin shows it: (HHV(H, n) − C) / (HHV(H, n) − LLV(L, n)) × 100; 0 at the high, 100 at the low. */
export function wr(b: Ohlcv, n: number): Series {
  const hi = hhv(b.high, n)
  const lo = llv(b.low, n)
  return map(b.close.length, (i) => ratio(hi[i] - b.close[i], hi[i] - lo[i]) * 100)
}

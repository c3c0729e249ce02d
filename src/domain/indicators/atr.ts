import { ma, map, ref, type Series } from './series'
import type { Ohlcv } from './bars'

/** True range max(H − L, |C′ − H|, |C′ − L|), C′ the previous close; undefined on the first bar. */
export function trueRange(b: Ohlcv): Series {
  const prev = ref(b.close, 1)
  return map(b.close.length, (i) => Math.max(b.high[i] - b.low[i], Math.abs(prev[i] - b.high[i]), Math.abs(prev[i] - b.low[i])))
}

/** ATR(20): the simple 20-bar mean of the true range (not Wilder's smoothing), from bar 20. */
export function atr(b: Ohlcv, n = 20): { tr: Series; atr: Series } {
  const tr = trueRange(b)
  return { tr, atr: ma(tr, n) }
}

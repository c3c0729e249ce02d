import { typicalPrice } from './cci'
import { map, ref, sum, type Series } from './series'
import type { Ohlcv } from './bars'

/**
 * MFI(14): money flow TP × V counted as positive when TP rose, negative when it fell (the first
 * bar is neither), over 14 bars; 100 − 100 / (1 + positive / negative). No negative flow gives
 * 100; no flow at all is undefined.
 */
export function mfi(b: Ohlcv, n = 14): Series {
  const len = b.close.length
  const tp = typicalPrice(b)
  const prev = ref(tp, 1)
  const pos = sum(map(len, (i) => (tp[i] > prev[i] ? tp[i] * b.volume[i] : 0)), n)
  const neg = sum(map(len, (i) => (tp[i] < prev[i] ? tp[i] * b.volume[i] : 0)), n)
  return map(len, (i) => {
    if (Number.isNaN(pos[i]) || Number.isNaN(neg[i])) return Number.NaN
    if (neg[i] === 0) return pos[i] > 0 ? 100 : Number.NaN
    return 100 - 100 / (1 + pos[i] / neg[i])
  })
}

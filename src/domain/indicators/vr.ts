import { map, ratio, ref, sum, type Series } from './series'

/**
 * VR(26) = sum of V on up days / sum of V on the other days × 100 over 26 bars; a flat day counts
 * wholly as down (a textbook splits it), the first bar as neither.
 */
export function vr(close: Series, volume: Series, n = 26): Series {
  const prev = ref(close, 1)
  const up = sum(map(close.length, (i) => (close[i] > prev[i] ? volume[i] : 0)), n)
  const rest = sum(map(close.length, (i) => (close[i] <= prev[i] ? volume[i] : 0)), n)
  return map(close.length, (i) => ratio(up[i], rest[i]) * 100)
}

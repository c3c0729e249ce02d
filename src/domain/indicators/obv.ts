import { map, ref, type Series } from './series'

/**
 * On-balance volume: the running sum of +V on up days, −V on down days, 0 on flat days and on the
 * first bar, in shares (MyTT divides by 10,000 for display; we do not). It depends on where the
 * history starts.
 */
export function obv(close: Series, volume: Series): Series {
  const prev = ref(close, 1)
  let s = 0
  return map(close.length, (i) => (s += close[i] > prev[i] ? volume[i] : close[i] < prev[i] ? -volume[i] : 0))
}

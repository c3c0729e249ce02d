import { ma, map, ref, type Series } from './series'

/** MTM(12, 6): C − C 12 bars back; MTMMA = MA(MTM, 6). */
export function mtm(close: Series, n = 12, m = 6): { mtm: Series; mtmma: Series } {
  const back = ref(close, n)
  const x = map(close.length, (i) => close[i] - back[i])
  return { mtm: x, mtmma: ma(x, m) }
}

import { ma, map, ratio, ref, type Series } from './series'

/** ROC(12, 6): 100 × (C − C 12 bars back) / C 12 bars back; MAROC = MA(ROC, 6). */
export function roc(close: Series, n = 12, m = 6): { roc: Series; maroc: Series } {
  const back = ref(close, n)
  const r = map(close.length, (i) => ratio(close[i] - back[i], back[i]) * 100)
  return { roc: r, maroc: ma(r, m) }
}

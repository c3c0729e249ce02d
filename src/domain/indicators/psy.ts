import { ma, map, ref, sum, type Series } from './series'

/** PSY(12, 6): the share of up days among the last 12, × 100 (the first bar is not up); PSYMA = MA(PSY, 6). */
export function psy(close: Series, n = 12, m = 6): { psy: Series; psyma: Series } {
  const prev = ref(close, 1)
  const ups = sum(map(close.length, (i) => (close[i] > prev[i] ? 1 : 0)), n)
  const p = map(close.length, (i) => (ups[i] / n) * 100)
  return { psy: p, psyma: ma(p, m) }
}

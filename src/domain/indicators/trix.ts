import { ema, ma, map, ratio, ref, type Series } from './series'

/** TRIX(12, 20): TR = EMA(EMA(EMA(C, 12), 12), 12), TRIX = TR's percent change, TRMA = MA(TRIX, 20). */
export function trix(close: Series, n = 12, m = 20): { trix: Series; trma: Series } {
  const tr = ema(ema(ema(close, n), n), n)
  const prev = ref(tr, 1)
  const t = map(close.length, (i) => ratio(tr[i] - prev[i], prev[i]) * 100)
  return { trix: t, trma: ma(t, m) }
}

import { ma, map, type Series } from './series'

/** DMA(10, 50, 10) (MyTT's DFMA): DIF = MA10 − MA50, DIFMA = MA(DIF, 10). */
export function dma(close: Series, short = 10, long = 50, m = 10): { dif: Series; difma: Series } {
  const s = ma(close, short)
  const l = ma(close, long)
  const dif = map(close.length, (i) => s[i] - l[i])
  return { dif, difma: ma(dif, m) }
}

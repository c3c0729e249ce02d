import { ema, map, type Series } from './series'

/** MACD(12, 26, 9): DIF = EMA12 − EMA26, DEA = EMA(DIF, 9), bar = 2 × (DIF − DEA). Defined from bar 0. */
export function macd(close: Series, short = 12, long = 26, signal = 9): { dif: Series; dea: Series; macd: Series } {
  const fast = ema(close, short)
  const slow = ema(close, long)
  const dif = map(close.length, (i) => fast[i] - slow[i])
  const dea = ema(dif, signal)
  return { dif, dea, macd: map(close.length, (i) => 2 * (dif[i] - dea[i])) }
}

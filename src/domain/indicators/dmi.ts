import { trueRange } from './atr'
import { ma, map, ratio, ref, sum, type Series } from './series'
import type { Ohlcv } from './bars'

/**
 * DMI(14, 6) with plain sums: PDI/MDI = 14-bar sum of +DM/−DM over the 14-bar sum of TR × 100
 * (a move counts only when it is positive and larger than the other; a tie counts for neither),
 * ADX = MA(|MDI − PDI| / (MDI + PDI) × 100, 6), ADXR = (ADX + ADX six bars back) / 2.
 */
export function dmi(b: Ohlcv, n = 14, m = 6): { pdi: Series; mdi: Series; adx: Series; adxr: Series } {
  const len = b.close.length
  const tr = sum(trueRange(b), n)
  const prevHigh = ref(b.high, 1)
  const prevLow = ref(b.low, 1)
  // On bar 0 there is no move (NaN compares false): 0, as MyTT's IF gives.
  const up = map(len, (i) => {
    const hd = b.high[i] - prevHigh[i]
    const ld = prevLow[i] - b.low[i]
    return hd > 0 && hd > ld ? hd : 0
  })
  const down = map(len, (i) => {
    const hd = b.high[i] - prevHigh[i]
    const ld = prevLow[i] - b.low[i]
    return ld > 0 && ld > hd ? ld : 0
  })
  const dmp = sum(up, n)
  const dmm = sum(down, n)
  const pdi = map(len, (i) => ratio(dmp[i] * 100, tr[i]))
  const mdi = map(len, (i) => ratio(dmm[i] * 100, tr[i]))
  const adx = ma(map(len, (i) => ratio(Math.abs(mdi[i] - pdi[i]), mdi[i] + pdi[i]) * 100), m)
  const back = ref(adx, m)
  return { pdi, mdi, adx, adxr: map(len, (i) => (adx[i] + back[i]) / 2) }
}

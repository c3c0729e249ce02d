import { map, ratio, ref, sum, type Series } from './series'
import type { Ohlcv } from './bars'

/**
 * BRAR(26): AR = ΣH − O / ΣO − L × 100; BR = Σmax(0, H − C′) / Σmax(0, C′ − L) × 100, C′ the
 * previous close (so BR starts a bar after AR), sums over 26 bars.
 */
export function brar(b: Ohlcv, n = 26): { ar: Series; br: Series } {
  const len = b.close.length
  const prev = ref(b.close, 1)
  const ho = sum(map(len, (i) => b.high[i] - b.open[i]), n)
  const ol = sum(map(len, (i) => b.open[i] - b.low[i]), n)
  const hc = sum(map(len, (i) => Math.max(0, b.high[i] - prev[i])), n)
  const cl = sum(map(len, (i) => Math.max(0, prev[i] - b.low[i])), n)
  return { ar: map(len, (i) => ratio(ho[i], ol[i]) * 100), br: map(len, (i) => ratio(hc[i], cl[i]) * 100) }
}

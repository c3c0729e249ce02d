import { map, ratio, ref, sma, type Series } from './series'

/**
 * RSI(n) = SMA(max(ΔC, 0), n, 1) / SMA(|ΔC|, n, 1) × 100, seeded with bar 1's change (not
 * Wilder's n-bar average); undefined while the price has never moved.
 */
export function rsi(close: Series, n: number): Series {
  const prev = ref(close, 1)
  const up = sma(map(close.length, (i) => Math.max(close[i] - prev[i], 0)), n)
  const all = sma(map(close.length, (i) => Math.abs(close[i] - prev[i])), n)
  return map(close.length, (i) => ratio(up[i], all[i]) * 100)
}

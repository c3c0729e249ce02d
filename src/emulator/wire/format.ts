/** Number formatting as the upstreams print it: fixed decimals, no binary noise, no `-0`. */

/** Rounds half away from zero at `decimals` places; 1.005 → 1.01 (binary noise removed first). */
export function round(n: number, decimals: number): number {
  const p = 10 ** decimals
  const r = Math.round(Number((Math.abs(n) * p).toPrecision(15))) / p
  return r === 0 ? 0 : Math.sign(n) * r
}

/** `n` with exactly `decimals` places: `fixed(1520, 2)` → `"1520.00"`. */
export function fixed(n: number, decimals: number): string {
  return round(n, decimals).toFixed(decimals)
}

/** Percent change of `value` against `base`, 0 when there is no base. */
export function pctOf(value: number, base: number): number {
  return base === 0 ? 0 : (value / base) * 100
}

/** A small stable hash of a string (FNV-1a), for deterministic filler fields. */
export function hashOf(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

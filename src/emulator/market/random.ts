/**
 * Seeded hashing: every random number in the simulated market is a pure function of a seed and a
 * few integers (day number, month index, purpose), so any bar can be recomputed in isolation,
 * identically in every isolate and run. No stateful generator anywhere.
 */

/** 32-bit FNV-1a of a string: the seed of an instrument or a market factor. */
export function hashString(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** murmur3's 32-bit finaliser: spreads every input bit over the output. */
function fmix(x: number): number {
  let h = x | 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A well-mixed unsigned 32-bit hash of a seed and up to three integer keys. */
export function hash(seed: number, a: number, b = 0, c = 0): number {
  let h = fmix(seed ^ 0x9e3779b9)
  h = fmix(Math.imul(h ^ a, 0xcc9e2d51) + 0x1b873593)
  h = fmix(Math.imul(h ^ b, 0xcc9e2d51) + 0xe6546b64)
  return fmix(Math.imul(h ^ c, 0xcc9e2d51) + 0x85ebca6b)
}

const TWO32 = 4_294_967_296

/** Uniform in [0, 1). */
export function uniform(seed: number, a: number, b = 0, c = 0): number {
  return hash(seed, a, b, c) / TWO32
}

const SQRT3 = Math.sqrt(3)

/**
 * A bounded, centred, unit-variance normal stand-in (Irwin–Hall sum of four uniforms).
 * Bounded by ±{@link BNORM_MAX}: price paths built from it can be capped by construction.
 */
export function bnorm(seed: number, a: number, b = 0, c = 0): number {
  const h1 = hash(seed, a, b, c)
  const h2 = fmix(h1 ^ 0x5bd1e995)
  const s = (h1 & 0xffff) + (h1 >>> 16) + (h2 & 0xffff) + (h2 >>> 16)
  return (s / 65536 - 2) * SQRT3
}

/** The largest |value| {@link bnorm} can return. */
export const BNORM_MAX = 2 * SQRT3

/** Integer in [0, n). */
export function pickIndex(seed: number, n: number, a: number, b = 0, c = 0): number {
  return Math.floor(uniform(seed, a, b, c) * n)
}

/**
 * Purpose tags, one per use, so two uses of the same (seed, day) never share a number.
 * Changing a value reshuffles that aspect of the market everywhere.
 */
export const SALT = {
  level: 1,
  trend: 2,
  step: 3,
  market: 4,
  day: 5,
  open: 6,
  high: 7,
  low: 8,
  volume: 9,
  vwap: 10,
  limitDay: 11,
  limitDir: 12,
  suspendWeek: 13,
  suspendDay: 14,
  dividend: 15,
  dividendDate: 16,
  dividendYield: 17,
  bonus: 18,
  bonusSize: 19,
  shares: 20,
  turnover: 21,
  sigma: 22,
  listDate: 23,
  name: 24,
  st: 25,
  minute: 26,
  minuteVolume: 27,
  extremes: 28,
  wick: 29,
  book: 30,
  pick: 31,
  amountPx: 32,
  auction: 33,
} as const

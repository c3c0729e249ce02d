/**
 * Helpers for this folder's tests: deterministic samples of instruments and months, so property
 * tests cover every kind without walking the whole market.
 */
import { hash } from './random'
import type { EmuInstrument } from './types'
import { universe } from './universe'

/** `n` instruments drawn deterministically, plus every non-stock kind at least `perKind` times. */
export function sampleInstruments(n: number, salt: number, perKind = 3): EmuInstrument[] {
  const list = universe().list
  const out = new Set<EmuInstrument>()
  for (let k = 0; k < n; k++) out.add(list[hash(salt, k) % list.length])
  const kinds = new Map<string, EmuInstrument[]>()
  for (const i of list) kinds.set(i.kind, [...(kinds.get(i.kind) ?? []), i])
  for (const group of kinds.values()) for (let k = 0; k < perKind; k++) out.add(group[hash(salt, k, 1) % group.length])
  return [...out]
}

/** Deterministic integer in [lo, hi]. */
export function pickInt(lo: number, hi: number, salt: number, k: number): number {
  return lo + (hash(salt, k, 2) % (hi - lo + 1))
}

/** True when `x` has at most `decimals` decimal places. */
export function onTick(x: number, decimals: number): boolean {
  const f = 10 ** decimals
  // Relative slack: a double holding 1234567890.12 is not exactly that many cents.
  return Math.abs(x * f - Math.round(x * f)) < Math.max(1e-6, Math.abs(x * f) * 1e-12)
}

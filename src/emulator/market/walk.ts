/**
 * The coarse price walk: one log-price anchor per month, A[m] = the walk's close on the last
 * session day before month m. Each month's days are later bridged from A[m] to A[m+1] (daily.ts),
 * so any bar needs only its own month and at most ~230 cheap anchor steps, never the history.
 */
import { LAST_MONTH, monthDays, monthStartDay } from './calendars'
import { eventSpecs } from './events'
import { walkLimit } from './limits'
import { Lru } from './lru'
import type { Profile } from './profiles'
import { bnorm, SALT } from './random'
import type { EmuInstrument } from './types'
import { cacheKeyOf } from './universe'

/** Month index of late 2026: the end of each instrument's trend line. */
export const TREND_MONTHS = 123

/** Share of the limit a walk day may use; the rest absorbs price rounding. */
export const LIMIT_SHARE = 0.9

/** Largest mean daily move in a month, as a share of the daily bound: leaves room for noise. */
const STEP_SHARE = 0.3

/** Daily bound of the walk in month `m` (log units): the tightest limit in force that month. */
export function monthBound(inst: EmuInstrument, days: Int32Array): number {
  const l = Math.min(walkLimit(inst, days[0]), walkLimit(inst, days[days.length - 1]))
  return LIMIT_SHARE * Math.log(1 + l)
}

/** Room for every instrument's anchors (under 1 KB each as float32). */
const cache = new Lru<string, Float32Array>(8192)

/** Anchors A[0 … LAST_MONTH + 1] of an instrument (float32: plenty for a log price, half the memory). */
export function anchors(inst: EmuInstrument, p: Profile): Float32Array {
  let a = cache.get(cacheKeyOf(inst))
  if (a) return a
  a = new Float32Array(LAST_MONTH + 2)
  // Expected cumulative adjustment factor: the raw price is walk × factor, and the floor is on raw.
  const specs = eventSpecs(inst, p)
  let spec = 0
  let factor = 1
  const trend = (m: number) => p.logStart + ((p.logEnd - p.logStart) * Math.min(m, TREND_MONTHS)) / TREND_MONTHS
  const idio = Math.sqrt(1 - p.beta * p.beta)
  a[0] = Math.max(p.logStart, Math.log(p.floor) + 0.1)
  for (let m = 0; m <= LAST_MONTH; m++) {
    const days = monthDays(p.calendar, m)
    const next = monthStartDay(m + 1)
    while (spec < specs.length && specs[spec].exDay < next) {
      factor *= (1 - specs[spec].yield) / (1 + specs[spec].bonus)
      spec++
    }
    const z = p.beta * bnorm(p.market, SALT.market, m) + idio * bnorm(p.seed, SALT.step, m)
    let step = trend(m + 1) - trend(m) + p.kappa * (trend(m) - a[m]) + p.sigma * z
    const cap = STEP_SHARE * monthBound(inst, days) * days.length
    step = Math.max(-cap, Math.min(cap, step))
    // Reflect off the floor, but never by more than the cap allows in one month.
    const floor = Math.log(p.floor / factor)
    a[m + 1] = Math.max(a[m] + step, Math.min(floor, a[m] + cap))
  }
  cache.set(cacheKeyOf(inst), a)
  return a
}

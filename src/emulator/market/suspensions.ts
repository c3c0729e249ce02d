/**
 * Trading suspensions (停牌): about 1% of stock days. At most one day a week, only Tuesday to
 * Thursday, never the first or last session day of a month and never the first bar. Why so
 * constrained: two suspended days in a row would let the price gap further than the limit allows
 * between two bars, and a month's first and last bars anchor the walk (see daily.ts).
 */
import { hash, SALT, uniform } from './random'
import type { Profile } from './profiles'

/** True when the instrument is suspended on `day`, a session day of month `days`. */
export function isSuspended(p: Profile, day: number, days: Int32Array): boolean {
  if (p.suspendProb === 0) return false
  const w = (day + 4) % 7
  if (w < 2 || w > 4) return false
  const week = Math.floor((day + 3) / 7)
  if (uniform(p.seed, SALT.suspendWeek, week) >= p.suspendProb) return false
  if (w !== 2 + (hash(p.seed, SALT.suspendDay, week) % 3)) return false
  return day !== days[0] && day !== days[days.length - 1] && day !== p.firstDay
}

/** True when the instrument has a bar on `day`, a session day of month `days`. */
export function isBarDay(p: Profile, day: number, days: Int32Array): boolean {
  return day >= p.firstDay && day <= p.lastDay && !isSuspended(p, day, days)
}

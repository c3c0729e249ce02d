import { beijing } from './dates'

const DAY_MS = 86_400_000
const OFFSET_MS = 8 * 3_600_000

/** The Beijing date of an instant, `YYYY-MM-DD`: daily quotas reset at Beijing midnight. */
export function beijingDay(ms: number): string {
  // Called several times per admitted request: remember the last day instead of formatting a Date.
  const n = Math.floor((ms + OFFSET_MS) / DAY_MS)
  if (n !== lastDay.n) lastDay = { n, date: beijing(ms).date }
  return lastDay.date
}
let lastDay = { n: Number.NaN, date: '' }

/** Epoch ms of the next Beijing midnight after `ms`. */
export function nextBeijingMidnight(ms: number): number {
  return Math.floor((ms + OFFSET_MS) / DAY_MS) * DAY_MS + DAY_MS - OFFSET_MS
}

import { beijing } from './dates'

const DAY_MS = 86_400_000
const OFFSET_MS = 8 * 3_600_000

/** The Beijing date of an instant, `YYYY-MM-DD`: daily quotas reset at Beijing midnight. */
export const beijingDay = (ms: number): string => beijing(ms).date

/** Epoch ms of the next Beijing midnight after `ms`. */
export function nextBeijingMidnight(ms: number): number {
  return Math.floor((ms + OFFSET_MS) / DAY_MS) * DAY_MS + DAY_MS - OFFSET_MS
}

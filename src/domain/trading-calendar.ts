import { SSE_HOLIDAYS } from '../data/holidays'
import { addDays, dayNumber, fromDayNumber, weekday } from './dates'

const holidaySet = new Set(Object.values(SSE_HOLIDAYS).flat())

/** True when the Shanghai/Shenzhen exchanges trade on `date` (`YYYY-MM-DD`). */
export function isTradingDay(date: string): boolean {
  const w = weekday(date)
  return w !== 0 && w !== 6 && !holidaySet.has(date)
}

/**
 * Answers already walked, by date: whole-market scans ask for the same few thousand days over and
 * over. Dates come from validated input, so the map stays small; the cap only guards an isolate
 * that lives for years.
 */
const onOrBefore = new Map<string, string>()
const MEMO_CAP = 100_000

/** The trading day on or before `date`. */
export function tradingDayOnOrBefore(date: string): string {
  const hit = onOrBefore.get(date)
  if (hit !== undefined) return hit
  let d = date
  while (!isTradingDay(d)) d = addDays(d, -1)
  if (onOrBefore.size >= MEMO_CAP) onOrBefore.clear()
  onOrBefore.set(date, d)
  return d
}

const strictlyBefore = new Map<string, string>()

/** The trading day strictly before `date` (memoised as {@link tradingDayOnOrBefore}: every live quote asks it). */
export function previousTradingDay(date: string): string {
  const hit = strictlyBefore.get(date)
  if (hit !== undefined) return hit
  const d = tradingDayOnOrBefore(addDays(date, -1))
  if (strictlyBefore.size >= MEMO_CAP) strictlyBefore.clear()
  strictlyBefore.set(date, d)
  return d
}

/** The trading day on or after `date`. */
export function tradingDayOnOrAfter(date: string): string {
  let d = date
  while (!isTradingDay(d)) d = addDays(d, 1)
  return d
}

/** Trading days in `[from, to]`, ascending. */
export function tradingDaysBetween(from: string, to: string): string[] {
  const out: string[] = []
  for (let n = dayNumber(from), end = dayNumber(to); n <= end; n++) {
    const d = fromDayNumber(n)
    if (isTradingDay(d)) out.push(d)
  }
  return out
}

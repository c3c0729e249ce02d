/**
 * Which days each market trades, and the month grid the price walk is built on. A-shares (and
 * futures) follow the exchange calendar in src/data/holidays.ts; HK, US and forex have their own
 * simplified calendars. Month index 0 is 2016-08, the month the served history starts in.
 */
import { SSE_HOLIDAYS } from '../../data/holidays'
import { dayNumber, fromDayNumber, weekday } from '../../domain/dates'
import { isTradingDay } from '../../domain/trading-calendar'

export type CalendarKind = 'cn' | 'hk' | 'us' | 'fx'

/** A-share closures in January and February other than New Year: the Spring Festival week. */
const springFestival = new Set(
  Object.values(SSE_HOLIDAYS)
    .flat()
    .filter((d) => (d.slice(5, 7) === '01' && +d.slice(8) > 3) || d.slice(5, 7) === '02')
)

/** Day of month of the 4th Thursday of November. */
function thanksgiving(year: number): number {
  const first = weekday(`${year}-11-01`)
  return 1 + ((4 - first + 7) % 7) + 21
}

/** True when the market of `cal` trades on `date` (`YYYY-MM-DD`). */
export function isSessionDay(cal: CalendarKind, date: string): boolean {
  if (cal === 'cn') return isTradingDay(date)
  const w = weekday(date)
  if (w === 0 || w === 6) return false
  const md = date.slice(5)
  switch (cal) {
    case 'fx':
      return true
    case 'hk':
      return md !== '01-01' && md !== '12-25' && md !== '12-26' && !springFestival.has(date)
    case 'us':
      if (md === '01-01' || md === '07-04' || md === '12-25') return false
      return !(md.startsWith('11-') && +md.slice(3) === thanksgiving(+date.slice(0, 4)))
  }
}

/** Months since 2016-08 (negative before). */
export function monthIndex(date: string): number {
  return (+date.slice(0, 4) - 2016) * 12 + (+date.slice(5, 7) - 8)
}

/** `YYYY-MM-01` of a month index. */
export function monthStart(m: number): string {
  const t = m + 7
  const y = 2016 + Math.floor(t / 12)
  const mo = (((t % 12) + 12) % 12) + 1
  return `${y}-${String(mo).padStart(2, '0')}-01`
}

/** Last month the model covers (2030-12): far past any clock the emulator is set to. */
export const LAST_MONTH = monthIndex('2030-12-01')

const DAY_MS = 86_400_000

/** Day number of the first day of month `m`. */
export function monthStartDay(m: number): number {
  return Math.floor(Date.UTC(2016, 7 + m, 1) / DAY_MS)
}

/** Month index of a day number (integer civil-from-days; no Date, no strings: it is on hot paths). */
export function monthOfDay(day: number): number {
  const z = day + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  return (year - 2016) * 12 + (month - 8)
}

const DATE_BASE = dayNumber('2010-01-01')
const dateStrings: string[] = []

/** `YYYY-MM-DD` of a day number, memoised for the modelled years (bars print millions of them). */
export function dateOf(day: number): string {
  const k = day - DATE_BASE
  if (k < 0 || k > 10_000) return fromDayNumber(day)
  return (dateStrings[k] ??= fromDayNumber(day))
}

const monthCache: Record<CalendarKind, Int32Array[]> = { cn: [], hk: [], us: [], fx: [] }
const MONTH_BASE = 400

/** Session days (day numbers, ascending) of month `m` on calendar `cal`. Cached: a few KB total. */
export function monthDays(cal: CalendarKind, m: number): Int32Array {
  const k = m + MONTH_BASE
  let days = monthCache[cal][k]
  if (!days) {
    const start = monthStartDay(m)
    const end = monthStartDay(m + 1)
    const out: number[] = []
    for (let n = start; n < end; n++) if (isSessionDay(cal, fromDayNumber(n))) out.push(n)
    days = Int32Array.from(out)
    if (k >= 0) monthCache[cal][k] = days
  }
  return days
}

/** True when `day` (a day number) is a session day of `cal`. */
export function isSession(cal: CalendarKind, day: number): boolean {
  const days = monthDays(cal, monthOfDay(day))
  for (let i = 0; i < days.length; i++) if (days[i] >= day) return days[i] === day
  return false
}

/** The session day on or before `day` (day numbers), searching at most 40 days back; -1 if none. */
export function sessionDayOnOrBefore(cal: CalendarKind, day: number): number {
  for (let n = day; n > day - 40; n--) if (isSession(cal, n)) return n
  return -1
}

/** The session day on or after `day` (day numbers). */
export function sessionDayOnOrAfter(cal: CalendarKind, day: number): number {
  let n = day
  while (!isSession(cal, n)) n++
  return n
}

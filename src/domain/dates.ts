/** Date helpers on `YYYY-MM-DD` strings and Beijing wall time (UTC+8, no DST). */

const DAY_MS = 86_400_000
const BEIJING_OFFSET_MS = 8 * 3_600_000

/** Days since 1970-01-01 for a `YYYY-MM-DD` string. */
export function dayNumber(date: string): number {
  return Math.floor(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS)
}

/** `YYYY-MM-DD` for a day number (see {@link dayNumber}). */
export function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10)
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days)
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return (dayNumber(date) + 4) % 7
}

/** Beijing date and minute-of-day for an instant. */
export function beijing(ms: number): { date: string; minute: number; time: string } {
  const d = new Date(ms + BEIJING_OFFSET_MS)
  const iso = d.toISOString()
  return { date: iso.slice(0, 10), minute: d.getUTCHours() * 60 + d.getUTCMinutes(), time: iso.slice(11, 19) }
}

/** Strict `YYYY-MM-DD` that names a real calendar day. */
export function isValidDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  return fromDayNumber(dayNumber(s)) === s
}

/** Every date of a month (1–12), ascending. */
export function datesOfMonth(year: number, month: number): string[] {
  const pad = (n: number) => String(n).padStart(2, '0')
  const first = dayNumber(`${year}-${pad(month)}-01`)
  const next = month === 12 ? dayNumber(`${year + 1}-01-01`) : dayNumber(`${year}-${pad(month + 1)}-01`)
  const out: string[] = []
  for (let n = first; n < next; n++) out.push(fromDayNumber(n))
  return out
}

/** `YYYYMMDD` form used by Eastmoney. */
export const compact = (date: string) => date.replaceAll('-', '')

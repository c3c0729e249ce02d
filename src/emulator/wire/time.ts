/**
 * Exchange wall time ↔ instants for the wire formats. CN and HK run on UTC+8; US listings and
 * indexes on US Eastern with daylight saving (second Sunday of March to first Sunday of November).
 */
import { dayNumber, fromDayNumber, weekday } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'

const HOUR_MS = 3_600_000

/** `YYYY-MM-DD` of the n-th Sunday of a month (1-based month). */
function nthSunday(year: number, month: number, n: number): string {
  const first = `${year}-${String(month).padStart(2, '0')}-01`
  return fromDayNumber(dayNumber(first) + ((7 - weekday(first)) % 7) + (n - 1) * 7)
}

/** UTC offset in hours of US Eastern wall time on `date` (−4 in daylight saving, else −5). */
export function easternOffset(date: string): number {
  const y = Number(date.slice(0, 4))
  return date >= nthSunday(y, 3, 2) && date < nthSunday(y, 11, 1) ? -4 : -5
}

/** UTC offset in hours of the instrument's exchange clock on `date`. */
function exchangeOffset(inst: Instrument, date: string): number {
  return inst.prefix === 'us' ? easternOffset(date) : 8
}

/** The instant (epoch ms) of exchange wall time `date` `time` (`HH:MM:SS`). */
export function exchangeInstant(inst: Instrument, date: string, time: string): number {
  const [h, m, s] = time.split(':').map(Number)
  const local = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10), h, m, s || 0)
  return local - exchangeOffset(inst, date) * HOUR_MS
}

/** `YYYY-MM-DD HH:MM:SS` in Beijing time for an instant. */
export function beijingDateTime(ms: number): string {
  return new Date(ms + 8 * HOUR_MS).toISOString().slice(0, 19).replace('T', ' ')
}

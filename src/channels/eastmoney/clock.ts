import { beijing } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'

const HOUR_MS = 3_600_000

/** Day of month of the n-th Sunday of a month (month 0-based). */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay()
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7
}

/** US Eastern offset from UTC in hours: EDT from the second Sunday of March to the first Sunday of November, 02:00 local. */
function easternOffset(ms: number): number {
  const y = new Date(ms).getUTCFullYear()
  const dstStart = Date.UTC(y, 2, nthSunday(y, 2, 2), 7)
  const dstEnd = Date.UTC(y, 10, nthSunday(y, 10, 1), 6)
  return ms >= dstStart && ms < dstEnd ? -4 : -5
}

/**
 * Wall-clock date (`YYYY-MM-DD`) and time (`HH:MM:SS`) of a Unix-seconds stamp where the
 * instrument trades: US Eastern for US listings and indexes, Beijing for everything else
 * (HK shares Beijing's UTC+8).
 */
export function exchangeClock(inst: Instrument, unixSeconds: number): { date: string; time: string } {
  const ms = unixSeconds * 1000
  if (inst.prefix !== 'us') {
    const { date, time } = beijing(ms)
    return { date, time }
  }
  const iso = new Date(ms + easternOffset(ms) * HOUR_MS).toISOString()
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) }
}

/**
 * The one form of an instant in our answers (`as_of`, `computed_at`, `fetched_at`, …): ISO 8601
 * with its offset, seconds precision, `2026-11-20T10:30:03+08:00`. Never `Z`, never milliseconds.
 * A session or report date stays `YYYY-MM-DD`.
 */

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

/** Beijing's (and Hong Kong's) offset from UTC, in minutes. */
const BEIJING_OFFSET_MINUTES = 480

const pad = (n: number) => String(n).padStart(2, '0')

/** `+08:00`, `-05:00`: an offset in minutes as ISO 8601 writes it. */
function offsetText(offsetMinutes: number): string {
  const m = Math.abs(offsetMinutes)
  return `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(m / 60))}:${pad(m % 60)}`
}

/** The instant `ms` (epoch milliseconds) at the wall clock `offsetMinutes` east of UTC, to the second (truncated). */
export function isoInstant(ms: number, offsetMinutes: number = BEIJING_OFFSET_MINUTES): string {
  const local = Math.floor(ms / 1000) * 1000 + offsetMinutes * MINUTE_MS
  return new Date(local).toISOString().slice(0, 19) + offsetText(offsetMinutes)
}

/** A Beijing wall-clock date (`YYYY-MM-DD`) and time (`HH:MM:SS` or `HH:MM`) as an instant. */
export function beijingInstant(date: string, time: string): string {
  return wallInstant(date, time, BEIJING_OFFSET_MINUTES)
}

/** An instant kept in another ISO 8601 form (a stored record's UTC `…T11:00:00.000Z`) in the one form, Beijing. */
export function reformInstant(iso: string): string {
  return isoInstant(Date.parse(iso))
}

/** A Beijing stamp `YYYY-MM-DD HH:MM:SS` (an upstream's, a snapshot's `time`) as an instant. */
export function beijingStampInstant(stamp: string): string {
  return beijingInstant(stamp.slice(0, 10), stamp.slice(11))
}

/** A wall-clock date and time (`HH:MM:SS` or `HH:MM`) `offsetMinutes` east of UTC as an instant. */
function wallInstant(date: string, time: string, offsetMinutes: number): string {
  return `${date}T${time.length === 5 ? time + ':00' : time}${offsetText(offsetMinutes)}`
}

/** Day of month of the n-th Sunday of a month (month 0-based). */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay()
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7
}

/** US Eastern offset from UTC in minutes at the instant `ms`: EDT (-240) from the second Sunday of March to the first Sunday of November, 02:00 local; EST (-300) otherwise. */
export function easternOffsetMinutes(ms: number): number {
  const y = new Date(ms).getUTCFullYear()
  const dstStart = Date.UTC(y, 2, nthSunday(y, 2, 2), 7)
  const dstEnd = Date.UTC(y, 10, nthSunday(y, 10, 1), 6)
  return ms >= dstStart && ms < dstEnd ? -240 : -300
}

/**
 * A US Eastern wall-clock date and time as an instant with its own offset (`-04:00` under DST,
 * `-05:00` otherwise). The hour repeated when DST ends reads as EDT's.
 */
export function easternInstant(date: string, time: string): string {
  const wall = Date.parse(`${date}T${time.length === 5 ? time + ':00' : time}Z`)
  // EDT first: a wall time that is EDT lands inside DST when read as -04:00.
  const offset = easternOffsetMinutes(wall + 4 * HOUR_MS) === -240 ? -240 : easternOffsetMinutes(wall + 5 * HOUR_MS)
  return wallInstant(date, time, offset)
}

/**
 * An instrument's quote (or minute bar) time stamp as an instant: its exchange's wall clock, US
 * Eastern for US listings and indexes, Beijing for everything else (A-shares, Hong Kong, whose
 * clock is Beijing's, futures and forex, whose lines carry Beijing time).
 */
export function exchangeInstant(prefix: string, date: string, time: string): string {
  return prefix === 'us' ? easternInstant(date, time) : beijingInstant(date, time)
}

/**
 * A quote's `as_of`: its exchange-time stamp as an instant when the line carries a time, else its
 * date (the session it belongs to).
 */
export function quoteAsOf(prefix: string, date: string, time: string | null): string {
  return time ? exchangeInstant(prefix, date, time) : date
}

/**
 * A bar's `date` as an `as_of`: a day (or longer) bar's `YYYY-MM-DD` stays a date; a minute bar's
 * `YYYY-MM-DD HH:MM` (bar end, exchange time) becomes an instant.
 */
export function barAsOf(prefix: string, date: string): string {
  return date.length > 10 ? exchangeInstant(prefix, date.slice(0, 10), date.slice(11)) : date
}

/** Epoch milliseconds of an instant in the form above (or any ISO 8601 with offset); a bare date reads as its UTC midnight. */
export const instantMs = (instant: string): number => Date.parse(instant)

/** The newest of several `as_of` values by the instant they name (not by their text: offsets differ). */
export function newestAsOf(values: readonly string[]): string | undefined {
  let best: string | undefined
  for (const v of values) if (best === undefined || instantMs(v) > instantMs(best)) best = v
  return best
}

/** The oldest of several `as_of` values by the instant they name. */
export function oldestAsOf(values: readonly string[]): string | undefined {
  let best: string | undefined
  for (const v of values) if (best === undefined || instantMs(v) < instantMs(best)) best = v
  return best
}

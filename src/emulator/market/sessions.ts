/**
 * Trading hours and exchange clocks. A-share kinds and futures trade 09:30–11:30 and 13:00–15:00
 * Beijing; HK 09:30–12:00 and 13:00–16:00 (HK time = Beijing time); US 09:30–16:00 US Eastern
 * (with daylight saving); forex, which really trades round the clock, is modelled as one
 * 07:00–23:00 Beijing session so that each Beijing weekday is one trading date (ours).
 */
import { dayNumber } from '../../domain/dates'
import type { InstrumentKind } from '../../domain/instrument'
import type { CalendarKind } from './calendars'

export type Clock = 'beijing' | 'eastern'

export interface SessionSpec {
  clock: Clock
  /** [open, close] in minutes of the exchange day; one-minute bars end at open+1 … close. */
  halves: ReadonlyArray<readonly [number, number]>
  /** One-minute bars per day. */
  minutes: number
  /** First open and last close of the day. */
  open: number
  close: number
}

function spec(clock: Clock, halves: Array<[number, number]>): SessionSpec {
  return {
    clock,
    halves,
    minutes: halves.reduce((n, [a, b]) => n + b - a, 0),
    open: halves[0][0],
    close: halves[halves.length - 1][1],
  }
}

const CN = spec('beijing', [[570, 690], [780, 900]])
const HK = spec('beijing', [[570, 720], [780, 960]])
const US = spec('eastern', [[570, 960]])
const FX = spec('beijing', [[420, 1380]])

/** The trading session of an instrument kind. */
export function sessionFor(kind: InstrumentKind): SessionSpec {
  switch (kind) {
    case 'hk':
      return HK
    case 'us':
    case 'us-index':
      return US
    case 'forex':
      return FX
    default:
      return CN
  }
}

/** The trading calendar of an instrument kind. */
export function calendarFor(kind: InstrumentKind): CalendarKind {
  switch (kind) {
    case 'hk':
      return 'hk'
    case 'us':
    case 'us-index':
      return 'us'
    case 'forex':
      return 'fx'
    default:
      return 'cn'
  }
}

const HOUR = 3_600_000

/** n-th Sunday (1-based) of a month, as a day of month. */
function nthSunday(year: number, month0: number, n: number): number {
  const first = new Date(Date.UTC(year, month0, 1)).getUTCDay()
  return 1 + ((7 - first) % 7) + 7 * (n - 1)
}

/** US Eastern offset from UTC in hours at an instant: -4 in daylight saving time, else -5. */
export function easternOffsetHours(ms: number): number {
  const y = new Date(ms).getUTCFullYear()
  // DST runs from 02:00 EST on the second Sunday of March to 02:00 EDT on the first Sunday of November.
  const start = Date.UTC(y, 2, nthSunday(y, 2, 2), 7)
  const end = Date.UTC(y, 10, nthSunday(y, 10, 1), 6)
  return ms >= start && ms < end ? -4 : -5
}

/** Wall time of an exchange at an instant. */
export interface ExchangeTime {
  date: string
  /** Day number of `date`. */
  day: number
  /** Whole minutes since local midnight. */
  minute: number
  /** `HH:MM:SS`. */
  time: string
}

/** The exchange's local date and time at `ms` (epoch milliseconds). */
export function exchangeTime(clock: Clock, ms: number): ExchangeTime {
  const offset = clock === 'beijing' ? 8 : easternOffsetHours(ms)
  const d = new Date(ms + offset * HOUR)
  const iso = d.toISOString()
  const date = iso.slice(0, 10)
  return { date, day: dayNumber(date), minute: d.getUTCHours() * 60 + d.getUTCMinutes(), time: iso.slice(11, 19) }
}

/** `HH:MM` of a minute of the day. */
export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
}

const endsCache = new Map<SessionSpec, Int16Array>()

/** End minute of each one-minute bar of the day, in order (09:31 … 11:30, 13:01 … 15:00 for A-shares). */
export function minuteEnds(s: SessionSpec): Int16Array {
  let ends = endsCache.get(s)
  if (!ends) {
    ends = new Int16Array(s.minutes)
    let i = 0
    for (const [a, b] of s.halves) for (let t = a + 1; t <= b; t++) ends[i++] = t
    endsCache.set(s, ends)
  }
  return ends
}

/**
 * Where a session day stands at an exchange time: not yet traded, open (from the day's first
 * trade `firstTrade`, by default the open, through the lunch break) or closed. Days before `now`'s
 * date are closed, later days not yet open.
 */
export function phase(s: SessionSpec, day: number, now: ExchangeTime, firstTrade = s.open): 'before' | 'open' | 'closed' {
  if (day < now.day) return 'closed'
  if (day > now.day) return 'before'
  if (now.minute < firstTrade) return 'before'
  return now.minute < s.close ? 'open' : 'closed'
}

import { addDays } from '../domain/dates'
import { tradingDaysBetween } from '../domain/trading-calendar'

export interface Span {
  count: number
  start?: string
  end?: string
}

/**
 * How many of the most recent bars to ask for from an upstream that only serves "the last n
 * bars", so that the `count` most recent bars within `[start, end]` are among them. Counts on
 * the SSE calendar; a day it does not know is counted as trading, which only over-fetches.
 */
export function barsToFetch(span: Span, barsPerDay: number, today: string, cap = Infinity): number {
  const last = span.end !== undefined && span.end < today ? span.end : today
  // Bars newer than `end` come back too and are dropped afterwards.
  const after = last < today ? tradingDaysBetween(addDays(last, 1), today).length * barsPerDay : 0
  const inRange = span.start !== undefined ? tradingDaysBetween(span.start, last).length * barsPerDay : Infinity
  return Math.max(1, Math.min(cap, after + Math.min(span.count, inRange)))
}

/** Keeps bars whose date (or the date part of a minute bar) lies in `[start, end]`, then the last `count`. */
export function clip<T extends { date: string }>(bars: T[], span: Span): T[] {
  const inside = bars.filter((b) => {
    const day = b.date.slice(0, 10)
    return (span.start === undefined || day >= span.start) && (span.end === undefined || day <= span.end)
  })
  return inside.slice(Math.max(0, inside.length - span.count))
}

/**
 * Bar arithmetic the upstreams do before printing: price adjustment (qfq/hfq) and aggregation of
 * daily bars into weeks, months, quarters and years.
 */
import { addDays, beijing, dayNumber, fromDayNumber, weekday } from '../../domain/dates'
import type { EmuInstrument, MarketModel, RawBar } from '../market/types'
import { fixed, round } from './format'

export type Adjust = 'none' | 'qfq' | 'hfq'

/**
 * The forward-adjustment factor of `date` as known at `now`: ex-dates after the clock have not
 * been announced yet, so the factor is relative to today's (the model's factor covers all time).
 */
export function qfqAsOf(market: MarketModel, inst: EmuInstrument, date: string, now: number): number {
  return market.qfqFactor(inst, date) / market.qfqFactor(inst, beijing(now).date)
}

/**
 * The factor Sina's qfq.js publishes for `date`: 1 / qfqFactor as of `now`, to 6 decimals.
 * Forward-adjusted prices everywhere are raw ÷ this factor, so every upstream (and a client that
 * adjusts Sina's raw bars itself) agrees to the last decimal.
 */
export function sinaQfqFactor(market: MarketModel, inst: EmuInstrument, date: string, now: number): number {
  return Number(fixed(1 / qfqAsOf(market, inst, date, now), 6))
}

/**
 * Adjusts each bar's prices (and its previous close) with the factor of its date, rounded to the
 * instrument's decimals as the upstreams print adjusted prices: qfq = raw ÷ {@link sinaQfqFactor},
 * hfq = raw × hfqFactor. Volume, amount and turnover are unchanged.
 */
export function adjustBars(bars: readonly RawBar[], inst: EmuInstrument, market: MarketModel, how: Adjust, now: number): RawBar[] {
  if (how === 'none') return bars.slice()
  const p = 10 ** inst.decimals
  return bars.map((b) => {
    const day = b.date.slice(0, 10)
    const f = how === 'qfq' ? sinaQfqFactor(market, inst, day, now) : market.hfqFactor(inst, day)
    if (f === 1) return b
    // qfq with the same arithmetic as a client applying Sina's factors: Math.round(raw / f × 10^d) / 10^d.
    const adj = how === 'qfq' ? (x: number) => Math.round((x / f) * p) / p : (x: number) => round(x * f, inst.decimals)
    return { ...b, open: adj(b.open), high: adj(b.high), low: adj(b.low), close: adj(b.close), preClose: adj(b.preClose) }
  })
}

export type Span = 'week' | 'month' | 'quarter' | 'year'

/** The bucket a date falls in: weeks run Monday to Sunday, quarters are calendar quarters. */
export function spanKey(date: string, span: Span): string {
  switch (span) {
    case 'week':
      // The Monday of the week.
      return fromDayNumber(dayNumber(date) - ((weekday(date) + 6) % 7))
    case 'month':
      return date.slice(0, 7)
    case 'quarter':
      return `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`
    case 'year':
      return date.slice(0, 4)
  }
}

/**
 * Merges daily bars (oldest first) into one bar per span, dated by its last trading day: open of
 * the first day, close of the last, extreme high and low, summed volume, amount and turnover
 * (null when any day has none), previous close of the first day.
 */
export function aggregateBars(bars: readonly RawBar[], span: Span): RawBar[] {
  const out: RawBar[] = []
  let key = ''
  for (const b of bars) {
    const k = spanKey(b.date, span)
    const last = out[out.length - 1]
    if (last && k === key) {
      last.date = b.date
      last.close = b.close
      last.high = Math.max(last.high, b.high)
      last.low = Math.min(last.low, b.low)
      last.volume += b.volume
      last.amount += b.amount
      last.turnover = last.turnover === null || b.turnover === null ? null : last.turnover + b.turnover
    } else {
      out.push({ ...b })
      key = k
    }
  }
  return out
}

/** A bar with the close it is measured against: the previous bar's, or its own `preClose` for the first. */
export interface BarWithBase {
  bar: RawBar
  base: number
}

/** Pairs each bar with the previous bar's close (the first with its `preClose`). */
export function withBase(bars: readonly RawBar[]): BarWithBase[] {
  return bars.map((bar, i) => ({ bar, base: i === 0 ? bar.preClose : bars[i - 1].close }))
}

/**
 * The most recent `limit` items whose date (day part) is within [from, to]; all of them when
 * `limit` is undefined.
 */
export function lastInRange<T extends { bar: RawBar }>(items: readonly T[], from: string, to: string, limit?: number): T[] {
  const kept = items.filter(({ bar }) => {
    const d = bar.date.slice(0, 10)
    return d >= from && d <= to
  })
  return limit === undefined || kept.length <= limit ? kept : kept.slice(kept.length - limit)
}

/** Calendar days one bar of each length spans, for sizing fetch windows. */
const SPAN_DAYS: Record<Span | 'day', number> = { day: 1, week: 7, month: 31, quarter: 92, year: 366 }

/** The first calendar day of the span holding `date` (the date itself for days). */
export function spanStart(date: string, span: Span | 'day'): string {
  switch (span) {
    case 'day':
      return date
    case 'week':
      return spanKey(date, 'week')
    case 'month':
      return date.slice(0, 8) + '01'
    case 'quarter':
      return `${date.slice(0, 5)}${String(Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`
    case 'year':
      return date.slice(0, 4) + '-01-01'
  }
}

/**
 * Adjusted daily bars (aggregated to `span`) enough to answer "the most recent `limit` bars dated
 * within [from, to]" together with the bar before them, whose close is their base. Instead of the
 * whole history it fetches a window back from `to` (from `from` without a limit), starting on a span
 * boundary so the first aggregated bar is whole, and doubles it until the answer is inside.
 * History is cut at `to` (or today): a week or month cut there ends on its last day up to `to`,
 * just as the current week ends today.
 */
export function dailySeries(
  market: MarketModel,
  inst: EmuInstrument,
  span: Span | 'day',
  adjust: Adjust,
  range: { from: string; to: string; limit?: number },
  now: number
): RawBar[] {
  const today = beijing(now).date
  const end = range.to < today ? range.to : today
  const floor = inst.listDate
  const anchor = range.limit === undefined ? range.from : end
  let back = range.limit === undefined ? 2 * SPAN_DAYS[span] + 14 : Math.ceil((range.limit + 2) * SPAN_DAYS[span] * 1.6) + 14
  for (;;) {
    const start = anchor <= floor ? floor : spanStart(addDays(anchor, -back), span)
    const days = adjustBars(market.dailyBars(inst, start < floor ? floor : start, end, now), inst, market, adjust, now)
    const bars = span === 'day' ? days : aggregateBars(days, span)
    if (start <= floor) return bars
    // The window is a suffix of the history up to `end`: it answers once it holds a bar before
    // `from` (so the whole range and its base), or `limit` bars in range plus one more.
    if (bars.length && bars[0].date.slice(0, 10) < range.from) return bars
    if (range.limit !== undefined && bars.filter((b) => b.date >= range.from).length > range.limit) return bars
    back *= 2
  }
}

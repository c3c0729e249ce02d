/**
 * Change over the last `n` sessions (Eastmoney's list fields f109 = 5 days, f160 = 10 days):
 * the newest bar's close (today's partial bar during a session) against the close `n` bars
 * before it, in percent. From the same daily bars every other view shows; pure.
 */
import { addDays, beijing } from '../../domain/dates'
import type { EmuInstrument, MarketModel } from './types'

/** Calendar days looked back per session asked: generous enough for the longest holiday. */
const DAYS_PER_SESSION = 2
const SLACK_DAYS = 15

/** Percent change over `n` sessions at `now`, or null when the instrument has fewer bars. */
export function changeOverSessions(market: MarketModel, inst: EmuInstrument, n: number, now: number): number | null {
  const today = beijing(now).date
  const bars = market.dailyBars(inst, addDays(today, -(n * DAYS_PER_SESSION + SLACK_DAYS)), today, now)
  const last = bars[bars.length - 1]
  const base = bars[bars.length - 1 - n]
  if (!last || !base || base.close <= 0) return null
  return ((last.close - base.close) / base.close) * 100
}

/**
 * Percent change year to date at `now` (Eastmoney's list field f25): the newest bar's close
 * against the last close of the previous calendar year, or null when the instrument has no bar
 * before this year.
 */
export function changeSinceYearStart(market: MarketModel, inst: EmuInstrument, now: number): number | null {
  const today = beijing(now).date
  const yearStart = `${today.slice(0, 4)}-01-01`
  const bars = market.dailyBars(inst, addDays(yearStart, -SLACK_DAYS), today, now)
  const last = bars[bars.length - 1]
  let base: (typeof bars)[number] | undefined
  for (const b of bars) if (b.date < yearStart) base = b
  if (!last || !base || base.close <= 0) return null
  return ((last.close - base.close) / base.close) * 100
}

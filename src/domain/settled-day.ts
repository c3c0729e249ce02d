/**
 * When a trading day's bars are final. The continuous session ends at 15:00 Beijing, but the
 * STAR and ChiNext after-hours fixed-price session (盘后固定价格交易) adds volume until 15:30, so
 * the jobs treat a day as settled from 15:30 on. Before that, today's bar is still moving and is
 * neither stored nor served as history.
 */
import { beijing } from './dates'
import { isTradingDay, previousTradingDay } from './trading-calendar'

/** Minute of the Beijing day from which today's bars are final. */
export const SETTLED_MINUTE = 15 * 60 + 30

/** True when `now` is on a trading day at or after the settle time. */
export function isSettled(now: number): boolean {
  const { date, minute } = beijing(now)
  return isTradingDay(date) && minute >= SETTLED_MINUTE
}

/** The newest trading day whose bars are final at `now`. */
export function lastSettledDay(now: number): string {
  const { date } = beijing(now)
  return isSettled(now) ? date : previousTradingDay(date)
}

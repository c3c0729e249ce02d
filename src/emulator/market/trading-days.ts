/** Stepping over the Shanghai/Shenzhen trading calendar by whole sessions. */
import { addDays } from '../../domain/dates'
import { isTradingDay, tradingDayOnOrAfter, tradingDayOnOrBefore } from '../../domain/trading-calendar'

/** The trading day `n` sessions after (n > 0) or before (n < 0) `date`; `date` itself counts from its nearest session. */
export function addTradingDays(date: string, n: number): string {
  let d = n >= 0 ? tradingDayOnOrAfter(date) : tradingDayOnOrBefore(date)
  const step = Math.sign(n)
  for (let k = 0; k < Math.abs(n); k++) {
    d = addDays(d, step)
    while (!isTradingDay(d)) d = addDays(d, step)
  }
  return d
}

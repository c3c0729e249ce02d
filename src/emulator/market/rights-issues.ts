/**
 * Rights issues (配股): a few main-board stocks, chosen by hash, each offer their holders new
 * shares once, at a ratio per 10 shares held and a price below the market. Dates step from the
 * record date: announced three trading days before, ex-rights the day after, subscription paid
 * over five trading days, new shares listed about two weeks later. The share counts start from the
 * stock's total shares; the model does not dilute the stock afterwards (its share count and price
 * walk carry on as before), so these are events to calendar, not corporate actions that adjust
 * prices. Pure.
 */
import { addDays, dayNumber, fromDayNumber } from '../../domain/dates'
import { previousTradingDay, tradingDayOnOrAfter } from '../../domain/trading-calendar'
import { hashString, uniform } from './random'
import type { EmuInstrument } from './types'

/** One stock in this many (main boards) has a rights issue in the modelled span. */
const ONE_IN = 60
const SPAN: [string, string] = ['2024-01-02', '2027-06-30']
const RATIOS = [2, 2.5, 3, 3, 3]

export interface RightsIssue {
  /** Shares offered per 10 held. */
  ratioPer10: number
  /** Fraction of the close before the announcement the new shares cost. */
  discount: number
  notice: string
  record: string
  ex: string
  payStart: string
  payEnd: string
  listing: string
}

const nextTradingDay = (d: string) => tradingDayOnOrAfter(addDays(d, 1))
const step = (d: string, n: number, move: (d: string) => string) => {
  for (let k = 0; k < n; k++) d = move(d)
  return d
}

/** The stock's rights issue, or undefined (most stocks, and every kind but main-board A-shares). */
export function rightsIssueOf(inst: EmuInstrument): RightsIssue | undefined {
  if (inst.kind !== 'stock' || !inst.totalShares || !/^(sh60|sz00)/.test(inst.code)) return undefined
  const seed = hashString('rights:' + inst.code)
  if (seed % ONE_IN !== 0) return undefined
  const [a, b] = SPAN.map(dayNumber)
  const record = tradingDayOnOrAfter(fromDayNumber(a + Math.floor(uniform(seed, 1) * (b - a))))
  if (record <= inst.listDate) return undefined
  const payStart = nextTradingDay(record)
  const payEnd = step(payStart, 4, nextTradingDay)
  const ex = step(payEnd, 2, nextTradingDay)
  return {
    ratioPer10: RATIOS[Math.floor(uniform(seed, 2) * RATIOS.length)],
    discount: 0.7 + 0.15 * uniform(seed, 3),
    notice: step(record, 2, previousTradingDay),
    record,
    ex,
    payStart,
    payEnd,
    listing: step(ex, 11, nextTradingDay),
  }
}

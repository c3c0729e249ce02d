/**
 * Where the A-share market stands at an instant (Beijing time, the SSE calendar), and what that
 * makes of a quote line: the one rule every view follows (README "Every hour"). In a session a
 * view is live; outside one it shows the latest session's final state, labelled with its date.
 */
import { beijing } from './dates'
import { isTradingDay, previousTradingDay } from './trading-calendar'

/**
 * - `preopen`: a trading day before the opening call auction (09:15);
 * - `auction`: the opening call auction, 09:15–09:25;
 * - `opening`: after the opening match, before continuous trading, 09:25–09:30;
 * - `continuous`: 09:30–11:30 and 13:00–15:00;
 * - `lunch`: 11:30–13:00;
 * - `closed`: after 15:00, and every day the exchanges do not trade.
 */
export type MarketPhase = 'preopen' | 'auction' | 'opening' | 'continuous' | 'lunch' | 'closed'

/** The trading day's boundaries, in Beijing minutes: the one place every phase table reads them. */
export const SESSION_MINUTES = {
  auction: 9 * 60 + 15,
  match: 9 * 60 + 25,
  open: 9 * 60 + 30,
  lunch: [11 * 60 + 30, 13 * 60],
  close: 15 * 60,
} as const

const { auction: AUCTION, match: MATCH, open: OPEN, lunch: LUNCH, close: CLOSE } = SESSION_MINUTES

/** The A-share market's phase at `now` (epoch ms). */
export function marketPhase(now: number): MarketPhase {
  const { date, minute } = beijing(now)
  if (!isTradingDay(date) || minute >= CLOSE) return 'closed'
  if (minute < AUCTION) return 'preopen'
  if (minute < MATCH) return 'auction'
  if (minute < OPEN) return 'opening'
  return minute >= LUNCH[0] && minute < LUNCH[1] ? 'lunch' : 'continuous'
}

/**
 * The latest session that has traded by `now`: today from the opening match (09:25) of a trading
 * day, else the trading day before. Market-level views are dated to it.
 */
export function latestSession(now: number): string {
  const { date, minute } = beijing(now)
  return isTradingDay(date) && minute >= MATCH ? date : previousTradingDay(date)
}

/**
 * The status of a stock's line (snapshot, order book), each value with what it means: the one
 * table the schema (/openapi.json) and the README read.
 */
const LINE_STATUS_MEANINGS = {
  trading: 'the market is in session (09:25–11:30, 13:00–15:00 Beijing) and the line carries today\'s trades',
  auction: 'the opening call auction (09:15–09:25): no trade yet; `last` is the indicative price where the upstream shows one',
  closed:
    'the market is not in session (before the auction, the lunch break, after the close, nights, weekends, holidays): the line is the latest session\'s final state, dated by `time`',
  halted: 'suspended, as the upstream flags it (Tencent status S, Sina status 03, Eastmoney "-" prices); never for want of volume before the open',
} as const

export type LineStatus = keyof typeof LINE_STATUS_MEANINGS

export const LINE_STATUSES = Object.keys(LINE_STATUS_MEANINGS) as [LineStatus, ...LineStatus[]]

/** The status values in one sentence, for schema descriptions. */
export const STATUS_TEXT = Object.entries(LINE_STATUS_MEANINGS)
  .map(([k, v]) => `\`${k}\`: ${v}`)
  .join('; ')

/** The status of a line dated `date` at `now`; `auction` when the line shows the auction's book. */
export function lineStatus(line: { halted: boolean; traded: boolean; date: string }, auction: boolean, now: number): LineStatus {
  if (line.halted) return 'halted'
  if (auction) return 'auction'
  const phase = marketPhase(now)
  const inSession = phase === 'opening' || phase === 'continuous'
  return inSession && line.traded && line.date === beijing(now).date ? 'trading' : 'closed'
}

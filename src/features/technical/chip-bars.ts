/**
 * The qfq daily bars with turnover rates /v1/chip computes over. The history store first (its raw
 * bars forward-adjusted exactly as /v1/kline-full does, with each day's stored turnover rate):
 *   - a past day the store holds costs no upstream request at all, and so does the latest day
 *     while no session is under way and the store holds the last settled one (evenings, weekends);
 *   - during a session, the latest day joins the stored bars to a short channel tail (today's live bar, or a day the
 *     after-close job has not appended yet), checked to agree on the days both hold (joinHistory).
 * The day-K-line channels serve the whole window when the store lacks the stock, lacks a turnover
 * rate in the window (a blob written before the rate was kept and not yet rewritten by a backfill),
 * does not reach back far enough, or does not join its tail.
 */
import { HISTORY_START } from '../../data/holidays'
import { beijing } from '../../domain/dates'
import { isSettled, lastSettledDay } from '../../domain/settled-day'
import { isTradingDay } from '../../domain/trading-calendar'
import type { Instrument } from '../../domain/instrument'
import type { Bar } from '../../domain/bar'
import type { Services, StoreRequest, TurnoverBar } from '../../services/types'
import type { Attempt } from '../../channels/failover'
import { dateNum } from '../../store/history'
import type { History } from '../../store/shapes'
import { joinHistory } from './bars'
import { storedQfq } from '../../store/stored-qfq'

/** Channel bars fetched beside the store for the latest day: enough to check that the two agree. */
const CHIP_TAIL = 10

export type ChipBars =
  | { ok: true; bars: TurnoverBar[]; history: 'store' | 'channel'; channel?: string }
  | { ok: false; attempts: Attempt[] }

const withTurnover = (bars: readonly Bar[]): bars is TurnoverBar[] => bars.length > 0 && bars.every((b) => b.turnover !== null)

/**
 * The window is whole when it has `count` bars or starts at the stock's first stored bar after
 * the store's start (its listing); one that starts on the store's first day may lack older bars.
 */
const whole = (h: History, bars: readonly Bar[], count: number) => bars.length >= count || h.t[0] > dateNum(HISTORY_START)

/** From the opening call auction (09:15 Beijing) a trading day has a bar of its own until it settles. */
const AUCTION_MINUTE = 9 * 60 + 15

/** The newest day whose bar may exist at `now`: today from the auction on, else the last settled day. */
function newestDay(now: number): string {
  const { date, minute } = beijing(now)
  return isTradingDay(date) && minute >= AUCTION_MINUTE && !isSettled(now) ? date : lastSettledDay(now)
}

/** The last `count` qfq bars up to `date` (default: the latest, live during the session), oldest first. */
export async function chipBars(services: Services, c: StoreRequest, inst: Instrument, count: number, date?: string): Promise<ChipBars> {
  const h = await services.store.history(c, inst.code).catch(() => undefined)
  if (h && h.t.length) {
    // No date: the latest day, which the store holds unless a session is under way or it is behind.
    const day = date ?? (h.last >= newestDay(services.now()) ? h.last : undefined)
    if (day && day <= h.last) {
      const d = dateNum(day)
      let n = h.t.length
      while (n > 0 && h.t[n - 1] > d) n--
      const bars = storedQfq(h, n, [], count)
      if (withTurnover(bars) && whole(h, bars, count)) return { ok: true, bars, history: 'store' }
    } else {
      const tail = await services.market.turnoverBars(inst, CHIP_TAIL, date)
      const bars = tail.ok ? joinHistory(h, tail.bars)?.slice(-count) : undefined
      if (tail.ok && bars && withTurnover(bars) && whole(h, bars, count)) return { ok: true, bars, history: 'store', channel: tail.channel }
    }
  }
  const r = await services.market.turnoverBars(inst, count, date)
  if (!r.ok) return r
  return { ok: true, bars: r.bars, history: 'channel', channel: r.channel }
}

/**
 * The dragon-tiger board (龙虎榜): the exchanges list a stock on a day that meets a listing
 * reason, with the five seats that bought most and the five that sold most. Reasons modelled
 * (the common ones): a close-to-close move of 7% or more either way (which includes every
 * limit-up and limit-down close of a 10% stock), and turnover of 20% or more.
 */
import { dayNumber } from '../../domain/dates'
import { hashString, uniform } from './random'
import { seatName } from './seats'
import type { EmuInstrument, RawBar } from './types'

export const RISE_REASON = '日涨幅偏离值达到7%的前5只证券'
export const FALL_REASON = '日跌幅偏离值达到7%的前5只证券'
export const TURNOVER_REASON = '日换手率达到20%的前5只证券'

/** Move (percent) and turnover (percent) that put a stock on the board. */
export const LISTING_MOVE_PCT = 7
const LISTING_TURNOVER_PCT = 20

/** One seat on one listing: CNY bought and sold through it. */
interface Seat {
  name: string
  buy: number
  sell: number
}

/** One listing: a stock, a day, a reason, its top buyers and top sellers. */
export interface Listing {
  date: string
  reason: string
  /** Close-to-close change, percent. */
  changePct: number
  buyers: Seat[]
  sellers: Seat[]
}

const changePctOf = (bar: RawBar) => (bar.preClose > 0 ? ((bar.close - bar.preClose) / bar.preClose) * 100 : 0)

/** The listing reasons a day's bar meets (one listing per reason, as the exchanges publish them). */
export function listingReasons(bar: RawBar): string[] {
  const pct = changePctOf(bar)
  const reasons: string[] = []
  // A hair of tolerance: a 10% limit-up of a 7.03 stock is +9.96%; a 7% move is 7% to the cent.
  if (pct >= LISTING_MOVE_PCT - 1e-9) reasons.push(RISE_REASON)
  if (pct <= -LISTING_MOVE_PCT + 1e-9) reasons.push(FALL_REASON)
  if (bar.turnover !== null && bar.turnover >= LISTING_TURNOVER_PCT) reasons.push(TURNOVER_REASON)
  return reasons
}

const cents = (x: number) => Math.round(x * 100) / 100

/** The day's listings of a stock (empty on ordinary days). Seat amounts stay within the day's turnover. */
export function listings(inst: EmuInstrument, bar: RawBar): Listing[] {
  if (inst.kind !== 'stock' || bar.volume === 0) return []
  const seed = hashString('billboard:' + inst.code)
  const day = dayNumber(bar.date)
  return listingReasons(bar).map((reason, r) => {
    const side = (s: number): Seat[] =>
      Array.from({ length: 5 }, (_, k) => {
        // The top seat takes up to 6% of the day's turnover, the fifth about a third of that.
        const main = cents(bar.amount * (0.06 - 0.009 * k) * (0.4 + 0.6 * uniform(seed, day, 10 * s + k, r)))
        const other = cents(main * 0.2 * uniform(seed, day, 10 * s + k + 5, r))
        const name = seatName(seed, day, 100 * s + k, r)
        return s === 0 ? { name, buy: main, sell: other } : { name, buy: other, sell: main }
      })
    const buyers = side(0).sort((a, b) => b.buy - a.buy)
    const sellers = side(1).sort((a, b) => b.sell - a.sell)
    return { date: bar.date, reason, changePct: changePctOf(bar), buyers, sellers }
  })
}

/**
 * The model's numbers quote screens show beyond the price (valuation, limits, volume ratio,
 * outer/inner volume), gathered once so Tencent's quote line and Eastmoney's stock/get agree.
 */
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices } from '../market/limits'
import { outerInner, volumeRatio } from '../market/trade-stats'
import { hasTraded } from '../market/quote'
import type { LiveQuote, MarketModel } from '../market/types'
import { valuationAt, type Valuation } from '../market/valuation'

/** The previous close the day's limits and change refer to (the bar's reference price in every state). */
export const referenceClose = (q: LiveQuote) => q.bar.preClose

/** What the A-share record shows beyond the quote itself, computed by the market model. */
export interface QuoteExtras {
  valuation: Valuation
  volumeRatio: number | null
  outer: number
  inner: number
  /** `[limitDown, limitUp]`, or null for instruments without a price limit. */
  limits: [number, number] | null
}

/** Extras of an A-share-exchange quote at `now`. */
export function quoteExtras(market: MarketModel, q: LiveQuote, now: number): QuoteExtras {
  const inst = q.instrument
  const pre = referenceClose(q)
  const price = hasTraded(q) ? q.bar.close : q.auction?.price ?? pre
  const limit = limitOn(inst, dayNumber(q.date))
  return {
    valuation: valuationAt(market, inst, price, now),
    volumeRatio: volumeRatio(market, q, now),
    ...outerInner(q),
    limits: limit === null || pre <= 0 ? null : limitPrices(pre, limit, inst.decimals),
  }
}

/** The 52-week high and low HK and US lines show. */
export interface YearRange {
  high: number
  low: number
}

/** The high and low of the 52 weeks up to the quote's day (its own bar included). */
export function yearRange(market: MarketModel, q: LiveQuote, now: number): YearRange {
  const from = `${Number(q.date.slice(0, 4)) - 1}${q.date.slice(4)}`
  const bars = market.dailyBars(q.instrument, from, q.date, now)
  let high = q.bar.high || q.bar.preClose
  let low = q.bar.low || q.bar.preClose
  for (const b of bars) {
    high = Math.max(high, b.high)
    low = Math.min(low, b.low)
  }
  return { high, low }
}

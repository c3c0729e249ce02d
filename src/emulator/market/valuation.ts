/**
 * Valuation ratios at a price, from the fundamentals model, so every upstream view (Tencent's
 * quote line, Eastmoney's stock/get) prints the same PE and PB: PE TTM = price / EPS of the last
 * four published quarters, PE dynamic = price / the latest cumulative EPS annualised, PE static =
 * price / last annual EPS, PB = price / parent equity per share. Null where nothing is published.
 */
import { beijing } from '../../domain/dates'
import { bookValuePerShare, epsDynamic, epsStatic, epsTtm, hasFundamentals } from './fundamentals'
import { Lru } from './lru'
import type { EmuInstrument, MarketModel } from './types'
import { cacheKeyOf } from './universe'

export interface Valuation {
  peTtm: number | null
  peDynamic: number | null
  peStatic: number | null
  pb: number | null
}

const ratio = (price: number, perShare: number | null) => (perShare === null || perShare === 0 || price <= 0 ? null : price / perShare)

type PerShare = [ttm: number | null, dynamic: number | null, annual: number | null, book: number | null]

/** Per-share figures by stock and Beijing date: they change only when a report is published. */
const perShareCache = new Lru<string, PerShare>(8192)

function perShareOf(market: MarketModel, inst: EmuInstrument, now: number): PerShare {
  const today = beijing(now).date
  const key = `${cacheKeyOf(inst)}|${today}`
  let v = perShareCache.get(key)
  if (!v) {
    v = [epsTtm(market, inst, today, now), epsDynamic(market, inst, today, now), epsStatic(market, inst, today, now), bookValuePerShare(market, inst, today, now)]
    perShareCache.set(key, v)
  }
  return v
}

/** The four ratios of `inst` at `price`, using what is published by `now`. */
export function valuationAt(market: MarketModel, inst: EmuInstrument, price: number, now: number): Valuation {
  if (!hasFundamentals(inst)) return { peTtm: null, peDynamic: null, peStatic: null, pb: null }
  const [ttm, dynamic, annual, book] = perShareOf(market, inst, now)
  return { peTtm: ratio(price, ttm), peDynamic: ratio(price, dynamic), peStatic: ratio(price, annual), pb: ratio(price, book) }
}

/**
 * Block trades (大宗交易): negotiated trades reported after the close. A stock has some on about
 * one session in thirty; which sessions is a pure hash of the stock and the day, so a whole-market
 * day needs bars only for the stocks that traded. Prices lie inside the day's limit band (the
 * exchange rule for block trades of stocks with price limits); premium = price / close − 1.
 */
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices, roundTo } from './limits'
import { hashString, pickIndex, uniform } from './random'
import { seatName } from './seats'
import type { EmuInstrument, RawBar } from './types'

/** One reported block trade. Volume in shares, amount in CNY. */
export interface BlockTrade {
  date: string
  price: number
  volume: number
  amount: number
  buyer: string
  seller: string
}

/** Share of sessions with at least one block trade. */
const DAY_PROBABILITY = 1 / 30
/** The exchanges' floor for a block trade of shares: 2 million CNY (or 300,000 shares). */
export const MIN_BLOCK_AMOUNT = 2_000_000

const seedOf = (inst: EmuInstrument) => hashString('block:' + inst.code)

/** Whether the stock reports block trades on `date` (if it traded that day). No bars needed. */
export function hasBlockTrades(inst: EmuInstrument, date: string): boolean {
  return inst.kind === 'stock' && uniform(seedOf(inst), dayNumber(date)) < DAY_PROBABILITY
}

/** The block trades of one day's (full) bar, in report order; [] on other days. */
export function blockTrades(inst: EmuInstrument, bar: RawBar): BlockTrade[] {
  if (!hasBlockTrades(inst, bar.date) || bar.volume === 0) return []
  const seed = seedOf(inst)
  const day = dayNumber(bar.date)
  const limit = limitOn(inst, day)
  const [down, up] = limit === null ? [0, Infinity] : limitPrices(bar.preClose, limit, inst.decimals)
  const n = 1 + pickIndex(seed, 3, day, 1)
  const out: BlockTrade[] = []
  for (let k = 0; k < n; k++) {
    // Mostly at a discount (a holder selling a large stake), now and then at a premium.
    const premium = -0.12 + 0.15 * uniform(seed, day, 2, k)
    const price = Math.min(up, Math.max(down, roundTo(bar.close * (1 + premium), inst.decimals)))
    const target = MIN_BLOCK_AMOUNT * (1 + 9 * uniform(seed, day, 3, k)) + bar.amount * 0.1 * uniform(seed, day, 4, k)
    const volume = Math.max(Math.ceil(MIN_BLOCK_AMOUNT / price / 100), Math.round(target / price / 100)) * 100
    const buyer = seatName(seed, day, 5, k)
    let seller = seatName(seed, day, 6, k)
    if (seller === buyer) seller = seatName(seed, day, 7, k)
    out.push({ date: bar.date, price, volume, amount: Math.round(price * volume * 100) / 100, buyer, seller })
  }
  return out
}

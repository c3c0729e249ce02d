/**
 * Price rounding and daily price limits (涨跌停). The limit prices are what the exchange
 * publishes: the previous close (or ex-rights reference price) times 1 ± limit, rounded to the tick.
 */
import { dayNumber } from '../../domain/dates'
import type { EmuInstrument } from './types'

/** Rounds half up to `decimals` places (prices are positive; the epsilon absorbs binary noise). */
export function roundTo(x: number, decimals: number): number {
  const f = POW10[decimals]
  return Math.round(x * f + 1e-6) / f
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000]

/** ChiNext moved from 10% to 20% limits on this day (the registration reform). */
const CHINEXT_20PCT_FROM = dayNumber('2020-08-24')

/** The limit fraction in force on a day (`day` = day number); null where there is none. */
export function limitOn(inst: EmuInstrument, day: number): number | null {
  if (inst.board === 'chinext' && day < CHINEXT_20PCT_FROM && inst.limit !== 0.05) return 0.1
  return inst.limit
}

/** `[limitDown, limitUp]` for a previous close. */
export function limitPrices(preClose: number, limit: number, decimals: number): [number, number] {
  return [roundTo(preClose * (1 - limit), decimals), roundTo(preClose * (1 + limit), decimals)]
}

/**
 * The move the price walk treats as "the limit" for one day: the real limit where there is one,
 * a plausible extreme daily move elsewhere (it only keeps unlimited series sane).
 */
export function walkLimit(inst: EmuInstrument, day: number): number {
  const l = limitOn(inst, day)
  if (l !== null) return l
  switch (inst.kind) {
    case 'forex':
      return 0.05
    case 'hk':
    case 'us':
      return 0.2
    default:
      return 0.1
  }
}

/**
 * Money flow (资金流向) of one day's bar: the day's turnover split by order size (super-large,
 * large, medium, small) and by side (active buy = inflow, active sell = outflow). As on Eastmoney,
 * every trade is counted once, on its active side, so the eight amounts add up to the bar's
 * amount; the four classes' nets do NOT cancel out (a large buy order filled by many small sells
 * is large inflow and small outflow). Main force (主力) = super-large + large.
 */
import { dayNumber } from '../../domain/dates'
import { bnorm, hashString, uniform } from './random'
import type { EmuInstrument, RawBar } from './types'

export const ORDER_CLASSES = ['super', 'large', 'medium', 'small'] as const
type OrderClass = (typeof ORDER_CLASSES)[number]

/** Inflow and outflow of one order class, CNY (cents). */
interface ClassFlow {
  inflow: number
  outflow: number
}

export type DayFlow = Record<OrderClass, ClassFlow>

const cents = (x: number) => Math.round(x * 100) / 100
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))

/** How strongly each class buys into the day's move: the main force leads it, small orders lean against it. */
const TILT: Record<OrderClass, number> = { super: 4, large: 3, medium: 0.5, small: -2 }

/**
 * The money flow of `bar` (a full day or today's partial bar). Deterministic in the instrument and
 * the bar's date; inflow + outflow over the four classes equals `bar.amount` to the cent.
 */
export function dayFlow(inst: EmuInstrument, bar: RawBar): DayFlow {
  const seed = hashString('flow:' + inst.code)
  const day = dayNumber(bar.date.slice(0, 10))
  const change = bar.preClose > 0 ? (bar.close - bar.preClose) / bar.preClose : 0
  // Shares of the turnover per class; small takes the rest so the total is exact.
  const share = {
    super: 0.12 + 0.18 * uniform(seed, day, 1),
    large: 0.15 + 0.12 * uniform(seed, day, 2),
    medium: 0.2 + 0.12 * uniform(seed, day, 3),
  }
  const total = cents(bar.amount)
  const out = {} as DayFlow
  let left = total
  for (const [k, cls] of ORDER_CLASSES.entries()) {
    const amount = cls === 'small' ? cents(left) : cents(total * share[cls as Exclude<OrderClass, 'small'>])
    left -= amount
    const buy = clamp(0.5 + TILT[cls] * change + 0.06 * bnorm(seed, day, 10 + k), 0.05, 0.95)
    const inflow = cents(amount * buy)
    out[cls] = { inflow, outflow: cents(amount - inflow) }
  }
  return out
}

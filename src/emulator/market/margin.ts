/**
 * Margin trading (融资融券) of one stock on one day. Balances are stocks, so each day's flows
 * must carry yesterday's balance to today's: financing balance(d) = balance(d−1) + buy(d) −
 * repay(d), and lent shares(d) = lent(d−1) + sold(d) − repaid(d). Balances are smooth functions of
 * the day alone (a ratio to float shares interpolated between monthly anchors), so any day is
 * computed without walking the history. About half the stocks are margin targets.
 */
import { dayNumber } from '../../domain/dates'
import { hashString, uniform } from './random'
import type { EmuInstrument, RawBar } from './types'

/** One day of margin trading. CNY for financing, shares for securities lending. */
export interface MarginDay {
  date: string
  /** 融资余额: financing balance, CNY. */
  financingBalance: number
  /** 融资买入额. */
  financingBuy: number
  /** 融资偿还额. */
  financingRepay: number
  /** 融券余量: lent shares outstanding. */
  lentShares: number
  /** 融券卖出量 / 融券偿还量: shares. */
  lentSold: number
  lentRepaid: number
  /** 融券余额: lent shares × close, CNY. */
  lendingBalance: number
}

const ANCHOR_DAYS = 20

const seedOf = (inst: EmuInstrument) => hashString('margin:' + inst.code)

/** Whether the stock is a margin target (real catalogue stocks always are). */
export function isMarginTarget(inst: EmuInstrument): boolean {
  return inst.kind === 'stock' && inst.floatShares !== null && (inst.board === 'sh-main' || uniform(seedOf(inst), 0) < 0.5)
}

/** A smooth ratio in [lo, hi] on day `day`: linear between hashed anchors every {@link ANCHOR_DAYS} days. */
function smooth(seed: number, salt: number, day: number, lo: number, hi: number): number {
  const k = Math.floor(day / ANCHOR_DAYS)
  const t = (day - k * ANCHOR_DAYS) / ANCHOR_DAYS
  const a = uniform(seed, k, salt)
  const b = uniform(seed, k + 1, salt)
  return lo + (hi - lo) * (a + (b - a) * t)
}

/** Shares financed (balance ÷ a reference price) and shares lent on a day, before that day's flows settle. */
function positions(inst: EmuInstrument, day: number) {
  const seed = seedOf(inst)
  const float = inst.floatShares ?? 0
  return {
    financedShares: Math.round(float * smooth(seed, 1, day, 0.01, 0.06)),
    lentShares: Math.round((float * smooth(seed, 2, day, 0.0001, 0.002)) / 100) * 100,
  }
}

const cents = (x: number) => Math.round(x * 100) / 100

/**
 * The day of `bar`, given the previous session's date (`prevDate`) and bar close. Null for a
 * stock that is not a margin target or a day without trades.
 */
export function marginDay(inst: EmuInstrument, bar: RawBar, prevDate: string, prevClose: number): MarginDay | null {
  if (!isMarginTarget(inst) || bar.volume === 0) return null
  const seed = seedOf(inst)
  const day = dayNumber(bar.date)
  const today = positions(inst, day)
  const before = positions(inst, dayNumber(prevDate))
  const balance = cents(today.financedShares * bar.close)
  const previous = cents(before.financedShares * prevClose)
  // Gross buying is a slice of the day's turnover, never less than the balance's rise.
  const change = balance - previous
  const buy = cents(Math.max(bar.amount * (0.04 + 0.08 * uniform(seed, day, 3)), change + bar.amount * 0.01))
  const repay = cents(buy - change)
  const lentChange = today.lentShares - before.lentShares
  const sold = Math.max(Math.round((bar.volume * 0.002 * uniform(seed, day, 4)) / 100) * 100, lentChange)
  return {
    date: bar.date,
    financingBalance: balance,
    financingBuy: buy,
    financingRepay: repay,
    lentShares: today.lentShares,
    lentSold: sold,
    lentRepaid: sold - lentChange,
    lendingBalance: cents(today.lentShares * bar.close),
  }
}

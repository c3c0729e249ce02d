/**
 * Lock-up expiries of the simulated market: after an IPO, offline placement shares unlock after
 * six months, original shareholders' after twelve, the controlling shareholder's after thirty-six.
 * Sizes split the shares that are not floating (total − float); dates follow the listing day.
 */
import { addDays } from '../../domain/dates'
import { tradingDayOnOrAfter } from '../../domain/trading-calendar'
import type { EmuInstrument } from './types'

export interface Lockup {
  inst: EmuInstrument
  /** First trading day the shares may trade. */
  freeDate: string
  shares: number
  /** What kind of restricted shares they are, as the exchanges word it. */
  kind: string
  /** Holders in the batch. */
  holders: number
}

const BATCHES: Array<{ months: number; kind: string; share: (locked: number, total: number) => number; holders: number }> = [
  { months: 6, kind: '首发网下配售限售股份', share: (_l, total) => total * 0.02, holders: 300 },
  { months: 12, kind: '首发原股东限售股份', share: (locked) => locked * 0.4, holders: 12 },
  { months: 36, kind: '首发原股东限售股份', share: (locked) => locked * 0.6, holders: 2 },
]

/** `date` plus whole calendar months (the last day of a shorter month when the day does not exist). */
function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4))
  const m = Number(date.slice(5, 7)) - 1 + months
  const year = y + Math.floor(m / 12)
  const month = (m % 12) + 1
  const first = `${year}-${String(month).padStart(2, '0')}-01`
  const last = Number(addDays(month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`, -1).slice(8))
  return `${first.slice(0, 8)}${String(Math.min(Number(date.slice(8)), last)).padStart(2, '0')}`
}

/** The lock-up expiries of a stock's IPO (none for stocks listed before 2016 or without locked shares). */
export function lockupsOf(inst: EmuInstrument): Lockup[] {
  if (inst.kind !== 'stock' || inst.listDate < '2016-01-01' || inst.totalShares === null || inst.floatShares === null) return []
  const locked = inst.totalShares - inst.floatShares
  if (locked <= 0) return []
  return BATCHES.map((b) => ({
    inst,
    freeDate: tradingDayOnOrAfter(addMonths(inst.listDate, b.months)),
    shares: Math.round(b.share(locked, inst.totalShares!) / 100) * 100,
    kind: b.kind,
    holders: b.holders,
  }))
}

/**
 * Corporate actions and the multiplicative adjustment factors built from them. For an action with
 * factor k (see ComputedAction): qfq(d) = Π k over ex-dates after d, hfq(d) = Π 1/k over ex-dates
 * on or before d. An optional clock hides actions whose ex-date is still in the future.
 */
import { dayNumber } from '../../domain/dates'
import type { ComputedAction } from './daily'
import { computedActions } from './history'
import { exchangeTime } from './sessions'
import type { CorporateAction, EmuInstrument } from './types'

/** Actions visible at `now` (all generated ones when no clock is given). */
function visible(inst: EmuInstrument, now?: number): readonly ComputedAction[] {
  const all = computedActions(inst)
  if (now === undefined || all.length === 0) return all
  const today = exchangeTime('beijing', now).day
  return all.filter((a) => a.exDay <= today)
}

/** Public view of the actions: ex-date, cash per share, bonus shares per share. */
export function actionsOf(inst: EmuInstrument, now?: number): CorporateAction[] {
  return visible(inst, now).map((a) => ({ exDate: a.exDate, cash: a.cash, bonus: a.bonus }))
}

/** Forward-adjustment multiplier for `date`: qfq price = raw × factor. */
export function qfqFactor(inst: EmuInstrument, date: string, now?: number): number {
  const d = dayNumber(date)
  let f = 1
  for (const a of visible(inst, now)) if (a.exDay > d) f *= a.k
  return f
}

/** Backward-adjustment multiplier for `date`: hfq price = raw × factor. */
export function hfqFactor(inst: EmuInstrument, date: string, now?: number): number {
  const d = dayNumber(date)
  let f = 1
  for (const a of visible(inst, now)) if (a.exDay <= d) f /= a.k
  return f
}

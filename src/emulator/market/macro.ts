/**
 * Macro series of the simulated world: deterministic, plausible, and released with realistic
 * lags, so nothing appears before the clock's date. A series is a smooth cycle around a level
 * (which may grow), plus noise; policy rates move in steps. Values are what the wire layer
 * prints; which series exist is the wire layer's business (wire/datacenter-macro.ts).
 */
import { addDays, dayNumber, fromDayNumber } from '../../domain/dates'
import { isTradingDay, tradingDayOnOrAfter } from '../../domain/trading-calendar'
import { bnorm, hashString } from './random'

export interface MacroModel {
  /** Seeds the series: every key is its own series. */
  key: string
  frequency: 'daily' | 'monthly' | 'quarterly'
  level: number
  /** Amplitude of the slow cycle (about four years). */
  swing: number
  noise: number
  decimals: number
  /** Calendar days from the period's end to its release (then the next trading day). 0 for daily series. */
  lagDays: number
  /** Level growth per year (money supply, GDP): 1.08 is 8%. */
  growth?: number
  /** Quarterly values that accumulate through the year (GDP year to date). */
  cumulative?: boolean
  /** Round to this step (policy rates move in 0.05 or 0.25 steps). */
  step?: number
}

export interface Observation {
  /** First day of the period (monthly, quarterly), or the day (daily). */
  period: string
  /** Last day of the period. */
  periodEnd: string
  value: number
  /** The day it became public. */
  release: string
}

const FIRST_YEAR = 2016
const SALT_MACRO = { phase: 921, noise: 922 } as const

const monthStart = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`
const monthEnd = (y: number, m: number) => addDays(m === 12 ? monthStart(y + 1, 1) : monthStart(y, m + 1), -1)

function value(m: MacroModel, t: number, k: number, yearsIn: number, quarterOfYear: number): number {
  const seed = hashString('macro:' + m.key)
  const phase = Math.PI * (1 + bnorm(seed, SALT_MACRO.phase))
  let v = m.level * (m.growth ?? 1) ** yearsIn + m.swing * Math.sin((2 * Math.PI * t) / 4 + phase) + 0.3 * m.swing * Math.sin(2 * Math.PI * t * 1.7 + phase)
  if (m.cumulative) v *= quarterOfYear / 4
  if (!m.step) v += m.noise * bnorm(seed, SALT_MACRO.noise, k)
  const stepped = m.step ? Math.round(v / m.step) * m.step : v
  const f = 10 ** m.decimals
  return Math.round(stepped * f) / f
}

/** Every observation released on or before `today`, newest first, at most `limit`. */
export function observations(m: MacroModel, today: string, limit = Infinity): Observation[] {
  const out: Observation[] = []
  const lastYear = Number(today.slice(0, 4))
  if (m.frequency === 'daily') {
    // A day's fixing is final once the day is over: the newest is yesterday's.
    for (let d = dayNumber(today) - 1; d >= dayNumber(`${FIRST_YEAR}-01-01`) && out.length < limit; d--) {
      const date = fromDayNumber(d)
      if (!isTradingDay(date)) continue
      const t = (d - dayNumber(`${FIRST_YEAR}-01-01`)) / 365.25
      out.push({ period: date, periodEnd: date, value: value(m, t, d, t, 4), release: date })
    }
    return out
  }
  const months = m.frequency === 'monthly' ? 1 : 3
  for (let y = lastYear; y >= FIRST_YEAR && out.length < limit; y--) {
    for (let mo = 12 - months + 1; mo >= 1 && out.length < limit; mo -= months) {
      const end = monthEnd(y, mo + months - 1)
      const release = tradingDayOnOrAfter(addDays(end, m.lagDays))
      if (release > today) continue
      const t = y - FIRST_YEAR + (mo - 1) / 12
      out.push({ period: monthStart(y, mo), periodEnd: end, value: value(m, t, y * 12 + mo, t, Math.ceil(mo / 3)), release })
    }
  }
  return out
}

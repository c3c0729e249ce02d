/**
 * When each company of the simulated market schedules its periodic reports (预约披露): one day in
 * the report's season (domain/report-seasons.ts) drawn from the code and period; one in five
 * companies moves it once, by up to ten days, inside the season.
 */
import { addDays, dayNumber, fromDayNumber } from '../../domain/dates'
import type { ReportSeason } from '../../domain/report-seasons'
import { tradingDayOnOrAfter, tradingDayOnOrBefore } from '../../domain/trading-calendar'
import { hashString, uniform } from './random'
import type { EmuInstrument } from './types'

const SALT_DISCLOSURE = { day: 911, moved: 912, shift: 913 } as const

export interface Disclosure {
  /** First scheduled day. */
  first: string
  /** The day it was moved to, if it was. */
  changed: string | null
}

/** The scheduled disclosure of one report of one stock; undefined when the stock was not listed by the period's end. */
export function disclosureOf(inst: EmuInstrument, season: ReportSeason): Disclosure | undefined {
  if (inst.kind !== 'stock' || inst.listDate > season.period) return undefined
  const seed = hashString(`disclosure:${inst.code}:${season.period}`)
  const lo = dayNumber(season.from)
  const span = dayNumber(season.to) - lo
  const clampIn = (d: string) => (d < season.from ? tradingDayOnOrAfter(season.from) : d > season.to ? tradingDayOnOrBefore(season.to) : d)
  // Later days are busier: most companies report in the second half of the season.
  const first = clampIn(tradingDayOnOrBefore(fromDayNumber(lo + Math.floor(span * Math.sqrt(uniform(seed, SALT_DISCLOSURE.day))))))
  const moved = uniform(seed, SALT_DISCLOSURE.moved) < 0.2
  const shift = Math.round(20 * uniform(seed, SALT_DISCLOSURE.shift)) - 10
  const changed = moved && shift !== 0 ? clampIn(tradingDayOnOrAfter(addDays(first, shift))) : null
  return { first, changed: changed === first ? null : changed }
}

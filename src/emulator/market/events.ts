/**
 * When corporate actions happen and how big they are, decided from seeds alone (no prices), so
 * the price walk can look ahead at them. The cash amount itself is fixed later, in daily.ts, as a
 * yield on the close before the ex-date.
 */
import { dayNumber } from '../../domain/dates'
import { monthDays, monthOfDay, sessionDayOnOrAfter } from './calendars'
import { hash, SALT, uniform } from './random'
import type { Profile } from './profiles'
import { isBarDay } from './suspensions'
import type { EmuInstrument } from './types'
import { cacheKeyOf } from './universe'

/** One planned action: ex-date (day number), cash as a fraction of the prior close, bonus shares per share. */
export interface EventSpec {
  exDay: number
  yield: number
  bonus: number
}

/**
 * Actions are generated through this year only: every ex-date (May–July) then lies before the
 * present, so factors read without a clock never anticipate a future dividend.
 */
export const LAST_EVENT_YEAR = 2026

const BONUS_SIZES = [0.2, 0.3, 0.4, 0.5, 0.8, 1.0]

const cache = new Map<string, EventSpec[]>()

/** Planned actions of a stock, ascending (empty for other kinds). At most one per year. */
export function eventSpecs(inst: EmuInstrument, p: Profile): EventSpec[] {
  let specs = cache.get(cacheKeyOf(inst))
  if (specs) return specs
  specs = []
  if (inst.kind === 'stock') {
    const first = Math.max(2017, +inst.listDate.slice(0, 4) + 1)
    const years = LAST_EVENT_YEAR - first + 1
    // Bonus issuers get one to three bonus years; at least one is guaranteed.
    const forcedBonusYear = p.bonusGroup && years > 0 ? first + (hash(p.seed, SALT.bonus, 1) % years) : -1
    for (let y = first; y <= LAST_EVENT_YEAR; y++) {
      const pays = uniform(p.seed, SALT.dividend, y) < p.payer
      let bonus = 0
      if (inst.code === 'sz300750') bonus = y === 2022 ? 0.8 : 0
      else if (p.bonusGroup && (y === forcedBonusYear || uniform(p.seed, SALT.bonus, y) < 0.15)) {
        bonus = BONUS_SIZES[hash(p.seed, SALT.bonusSize, y) % BONUS_SIZES.length]
      }
      if (!pays && !bonus) continue
      const exDay = exDayIn(p, y)
      if (exDay < 0) continue
      specs.push({ exDay, yield: pays ? 0.008 + 0.022 * uniform(p.seed, SALT.dividendYield, y) : 0, bonus })
    }
  }
  cache.set(cacheKeyOf(inst), specs)
  return specs
}

/** An ex-date between mid-May and late July of `year` on which the stock trades; -1 if none. */
function exDayIn(p: Profile, year: number): number {
  const from = dayNumber(`${year}-05-15`)
  let day = sessionDayOnOrAfter('cn', from + Math.floor(uniform(p.seed, SALT.dividendDate, year) * 70))
  for (let k = 0; k < 10; k++) {
    const days = monthDays('cn', monthOfDay(day))
    if (day > p.firstDay && isBarDay(p, day, days)) return day
    day = sessionDayOnOrAfter('cn', day + 1)
  }
  return -1
}

/** The spec whose ex-date lies in month `m`, if any. */
export function specInMonth(specs: EventSpec[], monthFirst: number, monthEnd: number): EventSpec | undefined {
  return specs.find((s) => s.exDay >= monthFirst && s.exDay < monthEnd)
}

/**
 * Cached access to daily bars and computed actions. Month blocks live in a bounded LRU (a whole
 * market's history would not fit an isolate); actions, a few numbers per stock, are kept for good.
 */
import { dateOf, LAST_MONTH, monthOfDay, monthStartDay } from './calendars'
import { computeMonth, type ComputedAction, type MonthBars } from './daily'
import { eventSpecs } from './events'
import { Lru } from './lru'
import type { EmuInstrument, RawBar } from './types'
import { cacheKeyOf, profileOf } from './universe'

/** Month blocks cached: enough for one month of every stock plus a few histories (~10 MB). */
const months = new Lru<string, MonthBars>(7000)
const actionCache = new Map<string, ComputedAction[]>()

const EMPTY: readonly ComputedAction[] = []

/** Corporate actions of an instrument as they happened, ascending by ex-date. */
export function computedActions(inst: EmuInstrument): readonly ComputedAction[] {
  if (inst.kind !== 'stock') return EMPTY
  let acts = actionCache.get(cacheKeyOf(inst))
  if (acts) return acts
  const p = profileOf(inst)
  acts = []
  let factor = 1
  // Each action's cash depends on the close before it, which depends on the earlier actions.
  for (const spec of eventSpecs(inst, p)) {
    const m = monthOfDay(spec.exDay)
    const key = cacheKeyOf(inst) + m
    const block = months.get(key) ?? computeMonth(inst, p, m, factor)
    months.set(key, block)
    if (block.action) {
      acts.push(block.action)
      factor *= block.action.k
    }
  }
  actionCache.set(cacheKeyOf(inst), acts)
  return acts
}

/** Daily bars of month `m` (empty outside the modelled months). */
export function monthBars(inst: EmuInstrument, m: number): MonthBars | null {
  if (m < 0 || m > LAST_MONTH) return null
  const key = cacheKeyOf(inst) + m
  let block = months.get(key)
  if (!block) {
    const start = monthStartDay(m)
    let factor = 1
    for (const a of computedActions(inst)) if (a.exDay < start) factor *= a.k
    block = computeMonth(inst, profileOf(inst), m, factor)
    months.set(key, block)
  }
  return block
}

/** One daily bar as the interface's RawBar. */
export function rawBar(b: MonthBars, i: number): RawBar {
  return {
    date: dateOf(b.day[i]),
    open: b.open[i],
    high: b.high[i],
    low: b.low[i],
    close: b.close[i],
    preClose: b.pre[i],
    volume: b.volume[i],
    amount: b.amount[i],
    turnover: b.turnover ? b.turnover[i] : null,
  }
}

/** Where a day's bar is: its month block and index, or null if the instrument has no bar that day. */
export function findBar(inst: EmuInstrument, day: number): { block: MonthBars; i: number } | null {
  const block = monthBars(inst, monthOfDay(day))
  if (!block) return null
  for (let i = 0; i < block.n; i++) {
    if (block.day[i] === day) return { block, i }
    if (block.day[i] > day) break
  }
  return null
}

/** The last bar strictly before `day`, or null if there is none. */
export function barBefore(inst: EmuInstrument, day: number): { block: MonthBars; i: number } | null {
  const p = profileOf(inst)
  for (let m = monthOfDay(day); m >= 0; m--) {
    const block = monthBars(inst, m)
    if (!block) continue
    for (let i = block.n - 1; i >= 0; i--) if (block.day[i] < day) return { block, i }
    if (monthStartDay(m) <= p.firstDay) break
  }
  return null
}

/** Empties the caches (tests use it to check that results do not depend on cache state). */
export function clearHistoryCaches(): void {
  months.clear()
  actionCache.clear()
}

/**
 * Building and extending one stock's stored history from the upstreams: the whole history for a
 * stock the store does not have yet, or the missing days for one that fell behind (a missed
 * run, or a suspension the day before).
 */
import { HISTORY_START } from '../data/holidays'
import { addDays } from '../domain/dates'
import { parseSymbol } from '../domain/symbols'
import { appendBars, emptyHistory, mergeActions } from '../store/history'
import type { History } from '../store/shapes'
import type { HistorySource } from './source'

/**
 * The history of `code` with bars from 2016-08-08 (or listing) through `through`, and its actions
 * with ex-dates through `through`. Undefined when the upstream has no bars (not listed yet).
 */
export async function buildHistory(source: HistorySource, code: string, through: string): Promise<History | undefined> {
  const inst = parseSymbol(code)
  const [bars, actions] = await Promise.all([source.rawDaily(inst, HISTORY_START, through), source.actions({ code })])
  const kept = bars.filter((b) => b.date >= HISTORY_START && b.date <= through)
  if (kept.length === 0) return undefined
  const h = emptyHistory(code)
  appendBars(h, kept)
  mergeActions(h, actions.filter((a) => a.exDate <= through))
  return h
}

/**
 * Brings `h` up to `through` from the upstream (bars after its last one, and any action it lacks
 * with an ex-date through `through`). Returns the bars added.
 */
export async function catchUp(source: HistorySource, h: History, through: string): Promise<number> {
  if (h.last >= through) return 0
  const inst = parseSymbol(h.code)
  const [bars, actions] = await Promise.all([source.rawDaily(inst, addDays(h.last, 1), through), source.actions({ code: h.code })])
  const added = appendBars(h, bars.filter((b) => b.date <= through))
  mergeActions(h, actions.filter((a) => a.exDate <= through))
  return added
}

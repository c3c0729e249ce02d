import { factorByName } from '../../data/factors'
import { evaluate, type ScreenTable } from './evaluate'
import type { ScreenPlan } from './plan'

/** One result row: every value a string, as /v1/screen documents (empty where the factor has no value). */
type ScreenRow = Record<string, string>

export interface ScreenResult {
  rows: ScreenRow[]
  /** Stocks that matched before `limit`. */
  matched: number
}

/**
 * Runs a plan over a factor table: the matching rows, sorted by `orderby` (rows without a value
 * last, then by code), cut to `limit`, formatted as strings.
 */
export function runScreen(plan: ScreenPlan, table: ScreenTable): ScreenResult {
  const mask = evaluate(plan.tree, table)
  const key = table.column(plan.orderby)
  const hits: number[] = []
  for (let i = 0; i < mask.length; i++) if (mask[i]) hits.push(i)
  const sign = plan.desc ? -1 : 1
  hits.sort((a, b) => {
    const x = key[a]
    const y = key[b]
    if (x !== x || y !== y) return x !== x && y !== y ? cmp(table.codes[a], table.codes[b]) : x !== x ? 1 : -1
    return sign * (x - y) || cmp(table.codes[a], table.codes[b])
  })
  const rows = hits.slice(0, plan.limit).map((i) => {
    const row: ScreenRow = { code: table.codes[i], name: table.names[i] }
    for (const c of plan.columns) row[c] = formatFactor(c, table.value(c, i))
    return row
  })
  return { rows, matched: hits.length }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A factor value as text: prices to 2 decimals, counts as integers, the rest to 4; null as ''. */
function formatFactor(name: string, v: number | null): string {
  if (v === null) return ''
  const unit = factorByName(name)?.unit ?? ''
  if (unit === 'shares' || unit === 'days') return String(Math.round(v))
  if (unit.startsWith('CNY')) return v.toFixed(2)
  return String(Math.round(v * 1e4) / 1e4)
}

/**
 * The datacenter's company calendar `RPT_ORGOP_ALL` (upstreams.md §5.9) as the emulator answers it,
 * per stock (`(SECURITY_CODE="600519")`; without it no rows). A `TRADE_DATE>=` (or `>`) predicate
 * sets how far back the calendar is built; without one, two years.
 */
import { addDays, beijing } from '../../domain/dates'
import { companyEvents } from '../market/company-events'
import type { Predicate, Report } from './datacenter-rows'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const DEFAULT_DAYS_BACK = 730

function startOf(filter: readonly Predicate[], today: string): string {
  const p = filter.find((f) => f.column === 'TRADE_DATE' && (f.op === '>=' || f.op === '>'))
  return p && /^\d{4}-\d{2}-\d{2}/.test(p.value) ? p.value.slice(0, 10) : addDays(today, -DEFAULT_DAYS_BACK)
}

const companyCalendarRows: Report = (market, now, filter) => {
  const p = filter.find((f) => f.column === 'SECURITY_CODE' && f.op === '=')
  if (!p) return []
  const inst = Object.keys(SUFFIX).map((prefix) => market.byCode(prefix + p.value)).find((i) => i?.kind === 'stock')
  if (!inst) return []
  const today = beijing(now).date
  return companyEvents(market, inst, startOf(filter, today), today, now).map((e) => ({
    SECURITY_CODE: inst.symbol,
    SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
    SECURITY_NAME_ABBR: inst.name,
    EVENT_TYPE: e.type,
    EVENT_CONTENT: e.content,
    TRADE_DATE: `${e.date} 00:00:00`,
  }))
}

export const EVENT_REPORTS: Record<string, Report> = { RPT_ORGOP_ALL: companyCalendarRows }

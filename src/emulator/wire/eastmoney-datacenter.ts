/**
 * Eastmoney's datacenter (`datacenter-web …/api/data/v1/get`, upstreams.md §5.0) as the emulator
 * answers it, for the one report it models: `RPT_SHAREBONUS_DET` (dividends and bonus shares,
 * §5.2), one row per corporate action of a stock with an ex-date on or before the clock's Beijing
 * date. `filter` predicates, `sortColumns`/`sortTypes`, `columns` and paging are applied generically.
 */
import { addDays, beijing } from '../../domain/dates'
import { previousTradingDay, tradingDayOnOrBefore } from '../../domain/trading-calendar'
import type { CorporateAction, EmuInstrument, MarketModel } from '../market/types'
import { hashOf, round } from './format'
import { jsonResponse } from './respond'

/** `datacenter-web` and the older `datacenter` host answer the same v1 path. */
export const DATACENTER_HOST = /^datacenter(-web)?\.eastmoney\.com$/
export const DATACENTER_PATH = '/api/data/v1/get'

type Cell = string | number | null
type Row = Record<string, Cell>

/** One `(COLUMN op value)` predicate of `filter`. */
interface Predicate {
  column: string
  op: '=' | '!=' | '>=' | '<=' | '>' | '<'
  value: string
}

/** A report: its rows at `now`; `filter` may narrow the candidates before predicates apply. */
type Report = (market: MarketModel, now: number, filter: readonly Predicate[]) => Row[]

const REPORTS: Record<string, Report> = { RPT_SHAREBONUS_DET: shareBonusRows }

/** Page size when `pageSize` is missing or not a positive integer. */
const DEFAULT_PAGE_SIZE = 50

const failure = (code: number, message: string) => jsonResponse({ version: null, result: null, success: false, message, code })

/** The datacenter's valid empty answer (no rows, or a page past the end). */
export const datacenterEmpty = () => failure(9201, '返回数据为空')

/** Answers one `api/data/v1/get` request. */
export function handleDatacenter(params: URLSearchParams, market: MarketModel, now: number): Response {
  const report = REPORTS[params.get('reportName') ?? '']
  if (!report) return failure(9501, '报表配置不存在')
  const filter = parseFilter(params.get('filter') ?? '')
  if (!filter) return failure(9501, '筛选条件格式有误')
  const rows = sortRows(
    report(market, now, filter).filter((r) => filter.every((p) => holds(r[p.column] ?? null, p))),
    (params.get('sortColumns') ?? '').split(',').filter(Boolean),
    (params.get('sortTypes') ?? '').split(',')
  )
  const size = positiveInt(params.get('pageSize'), DEFAULT_PAGE_SIZE)
  const page = positiveInt(params.get('pageNumber'), 1)
  const data = rows.slice((page - 1) * size, page * size)
  if (data.length === 0) return datacenterEmpty()
  const columns = params.get('columns') ?? 'ALL'
  const picked = columns === 'ALL' ? data : data.map((r) => pick(r, columns.split(',')))
  const version = hashOf(params.toString()).toString(16).padStart(8, '0')
  return jsonResponse({ version, result: { pages: Math.ceil(rows.length / size), data: picked, count: rows.length }, success: true, message: 'ok', code: 0 })
}

const positiveInt = (raw: string | null, fallback: number) => {
  const n = Number(raw)
  return raw !== null && Number.isInteger(n) && n > 0 ? n : fallback
}

const PREDICATE = /\(\s*([A-Z0-9_]+)\s*(>=|<=|!=|=|>|<)\s*("[^"]*"|'[^']*'|-?\d+(?:\.\d+)?)\s*\)/y

/** `(A="x")(B>='2025-01-01')…` → predicates; null when any part is not that shape. */
export function parseFilter(text: string): Predicate[] | null {
  const out: Predicate[] = []
  const s = text.trim()
  PREDICATE.lastIndex = 0
  while (PREDICATE.lastIndex < s.length) {
    const m = PREDICATE.exec(s)
    if (!m) return null
    const raw = m[3]
    out.push({ column: m[1], op: m[2] as Predicate['op'], value: /^["']/.test(raw) ? raw.slice(1, -1) : raw })
  }
  return out
}

/** Whether a cell satisfies a predicate. A date value compares with a datetime cell's date part; null satisfies nothing. */
function holds(cell: Cell, p: Predicate): boolean {
  if (cell === null) return false
  let a: Cell = cell
  let b: Cell = p.value
  if (typeof cell === 'number') b = Number(p.value)
  else if (/^\d{4}-\d{2}-\d{2}$/.test(p.value)) a = cell.slice(0, 10)
  switch (p.op) {
    case '=':
      return a === b
    case '!=':
      return a !== b
    case '>=':
      return a >= b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '<':
      return a < b
  }
}

/** Sorts by each column in turn (`sortTypes` -1 descending, else ascending), nulls last; stable otherwise. */
function sortRows(rows: Row[], columns: string[], types: string[]): Row[] {
  return rows.sort((x, y) => {
    for (const [k, col] of columns.entries()) {
      const a = x[col] ?? null
      const b = y[col] ?? null
      if (a === b) continue
      if (a === null || b === null) return a === null ? 1 : -1
      return (a < b ? -1 : 1) * (types[k] === '-1' ? -1 : 1)
    }
    return 0
  })
}

const pick = (row: Row, columns: string[]): Row => Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]))

// ---------------------------------------------------------------------------------------------
// RPT_SHAREBONUS_DET

/** Exchange suffix of `SECUCODE` per A-share prefix. */
const SECU_SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

const stockIndex = new WeakMap<MarketModel, { all: EmuInstrument[]; byCode: Map<string, EmuInstrument[]> }>()

/** The market's A-share stocks, and the same keyed by `SECURITY_CODE` (six digits). */
function stocksOf(market: MarketModel) {
  let ix = stockIndex.get(market)
  if (!ix) {
    const all = market.instruments().filter((i) => i.kind === 'stock' && SECU_SUFFIX[i.prefix] !== undefined)
    const byCode = new Map<string, EmuInstrument[]>()
    for (const i of all) byCode.set(i.symbol, [...(byCode.get(i.symbol) ?? []), i])
    ix = { all, byCode }
    stockIndex.set(market, ix)
  }
  return ix
}

const datetime = (date: string) => `${date} 00:00:00`

/** The financial period an ex-date's distribution belongs to: interim after August, else the last annual (Q1 ex-dates: last Q3). */
function reportDate(exDate: string): string {
  const y = Number(exDate.slice(0, 4))
  const m = Number(exDate.slice(5, 7))
  if (m >= 9) return `${y}-06-30`
  return m >= 4 ? `${y - 1}-12-31` : `${y - 1}-09-30`
}

/** `10送3派5.2元(含税)`: the plan per 10 shares, as Eastmoney words it. */
function profile(cashPer10: number | null, bonusPer10: number | null): string {
  const bonus = bonusPer10 ? `送${bonusPer10}` : ''
  const cash = cashPer10 ? `派${cashPer10}元(含税)` : ''
  return `10${bonus}${cash}`
}

/** One implemented distribution: per-10-share values, dates around the ex-date. */
function bonusRow(inst: EmuInstrument, a: CorporateAction): Row {
  const cash = a.cash > 0 ? round(a.cash * 10, 4) : null
  const bonus = a.bonus > 0 ? round(a.bonus * 10, 4) : null
  const record = previousTradingDay(a.exDate)
  return {
    SECUCODE: `${inst.symbol}.${SECU_SUFFIX[inst.prefix]}`,
    SECURITY_CODE: inst.symbol,
    SECURITY_NAME_ABBR: inst.name,
    REPORT_DATE: datetime(reportDate(a.exDate)),
    PLAN_NOTICE_DATE: datetime(tradingDayOnOrBefore(addDays(a.exDate, -75))),
    NOTICE_DATE: datetime(tradingDayOnOrBefore(addDays(record, -5))),
    EQUITY_RECORD_DATE: datetime(record),
    EX_DIVIDEND_DATE: datetime(a.exDate),
    ASSIGN_PROGRESS: '实施分配',
    IMPL_PLAN_PROFILE: profile(cash, bonus),
    PRETAX_BONUS_RMB: cash,
    // The model does not tell bonus (送) from transfer (转) shares; all count as bonus.
    BONUS_IT_RATIO: bonus,
    BONUS_RATIO: bonus,
    IT_RATIO: null,
    TOTAL_SHARES: inst.totalShares,
  }
}

/** Every visible action as a row; a `SECURITY_CODE=` predicate narrows the scan to that code. */
function shareBonusRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const ix = stocksOf(market)
  const byCode = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')
  const candidates = byCode ? ix.byCode.get(byCode.value) ?? [] : ix.all
  const rows: Row[] = []
  for (const inst of candidates) {
    // The model hides future ex-dates already; the check keeps a model without a clock honest.
    for (const a of market.actions(inst, now)) if (a.exDate <= today) rows.push(bonusRow(inst, a))
  }
  return rows
}

/**
 * Eastmoney's datacenter (`datacenter-web …/api/data/v1/get`, upstreams.md §5.0) as the emulator
 * answers it, for the reports of the REPORTS table: `RPT_SHAREBONUS_DET` (dividends and bonus
 * shares, §5.2, below: one row per corporate action of a stock whose plan is announced by the
 * clock's Beijing date, at its stage then), and in their own modules the shareholder reports
 * (eastmoney-holders.ts, and the HK F10 holders on the `/securities` path: eastmoney-hk-holders.ts), the company calendar (eastmoney-events.ts), the trading reports
 * (eastmoney-datacenter-flow.ts), the statements (eastmoney-finance.ts), the 业绩报表 (eastmoney-performance.ts) and the IPO, disclosure,
 * lock-up, macro, valuation, meeting and rights-issue reports (datacenter-*.ts). `filter` predicates, `sortColumns`/`sortTypes`,
 * `columns` and paging are applied generically.
 */
import { beijing } from '../../domain/dates'
import { planDates, planStage, type PlanStage } from '../market/dividend-plans'
import { EVENT_REPORTS } from './eastmoney-events'
import { HOLDER_REPORTS } from './eastmoney-holders'
import { HK_HOLDER_REPORTS } from './eastmoney-hk-holders'
import type { CorporateAction, EmuInstrument, MarketModel } from '../market/types'
import { TRADING_REPORTS } from './eastmoney-datacenter-flow'
import { MARGIN_MARKET_REPORTS } from './eastmoney-datacenter-margin'
import { disclosureRows } from './datacenter-disclosure'
import { ipoApplyRows } from './datacenter-ipo'
import { lockupRows } from './datacenter-lockup'
import { MACRO_REPORTS } from './datacenter-macro'
import { VALUATION_REPORTS } from './datacenter-valuation'
import { CORPORATE_REPORTS } from './datacenter-corporate'
import { hashOf, round } from './format'
import { balanceRows, cashflowRows, incomeRows } from './eastmoney-finance'
import { performanceRows } from './eastmoney-performance'
import { jsonResponse } from './respond'
import { reportDate, type Cell, type Predicate, type Report, type Row } from './datacenter-rows'

/** `datacenter-web` and the older `datacenter` host answer the same v1 path. */
export const DATACENTER_HOST = /^datacenter(-web)?\.eastmoney\.com$/
export const DATACENTER_PATH = '/api/data/v1/get'

const REPORTS: Record<string, Report> = {
  RPT_SHAREBONUS_DET: shareBonusRows,
  RPT_DMSK_FN_INCOME: incomeRows,
  RPT_DMSK_FN_BALANCE: balanceRows,
  RPT_DMSK_FN_CASHFLOW: cashflowRows,
  RPT_LICO_FN_CPD: performanceRows,
  RPTA_APP_IPOAPPLY: ipoApplyRows,
  RPT_PUBLIC_BS_APPOIN: disclosureRows,
  RPT_LIFT_STAGE: lockupRows,
  ...MACRO_REPORTS,
  ...HOLDER_REPORTS,
  ...HK_HOLDER_REPORTS,
  ...EVENT_REPORTS,
  ...TRADING_REPORTS,
  ...MARGIN_MARKET_REPORTS,
  ...VALUATION_REPORTS,
  ...CORPORATE_REPORTS,
}

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
  // 32 hex digits, as every real answer's version (an md5-like hash: test/fixtures/eastmoney/*.json).
  const version = [0, 1, 2, 3].map((i) => hashOf(`${i}:${params}`).toString(16).padStart(8, '0')).join('')
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

/** `10送3派5.2元(含税)`: the plan per 10 shares, as Eastmoney words it. */
function profile(cashPer10: number | null, bonusPer10: number | null): string {
  const bonus = bonusPer10 ? `送${bonusPer10}` : ''
  const cash = cashPer10 ? `派${cashPer10}元(含税)` : ''
  return `10${bonus}${cash}`
}

/** Eastmoney's words for a plan's stage (`ASSIGN_PROGRESS`). */
const PROGRESS: Record<PlanStage, string> = { proposed: '董事会预案', approved: '股东大会决议通过', implemented: '实施分配' }

/**
 * One distribution plan at `stage`: per-10-share values; record, ex and payment dates only once
 * the implementation is announced (they may lie ahead of the clock then).
 */
function bonusRow(inst: EmuInstrument, a: CorporateAction, stage: PlanStage): Row {
  const cash = a.cash > 0 ? round(a.cash * 10, 4) : null
  const bonus = a.bonus > 0 ? round(a.bonus * 10, 4) : null
  const d = planDates(a)
  const set = stage === 'implemented'
  const latest = { proposed: d.planNotice, approved: d.approval, implemented: d.implementationNotice }[stage]
  return {
    SECUCODE: `${inst.symbol}.${SECU_SUFFIX[inst.prefix]}`,
    SECURITY_CODE: inst.symbol,
    SECURITY_NAME_ABBR: inst.name,
    REPORT_DATE: datetime(reportDate(a.exDate)),
    PLAN_NOTICE_DATE: datetime(d.planNotice),
    NOTICE_DATE: datetime(latest),
    EQUITY_RECORD_DATE: set ? datetime(d.record) : null,
    EX_DIVIDEND_DATE: set ? datetime(d.ex) : null,
    PAY_CASH_DATE: set && d.pay ? datetime(d.pay) : null,
    ASSIGN_PROGRESS: PROGRESS[stage],
    IMPL_PLAN_PROFILE: profile(cash, bonus),
    PRETAX_BONUS_RMB: cash,
    // The model does not tell bonus (送) from transfer (转) shares; all count as bonus.
    BONUS_IT_RATIO: bonus,
    BONUS_RATIO: bonus,
    IT_RATIO: null,
    TOTAL_SHARES: inst.totalShares,
  }
}

/**
 * Every plan announced by the clock's Beijing date, at its stage then; a `SECURITY_CODE=`
 * predicate narrows the scan to that code. Implemented plans are exactly the model's actions.
 */
function shareBonusRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const ix = stocksOf(market)
  const byCode = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')
  const candidates = byCode ? ix.byCode.get(byCode.value) ?? [] : ix.all
  // An EX_DIVIDEND_DATE bound can only hold for a row with that ex-date: skip the others unbuilt.
  const exBounds = filter.filter((p) => p.column === 'EX_DIVIDEND_DATE' && /^\d{4}-\d{2}-\d{2}/.test(p.value))
  const rows: Row[] = []
  for (const inst of candidates) {
    for (const a of market.actions(inst)) {
      if (!exBounds.every((p) => holds(a.exDate, { ...p, value: p.value.slice(0, 10) }))) continue
      const stage = planStage(planDates(a), today)
      if (stage) rows.push(bonusRow(inst, a, stage))
    }
  }
  return rows
}

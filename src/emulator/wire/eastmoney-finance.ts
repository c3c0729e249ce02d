/**
 * The datacenter's summary statements `RPT_DMSK_FN_INCOME`, `RPT_DMSK_FN_BALANCE` and
 * `RPT_DMSK_FN_CASHFLOW` (upstreams.md §5.1.1): one row per published report period of a stock,
 * from the fundamentals model, with Eastmoney's column names. Ratios (`*_RATIO`) are year-on-year
 * percent against the same period a year earlier, null when that period is not published.
 */
import { financialReport, financialReports, hasFundamentals, type FinancialReport } from '../market/fundamentals'
import type { EmuInstrument, MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { beijing } from '../../domain/dates'
import { Lru } from '../market/lru'
import { round } from './format'

type Statement = 'income' | 'balance' | 'cashflow'

/** Model line → Eastmoney column, per statement (names from upstreams.md §5.1.1 and F10). */
const COLUMNS = {
  income: {
    revenue: 'TOTAL_OPERATE_INCOME',
    operatingCost: 'OPERATE_COST',
    sellingExpense: 'SALE_EXPENSE',
    adminExpense: 'MANAGE_EXPENSE',
    financeExpense: 'FINANCE_EXPENSE',
    totalOperatingCost: 'TOTAL_OPERATE_COST',
    operatingProfit: 'OPERATE_PROFIT',
    totalProfit: 'TOTAL_PROFIT',
    incomeTax: 'INCOME_TAX',
    netProfit: 'NETPROFIT',
    parentNetProfit: 'PARENT_NETPROFIT',
    deductedParentNetProfit: 'DEDUCT_PARENT_NETPROFIT',
    basicEps: 'BASIC_EPS',
  },
  balance: {
    cash: 'MONETARYFUNDS',
    accountsReceivable: 'ACCOUNTS_RECE',
    inventory: 'INVENTORY',
    currentAssets: 'TOTAL_CURRENT_ASSETS',
    fixedAssets: 'FIXED_ASSET',
    totalAssets: 'TOTAL_ASSETS',
    accountsPayable: 'ACCOUNTS_PAYABLE',
    advanceReceipts: 'ADVANCE_RECEIVABLES',
    currentLiabilities: 'TOTAL_CURRENT_LIAB',
    totalLiabilities: 'TOTAL_LIABILITIES',
    parentEquity: 'TOTAL_PARENT_EQUITY',
    minorityEquity: 'MINORITY_EQUITY',
    totalEquity: 'TOTAL_EQUITY',
  },
  cashflow: {
    salesCash: 'SALES_SERVICES',
    operatingNetCash: 'NETCASH_OPERATE',
    capitalExpenditure: 'CONSTRUCT_LONG_ASSET',
    investingNetCash: 'NETCASH_INVEST',
    financingNetCash: 'NETCASH_FINANCE',
    netCashChange: 'CCE_ADD',
    beginCash: 'BEGIN_CCE',
    endCash: 'END_CCE',
  },
} as const satisfies { [S in Statement]: Partial<Record<keyof FinancialReport[S], string>> }

/** Year-on-year companions Eastmoney prints, by the column they compare. */
const RATIOS: Record<Statement, Record<string, string>> = {
  income: { TOTAL_OPERATE_INCOME: 'TOI_RATIO', PARENT_NETPROFIT: 'PARENT_NETPROFIT_RATIO', DEDUCT_PARENT_NETPROFIT: 'DPN_RATIO' },
  balance: { TOTAL_ASSETS: 'TOTAL_ASSETS_RATIO', TOTAL_LIABILITIES: 'TOTAL_LIAB_RATIO' },
  cashflow: { NETCASH_OPERATE: 'NETCASH_OPERATE_RATIO', NETCASH_INVEST: 'NETCASH_INVEST_RATIO', NETCASH_FINANCE: 'NETCASH_FINANCE_RATIO' },
}

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

/** `TRADE_MARKET_CODE` per board (upstreams.md §5.0). */
const TRADE_MARKET: Record<string, string> = {
  'sh-main': '069001001001',
  star: '069001001006',
  'sz-main': '069001002001',
  chinext: '069001002002',
  bj: '069001017',
}

const datetime = (date: string) => `${date} 00:00:00`

/** The stocks a filter asks about: the one `SECURITY_CODE=` names, else every A-share stock. */
function candidates(market: MarketModel, filter: readonly Predicate[]): EmuInstrument[] {
  const byCode = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')
  const stocks = byCode
    ? ['sh', 'sz', 'bj'].map((p) => market.byCode(p + byCode.value)).filter((i): i is EmuInstrument => i !== undefined)
    : market.instruments()
  return stocks.filter((i) => i.kind === 'stock' && SUFFIX[i.prefix] !== undefined && hasFundamentals(i))
}

const yoy = (now: number, before: number | undefined) =>
  before === undefined || before === 0 ? null : round(((now - before) / Math.abs(before)) * 100, 4)

/**
 * Rows of one statement: every published period of the `SECURITY_CODE=` stock, or, without one,
 * the `REPORT_DATE=` period of every stock (nothing else: the whole market's history is too big).
 */
function rowsOf(statement: Statement) {
  return (market: MarketModel, now: number, filter: readonly Predicate[]): Row[] => {
    const period = filter.find((p) => p.column === 'REPORT_DATE' && p.op === '=')?.value.slice(0, 10)
    const oneStock = filter.some((p) => p.column === 'SECURITY_CODE' && p.op === '=')
    if (!oneStock && !period) return []
    // The whole market's rows of a period change only with the date: the pages of one walk share them.
    const memoKey = oneStock ? undefined : `${statement}|${period}|${beijing(now).date}`
    const known = memoKey ? wholeMarket.get(memoKey) : undefined
    if (known) return known
    const rows: Row[] = []
    for (const inst of candidates(market, filter)) {
      if (period) {
        const r = financialReport(market, inst, period, now)
        if (r) rows.push(row(inst, statement, r, financialReport(market, inst, lastYear(period), now) ?? undefined))
        continue
      }
      const reports = financialReports(market, inst, now)
      const byPeriod = new Map(reports.map((r) => [r.period, r]))
      for (const r of reports) rows.push(row(inst, statement, r, byPeriod.get(lastYear(r.period))))
    }
    if (memoKey) wholeMarket.set(memoKey, rows)
    return rows
  }
}

/** Whole-market rows by statement, period and Beijing date (a few periods' worth: each is 5,500 rows). */
const wholeMarket = new Lru<string, Row[]>(12)

const lastYear = (period: string) => `${+period.slice(0, 4) - 1}${period.slice(4)}`

function row(inst: EmuInstrument, statement: Statement, r: FinancialReport, lastYear: FinancialReport | undefined): Row {
  const out: Row = {
    SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
    SECURITY_CODE: inst.symbol,
    SECURITY_NAME_ABBR: inst.name,
    SECURITY_TYPE_CODE: '058001001',
    TRADE_MARKET_CODE: TRADE_MARKET[inst.board ?? 'sh-main'],
    REPORT_DATE: datetime(r.period),
    NOTICE_DATE: datetime(r.noticeDate),
  }
  const lines = r[statement] as unknown as Record<string, number>
  const before = lastYear?.[statement] as unknown as Record<string, number> | undefined
  for (const [key, column] of Object.entries(COLUMNS[statement])) {
    out[column] = lines[key]
    const ratio = RATIOS[statement][column]
    if (ratio) out[ratio] = yoy(lines[key], before?.[key])
  }
  if (statement === 'balance') {
    const b = r.balance
    out.DEBT_ASSET_RATIO = round((b.totalLiabilities / b.totalAssets) * 100, 4)
    out.CURRENT_RATIO = round(b.currentAssets / b.currentLiabilities, 4)
  }
  return out
}

export const incomeRows = rowsOf('income')
export const balanceRows = rowsOf('balance')
export const cashflowRows = rowsOf('cashflow')

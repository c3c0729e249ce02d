/**
 * The datacenter's summary statements `RPT_DMSK_FN_INCOME`, `RPT_DMSK_FN_BALANCE` and
 * `RPT_DMSK_FN_CASHFLOW` (upstreams.md §5.1.1): one row per published report period of a stock,
 * from the fundamentals model, with exactly the real reports' columns in their order (46, 57 and
 * 48: test/fixtures/eastmoney/fn-income-period-row.json, fn-balance-period-row.json,
 * fn-cashflow-period-row.json). These summaries carry no net profit, EPS, current totals or
 * parent/minority equity split, so neither does this. Units as the real rows have them:
 * - income and balance `*_RATIO`: year-on-year percent against the same period a year earlier,
 *   null when that period is not published or was 0 (CCE_ADD_RATIO of the cash flow too);
 * - CURRENT_RATIO and DEBT_ASSET_RATIO: current assets / current liabilities and liabilities /
 *   assets, in percent (the balance capture: 101.11 and 37.73);
 * - the other cash-flow `*_RATIO`: the line over the period's net change CCE_ADD, in percent (the
 *   cash-flow capture: NETCASH_OPERATE_RATIO 115.69 = NETCASH_OPERATE / CCE_ADD × 100).
 * Lines the model has no figure for (tax and surcharges, staff cash, bank and insurer lines) are
 * null, as the real rows of an industrial company send most of them.
 */
import { financialReport, financialReports, hasFundamentals, type FinancialReport } from '../market/fundamentals'
import type { EmuInstrument, MarketModel } from '../market/types'
import type { Cell, Predicate, Row } from './datacenter-rows'
import { beijing } from '../../domain/dates'
import { SECTORS } from '../market/catalog'
import { industryOf, valuationBoardCode } from '../market/industries'
import { Lru } from '../market/lru'
import { hashString } from '../market/random'
import { round } from './format'

type Statement = 'income' | 'balance' | 'cashflow'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

/** `TRADE_MARKET_CODE` per board (upstreams.md §5.0). */
export const TRADE_MARKET: Record<string, string> = {
  'sh-main': '069001001001',
  star: '069001001006',
  'sz-main': '069001002001',
  chinext: '069001002002',
  bj: '069001017',
}

export const datetime = (date: string) => `${date} 00:00:00`

/** The stocks a filter asks about: the one `SECURITY_CODE=` names, else every A-share stock. */
export function candidates(market: MarketModel, filter: readonly Predicate[]): EmuInstrument[] {
  const byCode = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')
  const stocks = byCode
    ? ['sh', 'sz', 'bj'].map((p) => market.byCode(p + byCode.value)).filter((i): i is EmuInstrument => i !== undefined)
    : market.instruments()
  return stocks.filter((i) => i.kind === 'stock' && SUFFIX[i.prefix] !== undefined && hasFundamentals(i))
}

/** `MARKET`: the captures show `kcb` (STAR) and `cyb` (ChiNext); the main boards' and BJ's words are ours. */
const MARKET_WORD: Record<string, string> = { 'sh-main': 'shzb', star: 'kcb', 'sz-main': 'szzb', chinext: 'cyb', bj: 'bjs' }

/**
 * `DATE_TYPE_CODE` by quarter: 001 for an annual report and 002 for the half year (the captures'
 * 2020-06-30 rows), 003 for Q1 and 004 for Q3 (the same numbering; Q3's code not seen in a capture).
 */
const DATE_TYPE: Record<string, string> = { '12-31': '001', '06-30': '002', '03-31': '003', '09-30': '004' }

/** Percent change over `before`, `decimals` as the real column prints it; null without a base. */
const yoy = (now: number, before: number | undefined, decimals = 10): number | null =>
  before === undefined || before === 0 ? null : round(((now - before) / Math.abs(before)) * 100, decimals)

/** `x` as a percent of `of` (10 decimals, as the captures); null when `of` is 0. */
const pct = (x: number, of: number): number | null => (of === 0 ? null : round((x / of) * 100, 10))

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

export const lastYear = (period: string) => `${+period.slice(0, 4) - 1}${period.slice(4)}`

/** `ORG_CODE`: a stable eight-digit number per stock, the same in every report. */
export const orgCodeOf = (inst: EmuInstrument) => String(10_000_000 + (hashString('org:' + inst.code) % 90_000_000))

/** A stock's columns that do not change with the period: built once per instrument. */
const fixedColumns = new WeakMap<EmuInstrument, Row>()

/** The 14 columns every row of the three reports opens with, in the captures' order (`REPORT_DATE` last). */
function identity(inst: EmuInstrument, r: FinancialReport): Row {
  let fixed = fixedColumns.get(inst)
  if (!fixed) {
    const bk = industryOf(inst)
    const board = inst.board ?? 'sh-main'
    fixed = {
      SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
      SECURITY_CODE: inst.symbol,
      INDUSTRY_CODE: bk ? valuationBoardCode(bk) : null,
      ORG_CODE: orgCodeOf(inst),
      SECURITY_NAME_ABBR: inst.name,
      INDUSTRY_NAME: bk ? SECTORS[bk] : null,
      MARKET: MARKET_WORD[board],
      SECURITY_TYPE_CODE: '058001001',
      TRADE_MARKET_CODE: TRADE_MARKET[board],
    }
    fixedColumns.set(inst, fixed)
  }
  return {
    ...fixed,
    DATE_TYPE_CODE: DATE_TYPE[r.period.slice(5)],
    REPORT_TYPE_CODE: '001',
    DATA_STATE: '2',
    NOTICE_DATE: datetime(r.noticeDate),
    REPORT_DATE: datetime(r.period),
  }
}

/** Null for each of `columns` (lines the model does not have). */
const nulls = (...columns: string[]): Readonly<Record<string, Cell>> => Object.freeze(Object.fromEntries(columns.map((c) => [c, null])))

const INCOME_BANK = nulls('OPERATE_INCOME', 'INTEREST_NI', 'INTEREST_NI_RATIO', 'FEE_COMMISSION_NI', 'FCN_RATIO', 'OPERATE_TAX_ADD', 'MANAGE_EXPENSE_BANK',
  'FCN_CALCULATE', 'INTEREST_NI_CALCULATE', 'EARNED_PREMIUM', 'EARNED_PREMIUM_RATIO', 'INVEST_INCOME', 'SURRENDER_VALUE', 'COMPENSATE_EXPENSE')
const BALANCE_BANK = nulls('CASH_DEPOSIT_PBC', 'CDP_RATIO', 'LOAN_ADVANCE', 'LOAN_ADVANCE_RATIO', 'AVAILABLE_SALE_FINASSET', 'ASF_RATIO', 'LOAN_PBC', 'LOAN_PBC_RATIO',
  'ACCEPT_DEPOSIT', 'ACCEPT_DEPOSIT_RATIO', 'SELL_REPO_FINASSET', 'SRF_RATIO', 'SETTLE_EXCESS_RESERVE', 'SER_RATIO', 'BORROW_FUND', 'BORROW_FUND_RATIO',
  'AGENT_TRADE_SECURITY', 'ATS_RATIO', 'PREMIUM_RECE', 'PREMIUM_RECE_RATIO', 'SHORT_LOAN', 'SHORT_LOAN_RATIO', 'ADVANCE_PREMIUM', 'ADVANCE_PREMIUM_RATIO')
const STAFF = nulls('PAY_STAFF_CASH', 'PSC_RATIO')
const INVEST_INCOME = nulls('RECEIVE_INVEST_INCOME', 'RII_RATIO')
const CASHFLOW_BANK = nulls('CUSTOMER_DEPOSIT_ADD', 'CDA_RATIO', 'DEPOSIT_IOFI_OTHER', 'DIO_RATIO', 'LOAN_ADVANCE_ADD', 'LAA_RATIO',
  'RECEIVE_INTEREST_COMMISSION', 'RIC_RATIO', 'INVEST_PAY_CASH', 'IPC_RATIO')
const INSURER = nulls('RECEIVE_ORIGIC_PREMIUM', 'ROP_RATIO', 'PAY_ORIGIC_COMPENSATE', 'POC_RATIO')

function incomeColumns(r: FinancialReport, last: FinancialReport | undefined): Row {
  const i = r.income
  const b = last?.income
  return {
    PARENT_NETPROFIT: i.parentNetProfit,
    TOTAL_OPERATE_INCOME: i.revenue,
    TOTAL_OPERATE_COST: i.totalOperatingCost,
    TOE_RATIO: yoy(i.totalOperatingCost, b?.totalOperatingCost),
    OPERATE_COST: i.operatingCost,
    // 营业支出 of a non-financial company is its operating cost (the capture: equal to OPERATE_COST).
    OPERATE_EXPENSE: i.operatingCost,
    OPERATE_EXPENSE_RATIO: yoy(i.operatingCost, b?.operatingCost),
    SALE_EXPENSE: i.sellingExpense,
    MANAGE_EXPENSE: i.adminExpense,
    FINANCE_EXPENSE: i.financeExpense,
    OPERATE_PROFIT: i.operatingProfit,
    TOTAL_PROFIT: i.totalProfit,
    INCOME_TAX: i.incomeTax,
    ...INCOME_BANK,
    TOI_RATIO: yoy(i.revenue, b?.revenue),
    OPERATE_PROFIT_RATIO: yoy(i.operatingProfit, b?.operatingProfit, 12),
    PARENT_NETPROFIT_RATIO: yoy(i.parentNetProfit, b?.parentNetProfit, 2),
    DEDUCT_PARENT_NETPROFIT: i.deductedParentNetProfit,
    DPN_RATIO: yoy(i.deductedParentNetProfit, b?.deductedParentNetProfit, 12),
  }
}

function balanceColumns(r: FinancialReport, last: FinancialReport | undefined): Row {
  const x = r.balance
  const b = last?.balance
  return {
    TOTAL_ASSETS: x.totalAssets,
    FIXED_ASSET: x.fixedAssets,
    MONETARYFUNDS: x.cash,
    MONETARYFUNDS_RATIO: yoy(x.cash, b?.cash),
    ACCOUNTS_RECE: x.accountsReceivable,
    ACCOUNTS_RECE_RATIO: yoy(x.accountsReceivable, b?.accountsReceivable),
    INVENTORY: x.inventory,
    INVENTORY_RATIO: yoy(x.inventory, b?.inventory),
    TOTAL_LIABILITIES: x.totalLiabilities,
    ACCOUNTS_PAYABLE: x.accountsPayable,
    ACCOUNTS_PAYABLE_RATIO: yoy(x.accountsPayable, b?.accountsPayable),
    ADVANCE_RECEIVABLES: x.advanceReceipts,
    ADVANCE_RECEIVABLES_RATIO: yoy(x.advanceReceipts, b?.advanceReceipts),
    TOTAL_EQUITY: x.totalEquity,
    TOTAL_EQUITY_RATIO: yoy(x.totalEquity, b?.totalEquity),
    TOTAL_ASSETS_RATIO: yoy(x.totalAssets, b?.totalAssets),
    TOTAL_LIAB_RATIO: yoy(x.totalLiabilities, b?.totalLiabilities),
    CURRENT_RATIO: pct(x.currentAssets, x.currentLiabilities),
    DEBT_ASSET_RATIO: pct(x.totalLiabilities, x.totalAssets),
    ...BALANCE_BANK,
  }
}

function cashflowColumns(r: FinancialReport, last: FinancialReport | undefined): Row {
  const c = r.cashflow
  const of = (x: number) => pct(x, c.netCashChange)
  return {
    NETCASH_OPERATE: c.operatingNetCash,
    NETCASH_OPERATE_RATIO: of(c.operatingNetCash),
    SALES_SERVICES: c.salesCash,
    SALES_SERVICES_RATIO: of(c.salesCash),
    ...STAFF,
    NETCASH_INVEST: c.investingNetCash,
    NETCASH_INVEST_RATIO: of(c.investingNetCash),
    ...INVEST_INCOME,
    CONSTRUCT_LONG_ASSET: c.capitalExpenditure,
    CLA_RATIO: of(c.capitalExpenditure),
    NETCASH_FINANCE: c.financingNetCash,
    NETCASH_FINANCE_RATIO: of(c.financingNetCash),
    CCE_ADD: c.netCashChange,
    CCE_ADD_RATIO: yoy(c.netCashChange, last?.cashflow.netCashChange),
    ...CASHFLOW_BANK,
    // The capture sends both null; the model has them, and the pair's ratios follow the family's rule.
    BEGIN_CCE: c.beginCash,
    BEGIN_CCE_RATIO: of(c.beginCash),
    END_CCE: c.endCash,
    END_CCE_RATIO: of(c.endCash),
    ...INSURER,
  }
}

const COLUMNS_OF = { income: incomeColumns, balance: balanceColumns, cashflow: cashflowColumns }

function row(inst: EmuInstrument, statement: Statement, r: FinancialReport, lastYear: FinancialReport | undefined): Row {
  return { ...identity(inst, r), ...COLUMNS_OF[statement](r, lastYear) }
}

export const incomeRows = rowsOf('income')
export const balanceRows = rowsOf('balance')
export const cashflowRows = rowsOf('cashflow')

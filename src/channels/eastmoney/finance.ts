/**
 * Financial statements from the datacenter's summary reports `RPT_DMSK_FN_INCOME`,
 * `RPT_DMSK_FN_BALANCE` and `RPT_DMSK_FN_CASHFLOW` (upstreams.md §5.1.1): one row per report
 * period, amounts in CNY, cumulative within the year for income and cash flow. Rows are mapped
 * onto our statement lines (src/domain/finance.ts) and checked before they leave.
 *
 * These summary reports lack some of our lines (the real columns: test/fixtures/eastmoney/
 * fn-income-period-row.json, fn-balance-period-row.json, fn-cashflow-period-row.json):
 * - `net_profit` (净利润, minority share included) has no column; it is TOTAL_PROFIT − INCOME_TAX,
 *   the statement's own definition (the income capture's difference is its PARENT_NETPROFIT to the
 *   fen: a company without minority interests);
 * - `basic_eps` has no column, and the weighted share count it divides by is not known here: null;
 * - `current_assets` and `current_liabilities` are not sent, only their ratio CURRENT_RATIO: null;
 * - `parent_equity` and `minority_equity` are not sent, only TOTAL_EQUITY: null.
 */
import {
  BALANCE_LINES, CASHFLOW_LINES, INCOME_LINES,
  type BalanceLine, type CashflowLine, type IncomeLine, type StatementRow, type Statements,
} from '../../domain/finance'
import type { Instrument } from '../../domain/instrument'
import { empty, malformed, unsupported } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { datacenterUrl, readDatacenter } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

export const FINANCE_REPORTS = {
  income: 'RPT_DMSK_FN_INCOME',
  balance: 'RPT_DMSK_FN_BALANCE',
  cashflow: 'RPT_DMSK_FN_CASHFLOW',
} as const

/**
 * Our line → Eastmoney column, per statement; null for a line the report has no column for
 * (`net_profit` is derived after, the others stay null). A column present but null reads as null.
 */
const FINANCE_COLUMNS: {
  income: Record<IncomeLine, string | null>
  balance: Record<BalanceLine, string | null>
  cashflow: Record<CashflowLine, string | null>
} = {
  income: {
    revenue: 'TOTAL_OPERATE_INCOME',
    operating_cost: 'OPERATE_COST',
    selling_expense: 'SALE_EXPENSE',
    admin_expense: 'MANAGE_EXPENSE',
    finance_expense: 'FINANCE_EXPENSE',
    total_operating_cost: 'TOTAL_OPERATE_COST',
    operating_profit: 'OPERATE_PROFIT',
    total_profit: 'TOTAL_PROFIT',
    income_tax: 'INCOME_TAX',
    net_profit: null,
    parent_net_profit: 'PARENT_NETPROFIT',
    deducted_parent_net_profit: 'DEDUCT_PARENT_NETPROFIT',
    basic_eps: null,
  },
  balance: {
    cash: 'MONETARYFUNDS',
    accounts_receivable: 'ACCOUNTS_RECE',
    inventory: 'INVENTORY',
    current_assets: null,
    fixed_assets: 'FIXED_ASSET',
    total_assets: 'TOTAL_ASSETS',
    accounts_payable: 'ACCOUNTS_PAYABLE',
    advance_receipts: 'ADVANCE_RECEIVABLES',
    current_liabilities: null,
    total_liabilities: 'TOTAL_LIABILITIES',
    parent_equity: null,
    minority_equity: null,
    total_equity: 'TOTAL_EQUITY',
  },
  cashflow: {
    sales_cash: 'SALES_SERVICES',
    operating_net_cash: 'NETCASH_OPERATE',
    capital_expenditure: 'CONSTRUCT_LONG_ASSET',
    investing_net_cash: 'NETCASH_INVEST',
    financing_net_cash: 'NETCASH_FINANCE',
    net_cash_change: 'CCE_ADD',
    begin_cash: 'BEGIN_CCE',
    end_cash: 'END_CCE',
  },
}

export type StatementName = keyof typeof FINANCE_REPORTS

const LINES = { income: INCOME_LINES, balance: BALANCE_LINES, cashflow: CASHFLOW_LINES }
const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const PERIOD = /^(\d{4}-(03-31|06-30|09-30|12-31))( 00:00:00)?$/

/** URL of the latest `num` periods of one statement of one stock, newest first. */
export function financeUrl(statement: StatementName, inst: Instrument, num: number): string {
  return datacenterUrl({
    report: FINANCE_REPORTS[statement],
    filter: `(SECURITY_CODE="${inst.symbol}")`,
    sortColumns: 'REPORT_DATE',
    sortTypes: '-1',
    page: 1,
    pageSize: num,
  })
}

/** A money cell: a finite number, or null when absent. Text and other types are `malformed`. */
function money(row: JsonObject, column: string, where: string): number | null {
  const v = row[column]
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'number' && Number.isFinite(v)) return v
  throw malformed(CHANNEL, `${column} of ${where} is not a number: ${JSON.stringify(v)}`)
}

/** |a − b| small enough for two sums of the same cents, rounded separately upstream. */
const agrees = (a: number, b: number) => Math.abs(a - b) <= 1 + Math.abs(a) * 1e-6

const cents = (x: number) => Math.round(x * 100) / 100

/**
 * The statement-specific identities a row must satisfy, on real columns only. A balance row must
 * carry its three totals and they must add up (assets = liabilities + equity); its
 * DEBT_ASSET_RATIO, when sent, must be liabilities / assets in percent (the balance capture's is,
 * to 1e-10). A cash-flow row's end − begin cash must be the net change when all three are sent
 * (the cash-flow capture sends no begin or end cash).
 */
function checkRow(statement: StatementName, r: Record<string, number | null>, row: JsonObject, where: string): void {
  if (statement === 'balance') {
    const { total_assets: a, total_liabilities: l, total_equity: e } = r
    if (a === null || l === null || e === null) throw malformed(CHANNEL, `${where}: balance row without TOTAL_ASSETS, TOTAL_LIABILITIES and TOTAL_EQUITY (${a}, ${l}, ${e})`)
    if (!agrees(a, l + e)) throw malformed(CHANNEL, `${where}: assets ${a} ≠ liabilities ${l} + equity ${e}`)
    const ratio = money(row, 'DEBT_ASSET_RATIO', where)
    if (ratio !== null && a !== 0 && Math.abs(ratio - (l / a) * 100) > 1e-3) throw malformed(CHANNEL, `${where}: DEBT_ASSET_RATIO ${ratio} is not liabilities ${l} / assets ${a} in %`)
  }
  if (statement === 'cashflow') {
    const { begin_cash: b, end_cash: e, net_cash_change: n } = r
    if (b !== null && e !== null && n !== null && !agrees(e - b, n)) throw malformed(CHANNEL, `${where}: end cash ${e} − begin cash ${b} ≠ net change ${n}`)
  }
}

/** Our lines of one upstream row, each a number or null, checked for the statement's identities. */
export function statementLines(statement: StatementName, row: JsonObject, where: string): Record<string, number | null> {
  const columns = FINANCE_COLUMNS[statement] as Record<string, string | null>
  const lines: Record<string, number | null> = {}
  for (const { name } of LINES[statement]) {
    const column = columns[name]
    lines[name] = column === null ? null : money(row, column, where)
  }
  if (statement === 'income') {
    const { total_profit: t, income_tax: tax } = lines
    lines.net_profit = t === null || tax === null ? null : cents(t - tax)
  }
  checkRow(statement, lines, row, where)
  return lines
}

/**
 * One statement's rows for `inst`, newest first, at most `num`. Every row must be that stock's,
 * dated at a quarter end, in strictly descending period order, and add up; else `malformed`.
 */
export function parseStatement<L extends string>(statement: StatementName, rows: JsonObject[], inst: Instrument, num: number): StatementRow<L>[] {
  const secucode = `${inst.symbol}.${SUFFIX[inst.prefix]}`
  const out: StatementRow<L>[] = []
  let previous = '9999-12-31'
  for (const row of rows.slice(0, num)) {
    const named = row.SECUCODE ?? row.SECURITY_CODE
    if (named !== (row.SECUCODE === undefined ? inst.symbol : secucode)) {
      throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} row of ${JSON.stringify(named)} answers a request for ${secucode}`)
    }
    const m = typeof row.REPORT_DATE === 'string' ? PERIOD.exec(row.REPORT_DATE) : null
    if (!m) throw malformed(CHANNEL, `REPORT_DATE is not a quarter end: ${JSON.stringify(row.REPORT_DATE)}`)
    const period = m[1]
    if (period >= previous) throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} periods not strictly descending at ${period}`)
    previous = period
    const lines = statementLines(statement, row, `${secucode} ${period}`)
    out.push({ EndDate: period, ...lines } as StatementRow<L>)
  }
  return out
}

/**
 * The three statements of one A-share stock, latest `num` periods each. No rows in any of them
 * is `empty` (unknown code, or nothing published yet).
 */
export async function fetchFinance(ctx: ChannelContext, inst: Instrument, num: number): Promise<Statements> {
  if (inst.kind !== 'stock' || !SUFFIX[inst.prefix]) throw unsupported(CHANNEL, `statements are for sh/sz/bj stocks, not ${inst.code}`)
  const read = async (s: StatementName) => {
    const page = readDatacenter(await fetchText(ctx, CHANNEL, financeUrl(s, inst, num)))
    return page ? page.data : []
  }
  const [income, balance, cashflow] = await Promise.all([read('income'), read('balance'), read('cashflow')])
  if (!income.length && !balance.length && !cashflow.length) throw empty(CHANNEL, `no statements for ${inst.code}`)
  return [
    parseStatement<IncomeLine>('income', income, inst, num),
    parseStatement<BalanceLine>('balance', balance, inst, num),
    parseStatement<CashflowLine>('cashflow', cashflow, inst, num),
  ]
}

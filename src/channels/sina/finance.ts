/**
 * Financial statements from Sina (`quotes.sina.cn/cn/api/openapi.php/CompanyFinanceService.getFinanceReport2022`,
 * upstreams.md §5.1.5), the second channel after Eastmoney's datacenter: `source=lrb` income, `fzb`
 * balance sheet, `llb` cash flow; `result.data.report_date[]` lists the periods and
 * `result.data.report_list[YYYYMMDD].data[]` holds `{item_title, item_value}` lines keyed by their
 * Chinese title. Titles are matched exactly against one table per statement (the income titles are
 * those of a real answer, test/fixtures/sina/finance-lrb-sh603596-2025-12-21-155011.json; the
 * balance-sheet and cash-flow ones are ours); a title Sina does not send reads as null. The income
 * statement has no line excluding non-recurring items: that line is always null from Sina.
 */
import {
  BALANCE_LINES, CASHFLOW_LINES, INCOME_LINES,
  type BalanceLine, type CashflowLine, type IncomeLine, type StatementRow, type Statements,
} from '../../domain/finance'
import type { Instrument } from '../../domain/instrument'
import { empty, malformed, unsupported } from '../errors'
import { isObject, parseJson } from '../json'
import type { ChannelContext } from '../types'
import { CHANNEL, sinaText } from './fetch'

const SINA_FINANCE_URL = 'https://quotes.sina.cn/cn/api/openapi.php/CompanyFinanceService.getFinanceReport2022'

type StatementName = 'income' | 'balance' | 'cashflow'
const SOURCE: Record<StatementName, string> = { income: 'lrb', balance: 'fzb', cashflow: 'llb' }
const LINES = { income: INCOME_LINES, balance: BALANCE_LINES, cashflow: CASHFLOW_LINES }

/** Our line → Sina's item title; null for a line Sina's statement does not have. */
const SINA_TITLES: {
  income: Record<IncomeLine, string | null>
  balance: Record<BalanceLine, string>
  cashflow: Record<CashflowLine, string>
} = {
  income: {
    revenue: '营业总收入',
    operating_cost: '营业成本',
    selling_expense: '销售费用',
    admin_expense: '管理费用',
    finance_expense: '财务费用',
    total_operating_cost: '营业总成本',
    operating_profit: '营业利润',
    total_profit: '利润总额',
    income_tax: '所得税费用',
    net_profit: '净利润',
    parent_net_profit: '归属于母公司所有者的净利润',
    deducted_parent_net_profit: null,
    basic_eps: '基本每股收益',
  },
  balance: {
    cash: '货币资金',
    accounts_receivable: '应收账款',
    inventory: '存货',
    current_assets: '流动资产合计',
    fixed_assets: '固定资产',
    total_assets: '资产总计',
    accounts_payable: '应付账款',
    advance_receipts: '预收款项',
    current_liabilities: '流动负债合计',
    total_liabilities: '负债合计',
    parent_equity: '归属于母公司股东权益合计',
    minority_equity: '少数股东权益',
    total_equity: '所有者权益(或股东权益)合计',
  },
  cashflow: {
    sales_cash: '销售商品、提供劳务收到的现金',
    operating_net_cash: '经营活动产生的现金流量净额',
    capital_expenditure: '购建固定资产、无形资产和其他长期资产支付的现金',
    investing_net_cash: '投资活动产生的现金流量净额',
    financing_net_cash: '筹资活动产生的现金流量净额',
    net_cash_change: '现金及现金等价物净增加额',
    begin_cash: '期初现金及现金等价物余额',
    end_cash: '期末现金及现金等价物余额',
  },
}

export const sinaFinanceUrl = (statement: StatementName, inst: Instrument) =>
  `${SINA_FINANCE_URL}?paperCode=${inst.code}&source=${SOURCE[statement]}&type=0&page=1&num=1000`

const PERIOD = /^(\d{4})(0331|0630|0930|1231)$/
const agrees = (a: number, b: number) => Math.abs(a - b) <= 1 + Math.abs(a) * 1e-6

/** A value string in yuan; empty, `--` or missing is null. */
function value(raw: unknown, where: string): number | null {
  if (raw === undefined || raw === null || raw === '' || raw === '--') return null
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN
  if (!Number.isFinite(n)) throw malformed(CHANNEL, `${where} is not a number: ${JSON.stringify(raw)}`)
  return n
}

/** One statement's latest `num` periods from a decoded answer, newest first. */
export function parseSinaStatement<L extends string>(statement: StatementName, text: string, inst: Instrument, num: number): StatementRow<L>[] {
  const json = parseJson(CHANNEL, text, 'statements answer')
  const result = isObject(json) ? json.result : undefined
  const data = isObject(result) ? result.data : undefined
  if (!isObject(result) || !isObject(result.status) || result.status.code !== 0) throw malformed(CHANNEL, 'statements answer has no result.status.code 0')
  if (!isObject(data) || !Array.isArray(data.report_date) || !isObject(data.report_list)) throw malformed(CHANNEL, 'statements answer has no report_date / report_list')
  const titles = SINA_TITLES[statement] as Record<string, string | null>
  const out: StatementRow<L>[] = []
  let previous = '99999999'
  for (const d of data.report_date.slice(0, num)) {
    const ymd = isObject(d) ? String(d.date_value ?? '') : ''
    const m = PERIOD.exec(ymd)
    if (!m) throw malformed(CHANNEL, `report date is not a quarter end: ${JSON.stringify(ymd)}`)
    if (ymd >= previous) throw malformed(CHANNEL, `report dates not strictly descending at ${ymd}`)
    previous = ymd
    const report = data.report_list[ymd]
    if (!isObject(report) || !Array.isArray(report.data)) throw malformed(CHANNEL, `no report_list entry for ${ymd}`)
    const byTitle = new Map<string, unknown>()
    for (const item of report.data) if (isObject(item) && typeof item.item_title === 'string' && !byTitle.has(item.item_title)) byTitle.set(item.item_title, item.item_value)
    const period = `${m[1]}-${m[2].slice(0, 2)}-${m[2].slice(2)}`
    const lines: Record<string, number | null> = {}
    for (const { name } of LINES[statement]) {
      const title = titles[name]
      lines[name] = title === null ? null : value(byTitle.get(title), `${title} of ${inst.code} ${period}`)
    }
    check(statement, lines, `${inst.code} ${period}`)
    out.push({ EndDate: period, ...lines } as StatementRow<L>)
  }
  return out
}

function check(statement: StatementName, r: Record<string, number | null>, where: string): void {
  if (statement === 'balance') {
    const { total_assets: a, total_liabilities: l, total_equity: e } = r
    if (a !== null && l !== null && e !== null && !agrees(a, l + e)) throw malformed(CHANNEL, `${where}: assets ${a} ≠ liabilities ${l} + equity ${e}`)
  }
  if (statement === 'cashflow') {
    const { begin_cash: b, end_cash: e, net_cash_change: n } = r
    if (b !== null && e !== null && n !== null && !agrees(e - b, n)) throw malformed(CHANNEL, `${where}: end cash ${e} − begin cash ${b} ≠ net change ${n}`)
  }
}

/** The three statements of one A-share stock from Sina; no periods in any is `empty`. */
export async function fetchSinaFinance(ctx: ChannelContext, inst: Instrument, num: number): Promise<Statements> {
  if (inst.kind !== 'stock' || !['sh', 'sz', 'bj'].includes(inst.prefix)) throw unsupported(CHANNEL, `statements are for sh/sz/bj stocks, not ${inst.code}`)
  const [income, balance, cashflow] = await Promise.all(
    (['income', 'balance', 'cashflow'] as const).map(async (s) => parseSinaStatement(s, await sinaText(ctx, sinaFinanceUrl(s, inst)), inst, num))
  )
  if (!income.length && !balance.length && !cashflow.length) throw empty(CHANNEL, `no statements for ${inst.code}`)
  return [income, balance, cashflow] as Statements
}

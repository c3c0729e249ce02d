/**
 * The three financial statements as /v1/finance serves them: one naming scheme (English
 * snake_case), one table per statement, each line with its meaning and unit. Channel parsers map
 * upstream columns onto these names; the route's schema is built from the same table.
 */

/** One statement line: our name, what it is, and the unit. */
export interface StatementLine {
  name: string
  description: string
}

const cny = (what: string) => `${what}, CNY`

/** Income statement lines, cumulative from January 1 to the period end. */
export const INCOME_LINES = [
  { name: 'revenue', description: cny('Total operating revenue (营业总收入)') },
  { name: 'operating_cost', description: cny('Operating cost (营业成本)') },
  { name: 'selling_expense', description: cny('Selling expense (销售费用)') },
  { name: 'admin_expense', description: cny('Administrative expense (管理费用)') },
  { name: 'finance_expense', description: cny('Finance expense (财务费用; negative when interest income exceeds it)') },
  { name: 'total_operating_cost', description: cny('Total operating cost (营业总成本)') },
  { name: 'operating_profit', description: cny('Operating profit (营业利润)') },
  { name: 'total_profit', description: cny('Profit before tax (利润总额)') },
  { name: 'income_tax', description: cny('Income tax (所得税)') },
  { name: 'net_profit', description: cny('Net profit including minority interests (净利润)') },
  { name: 'parent_net_profit', description: cny('Net profit attributable to the parent\'s shareholders (归母净利润)') },
  { name: 'deducted_parent_net_profit', description: cny('Attributable net profit excluding non-recurring items (扣非归母净利润)') },
  { name: 'basic_eps', description: 'Basic earnings per share (基本每股收益), CNY per share' },
] as const satisfies readonly StatementLine[]

/** Balance sheet lines at the period end. */
export const BALANCE_LINES = [
  { name: 'cash', description: cny('Cash and equivalents (货币资金)') },
  { name: 'accounts_receivable', description: cny('Accounts receivable (应收账款)') },
  { name: 'inventory', description: cny('Inventory (存货)') },
  { name: 'current_assets', description: cny('Total current assets (流动资产合计)') },
  { name: 'fixed_assets', description: cny('Fixed assets (固定资产)') },
  { name: 'total_assets', description: cny('Total assets (资产总计) = total_liabilities + total_equity') },
  { name: 'accounts_payable', description: cny('Accounts payable (应付账款)') },
  { name: 'advance_receipts', description: cny('Advance receipts (预收款项)') },
  { name: 'current_liabilities', description: cny('Total current liabilities (流动负债合计)') },
  { name: 'total_liabilities', description: cny('Total liabilities (负债合计)') },
  { name: 'parent_equity', description: cny('Equity attributable to the parent\'s shareholders (归属于母公司股东权益)') },
  { name: 'minority_equity', description: cny('Minority interests (少数股东权益)') },
  { name: 'total_equity', description: cny('Total equity (股东权益合计)') },
] as const satisfies readonly StatementLine[]

/** Cash-flow statement lines, cumulative from January 1 to the period end. */
export const CASHFLOW_LINES = [
  { name: 'sales_cash', description: cny('Cash received from sales of goods and services (销售商品、提供劳务收到的现金)') },
  { name: 'operating_net_cash', description: cny('Net cash flow from operating activities (经营活动产生的现金流量净额)') },
  { name: 'capital_expenditure', description: cny('Cash paid for fixed and long-term assets (购建固定资产等支付的现金), positive') },
  { name: 'investing_net_cash', description: cny('Net cash flow from investing activities (投资活动产生的现金流量净额)') },
  { name: 'financing_net_cash', description: cny('Net cash flow from financing activities (筹资活动产生的现金流量净额)') },
  { name: 'net_cash_change', description: cny('Net increase in cash and equivalents (现金及现金等价物净增加额)') },
  { name: 'begin_cash', description: cny('Cash and equivalents at the beginning of the year (期初现金及现金等价物余额)') },
  { name: 'end_cash', description: cny('Cash and equivalents at the period end (期末现金及现金等价物余额)') },
] as const satisfies readonly StatementLine[]

export type IncomeLine = (typeof INCOME_LINES)[number]['name']
export type BalanceLine = (typeof BALANCE_LINES)[number]['name']
export type CashflowLine = (typeof CASHFLOW_LINES)[number]['name']

/** One period of a statement: `EndDate` (the public name) plus its lines; null where the upstream has no value. */
export type StatementRow<L extends string> = { EndDate: string } & Record<L, number | null>

/** `[income, balance, cashflow]`, each latest period first (/v1/finance). */
export type Statements = [StatementRow<IncomeLine>[], StatementRow<BalanceLine>[], StatementRow<CashflowLine>[]]

/** Most periods one call may ask for (ten years of quarters). */
export const MAX_PERIODS = 40
export const DEFAULT_PERIODS = 4

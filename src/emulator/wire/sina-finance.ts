/**
 * Sina's statements (`quotes.sina.cn/cn/api/openapi.php/CompanyFinanceService.getFinanceReport2022`,
 * upstreams.md §5.1.5): `source=lrb` income, `fzb` balance sheet, `llb` cash flow, every published
 * period of a stock from the fundamentals model, newest first, `num` a page (`page` counts from 1).
 * As a real answer of 2025-12-21 shows (test/fixtures/sina/finance-lrb-sh603596-2025-12-21-155011.json):
 * `report_count` is the number of periods in all, as text, and comes first; each line is
 * `{item_field, item_title, item_value, item_display_type, item_display, item_precision,
 * item_group_no, item_source, item_tongbi}` with the value as text of yuan with 6 decimals and the
 * year-on-year change as a ratio (`""` without a year-ago value); an annual report reads
 * `is_audit: "是"`. The income statement has no line excluding non-recurring items. The income
 * codes and titles are the capture's; the balance-sheet and cash-flow ones are ours. An unknown
 * code has no report dates.
 */
import { financialReports, hasFundamentals, type FinancialReport } from '../market/fundamentals'
import type { EmuInstrument, MarketModel } from '../market/types'
import { jsonResponse } from './respond'

export const SINA_FINANCE_PATH = '/cn/api/openapi.php/CompanyFinanceService.getFinanceReport2022'

type Source = 'lrb' | 'fzb' | 'llb'
const STATEMENT: Record<Source, 'income' | 'balance' | 'cashflow'> = { lrb: 'income', fzb: 'balance', llb: 'cashflow' }

/** Model line → [item_field, item_title] per statement. */
const ITEMS: Record<Source, Record<string, [string, string]>> = {
  lrb: {
    revenue: ['BIZTOTINCO', '营业总收入'],
    operatingCost: ['BIZCOST', '营业成本'],
    sellingExpense: ['SALESEXPE', '销售费用'],
    adminExpense: ['MANAEXPE', '管理费用'],
    financeExpense: ['FINEXPE', '财务费用'],
    totalOperatingCost: ['BIZTOTCOST', '营业总成本'],
    operatingProfit: ['PERPROFIT', '营业利润'],
    totalProfit: ['TOTPROFIT', '利润总额'],
    incomeTax: ['INCOTAXEXPE', '所得税费用'],
    netProfit: ['NETPROFIT', '净利润'],
    parentNetProfit: ['PARENETP', '归属于母公司所有者的净利润'],
    basicEps: ['BASICEPS', '基本每股收益'],
  },
  fzb: {
    cash: ['CURFDS', '货币资金'],
    accountsReceivable: ['ACCORECE', '应收账款'],
    inventory: ['INVE', '存货'],
    currentAssets: ['TOTCURRASSET', '流动资产合计'],
    fixedAssets: ['FIXEDASSENET', '固定资产'],
    totalAssets: ['TOTASSET', '资产总计'],
    accountsPayable: ['ACCOPAYA', '应付账款'],
    advanceReceipts: ['ADVAPAYM', '预收款项'],
    currentLiabilities: ['TOTALCURRLIAB', '流动负债合计'],
    totalLiabilities: ['TOTLIAB', '负债合计'],
    parentEquity: ['PARESHARRIGH', '归属于母公司股东权益合计'],
    minorityEquity: ['MINYSHARRIGH', '少数股东权益'],
    totalEquity: ['RIGHAGGR', '所有者权益(或股东权益)合计'],
  },
  llb: {
    salesCash: ['LABORGETCASH', '销售商品、提供劳务收到的现金'],
    operatingNetCash: ['MANANETR', '经营活动产生的现金流量净额'],
    capitalExpenditure: ['ACQUASSETCASH', '购建固定资产、无形资产和其他长期资产支付的现金'],
    investingNetCash: ['INVNETCASHFLOW', '投资活动产生的现金流量净额'],
    financingNetCash: ['FINNETCFLOW', '筹资活动产生的现金流量净额'],
    netCashChange: ['CASHNETR', '现金及现金等价物净增加额'],
    beginCash: ['INICASHBALA', '期初现金及现金等价物余额'],
    endCash: ['FINALCASHBALA', '期末现金及现金等价物余额'],
  },
}

const DESCRIPTION = ['一季报', '半年报', '三季报', '年报']

/** Lines with a subtotal of their own (the capture's `item_display_type` 1, `大类`); the others are 2, `小类`. */
const MAJOR = new Set(['BIZTOTINCO', 'BIZTOTCOST', 'PERPROFIT', 'TOTPROFIT', 'NETPROFIT', 'BASICEPS', 'TOTASSET', 'TOTLIAB', 'RIGHAGGR', 'MANANETR', 'INVNETCASHFLOW', 'FINNETCFLOW', 'CASHNETR'])

/** The year-on-year ratio as Sina writes it (5 decimals), `""` without a year-ago value. */
function tongbi(now: number, before: number | undefined): number | '' {
  if (before === undefined || before === 0) return ''
  return Math.round(((now - before) / Math.abs(before)) * 1e5) / 1e5
}

function reportEntry(source: Source, r: FinancialReport, yearAgo: FinancialReport | undefined) {
  const lines = r[STATEMENT[source]] as unknown as Record<string, number>
  const before = yearAgo ? (yearAgo[STATEMENT[source]] as unknown as Record<string, number>) : undefined
  const ymd = r.period.replaceAll('-', '')
  let group = 0
  return {
    rType: '合并期末',
    rCurrency: 'CNY',
    data_source: '定期报告',
    is_audit: r.period.endsWith('12-31') ? '是' : '未审计',
    publish_date: r.noticeDate.replaceAll('-', ''),
    update_time: Math.floor(Date.parse(`${r.noticeDate}T18:00:00+08:00`) / 1000),
    is_exist_yoy: true,
    data: Object.entries(ITEMS[source]).map(([key, [field, title]]) => {
      const major = MAJOR.has(field)
      if (major || group === 0) group++
      return {
        item_field: field,
        item_title: title,
        item_value: key === 'basicEps' ? `${lines[key].toFixed(4)}00` : `${lines[key].toFixed(2)}0000`,
        item_display_type: major ? 1 : 2,
        item_display: major ? '大类' : '小类',
        item_precision: key === 'basicEps' ? 'ps4' : 'f2',
        item_group_no: group,
        item_source: source,
        item_tongbi: tongbi(lines[key], before?.[key]),
      }
    }),
    ymd,
  }
}

function stockOf(market: MarketModel, paperCode: string): EmuInstrument | undefined {
  const inst = market.byCode(paperCode.toLowerCase())
  return inst && hasFundamentals(inst) ? inst : undefined
}

/** The answer with no periods (unknown code, unknown `source`). */
export const sinaFinanceEmpty = () => jsonResponse({ result: { status: { code: 0 }, data: { report_date: [], report_list: {} } } })

/** Answers one statements request: page `page` of `num` periods, newest first. */
export function handleSinaFinance(params: URLSearchParams, market: MarketModel, now: number): Response {
  const source = params.get('source') as Source
  const inst = stockOf(market, params.get('paperCode') ?? '')
  if (!inst || !(source in ITEMS)) return sinaFinanceEmpty()
  const reports = financialReports(market, inst, now)
  const num = Math.max(1, Number.parseInt(params.get('num') ?? '', 10) || 10)
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1)
  const shown = reports.slice((page - 1) * num, page * num)
  const byPeriod = new Map(reports.map((r) => [r.period, r]))
  const report_date = shown.map((r) => ({
    date_value: r.period.replaceAll('-', ''),
    date_description: `${r.period.slice(0, 4)}${DESCRIPTION[(+r.period.slice(5, 7) / 3) - 1]}`,
    date_type: +r.period.slice(5, 7) / 3,
  }))
  const report_list = Object.fromEntries(shown.map((r) => {
    const { ymd, ...entry } = reportEntry(source, r, byPeriod.get(`${+r.period.slice(0, 4) - 1}${r.period.slice(4)}`))
    return [ymd, entry]
  }))
  return jsonResponse({ result: { status: { code: 0 }, data: { report_count: String(reports.length), report_date, report_list } } })
}

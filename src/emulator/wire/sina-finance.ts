/**
 * Sina's statements (`quotes.sina.cn/cn/api/openapi.php/CompanyFinanceService.getFinanceReport2022`,
 * upstreams.md §5.1.5): `source=lrb` income, `fzb` balance sheet, `llb` cash flow, every published
 * period of a stock from the fundamentals model, newest first. Line items are keyed by their Chinese
 * title with the value as a string of yuan; `item_field` codes and the exact titles are ours (the
 * research only confirms `item_title` / `item_value`). An unknown code has no report dates.
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
    parentNetProfit: ['NETPARECOMPPROF', '归属于母公司所有者的净利润'],
    deductedParentNetProfit: ['NETPROFITDEDUCT', '扣除非经常性损益后的净利润'],
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

const DESCRIPTION = ['一季报', '中报', '三季报', '年报']

function reportEntry(source: Source, r: FinancialReport) {
  const lines = r[STATEMENT[source]] as unknown as Record<string, number>
  const ymd = r.period.replaceAll('-', '')
  return {
    rType: '合并期末',
    rCurrency: 'CNY',
    data_source: '定期报告',
    is_audit: r.period.endsWith('12-31') ? '审计' : '未审计',
    publish_date: r.noticeDate.replaceAll('-', ''),
    update_time: Math.floor(Date.parse(`${r.noticeDate}T18:00:00+08:00`) / 1000),
    data: Object.entries(ITEMS[source]).map(([key, [field, title]]) => ({
      item_field: field,
      item_title: title,
      item_value: key === 'basicEps' ? lines[key].toFixed(4) : lines[key].toFixed(2),
      item_display_type: 1,
    })),
    ymd,
  }
}

function stockOf(market: MarketModel, paperCode: string): EmuInstrument | undefined {
  const inst = market.byCode(paperCode.toLowerCase())
  return inst && hasFundamentals(inst) ? inst : undefined
}

/** The answer with no periods (unknown code, unknown `source`). */
export const sinaFinanceEmpty = () => jsonResponse({ result: { status: { code: 0 }, data: { report_date: [], report_list: {} } } })

/** Answers one statements request. */
export function handleSinaFinance(params: URLSearchParams, market: MarketModel, now: number): Response {
  const source = params.get('source') as Source
  const inst = stockOf(market, params.get('paperCode') ?? '')
  if (!inst || !(source in ITEMS)) return sinaFinanceEmpty()
  const reports = financialReports(market, inst, now)
  const report_date = reports.map((r) => ({
    date_value: r.period.replaceAll('-', ''),
    date_description: `${r.period.slice(0, 4)}${DESCRIPTION[(+r.period.slice(5, 7) / 3) - 1]}`,
    date_type: +r.period.slice(5, 7) / 3,
  }))
  const report_list = Object.fromEntries(reports.map((r) => {
    const { ymd, ...entry } = reportEntry(source, r)
    return [ymd, entry]
  }))
  return jsonResponse({ result: { status: { code: 0 }, data: { report_date, report_list, report_count: reports.length } } })
}

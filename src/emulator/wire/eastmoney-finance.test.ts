import { describe, expect, it } from 'vitest'
import realBalance from '../../../test/fixtures/eastmoney/fn-balance-period-row.json'
import realCashflow from '../../../test/fixtures/eastmoney/fn-cashflow-period-row.json'
import realIncome from '../../../test/fixtures/eastmoney/fn-income-period-row.json'
import { market } from '../market'
import { financialReports } from '../market/fundamentals'
import { handleEastmoney } from './eastmoney'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const URL_OF = (report: string, filter: string, extra = '') =>
  `https://datacenter-web.eastmoney.com/api/data/v1/get?reportName=${report}&columns=ALL&sortColumns=REPORT_DATE&sortTypes=-1&pageSize=50&pageNumber=1&filter=${encodeURIComponent(filter)}${extra}`

async function get(url: string): Promise<any> {
  const u = new URL(url)
  return (await handleEastmoney(u, new Request(u), market, NOW)).json()
}

describe('datacenter RPT_DMSK_FN_* reports', () => {
  it('serves every published period of a stock, newest first, with Eastmoney column names', async () => {
    const model = financialReports(market, market.byCode('sh600519')!, NOW)
    const income = await get(URL_OF('RPT_DMSK_FN_INCOME', '(SECURITY_CODE="600519")'))
    expect(income).toMatchObject({ success: true, code: 0, result: { count: model.length } })
    const [row] = income.result.data
    expect(row).toMatchObject({
      SECUCODE: '600519.SH', SECURITY_CODE: '600519', REPORT_DATE: '2026-09-30 00:00:00', NOTICE_DATE: `${model[0].noticeDate} 00:00:00`,
      TOTAL_OPERATE_INCOME: model[0].income.revenue, PARENT_NETPROFIT: model[0].income.parentNetProfit, TOTAL_PROFIT: model[0].income.totalProfit,
      INCOME_TAX: model[0].income.incomeTax, TRADE_MARKET_CODE: '069001001001', DATE_TYPE_CODE: '004', INDUSTRY_NAME: '酿酒行业',
    })
    // Net profit, as a reader must take it from the real columns.
    expect(Math.round((row.TOTAL_PROFIT - row.INCOME_TAX) * 100) / 100).toBe(model[0].income.netProfit)
    const lastYear = model.find((r) => r.period === '2025-09-30')!
    expect(row.TOI_RATIO).toBeCloseTo(((model[0].income.revenue - lastYear.income.revenue) / lastYear.income.revenue) * 100, 3)
    const balance = (await get(URL_OF('RPT_DMSK_FN_BALANCE', '(SECURITY_CODE="600519")'))).result.data[0]
    expect(balance.TOTAL_ASSETS).toBeCloseTo(balance.TOTAL_LIABILITIES + balance.TOTAL_EQUITY, 1)
    // Both ratios in percent, as the real report prints them.
    const b = model[0].balance
    expect(balance.CURRENT_RATIO).toBeCloseTo((b.currentAssets / b.currentLiabilities) * 100, 8)
    expect(balance.DEBT_ASSET_RATIO).toBeCloseTo((b.totalLiabilities / b.totalAssets) * 100, 8)
    const cash = (await get(URL_OF('RPT_DMSK_FN_CASHFLOW', '(SECURITY_CODE="600519")'))).result.data[0]
    expect(cash.END_CCE).toBe(balance.MONETARYFUNDS)
    // The cash-flow lines' ratios are their share of the period's net change, in percent.
    for (const [line, ratio] of [['NETCASH_OPERATE', 'NETCASH_OPERATE_RATIO'], ['SALES_SERVICES', 'SALES_SERVICES_RATIO'], ['NETCASH_INVEST', 'NETCASH_INVEST_RATIO'], ['CONSTRUCT_LONG_ASSET', 'CLA_RATIO'], ['NETCASH_FINANCE', 'NETCASH_FINANCE_RATIO']]) {
      expect(cash[ratio], ratio).toBeCloseTo((cash[line] / cash.CCE_ADD) * 100, 8)
    }
  })

  it.each([
    ['RPT_DMSK_FN_INCOME', realIncome, 46],
    ['RPT_DMSK_FN_BALANCE', realBalance, 57],
    ['RPT_DMSK_FN_CASHFLOW', realCashflow, 48],
  ])('%s rows have exactly the real columns, in the real order', async (report, real, n) => {
    expect(Object.keys(real)).toHaveLength(n)
    for (const filter of ['(SECURITY_CODE="688981")', "(REPORT_DATE='2026-06-30')"]) {
      const rows = (await get(URL_OF(report, filter, '&pageSize=3'))).result.data
      expect(rows.length).toBeGreaterThan(0)
      for (const r of rows) expect(Object.keys(r)).toEqual(Object.keys(real))
    }
    const row = (await get(URL_OF(report, '(SECURITY_CODE="688981")'))).result.data[0]
    for (const c of ['NETPROFIT', 'BASIC_EPS', 'TOTAL_CURRENT_ASSETS', 'TOTAL_CURRENT_LIAB', 'TOTAL_PARENT_EQUITY', 'MINORITY_EQUITY']) expect(row).not.toHaveProperty(c)
    // The identity columns in the captures' forms.
    expect(row).toMatchObject({ SECUCODE: '688981.SH', MARKET: 'kcb', TRADE_MARKET_CODE: '069001001006', SECURITY_TYPE_CODE: '058001001', REPORT_TYPE_CODE: '001', DATA_STATE: '2' })
    expect(row.INDUSTRY_CODE).toMatch(/^016\d{3}$/)
    expect(row.ORG_CODE).toMatch(/^\d{8,11}$/)
  })

  it('serves one period of every stock, and nothing for other kinds or unknown codes', async () => {
    const one = await get(URL_OF('RPT_DMSK_FN_INCOME', "(REPORT_DATE='2026-06-30')", '&pageSize=5'))
    const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate <= '2026-06-30').length
    expect(one.result.count).toBeGreaterThan(stocks * 0.95)
    expect(one.result.data.every((r: any) => r.REPORT_DATE === '2026-06-30 00:00:00')).toBe(true)
    expect(await get(URL_OF('RPT_DMSK_FN_INCOME', '(SECURITY_CODE="000300")'))).toMatchObject({ code: 9201, result: null })
    expect(await get(URL_OF('RPT_DMSK_FN_INCOME', "(REPORT_DATE='2026-12-31')"))).toMatchObject({ code: 9201 })
  })
})

import { describe, expect, it } from 'vitest'
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
      TOTAL_OPERATE_INCOME: model[0].income.revenue, PARENT_NETPROFIT: model[0].income.parentNetProfit, BASIC_EPS: model[0].income.basicEps,
      TRADE_MARKET_CODE: '069001001001',
    })
    const lastYear = model.find((r) => r.period === '2025-09-30')!
    expect(row.TOI_RATIO).toBeCloseTo(((model[0].income.revenue - lastYear.income.revenue) / lastYear.income.revenue) * 100, 3)
    const balance = (await get(URL_OF('RPT_DMSK_FN_BALANCE', '(SECURITY_CODE="600519")'))).result.data[0]
    expect(balance.TOTAL_ASSETS).toBeCloseTo(balance.TOTAL_LIABILITIES + balance.TOTAL_EQUITY, 1)
    const cash = (await get(URL_OF('RPT_DMSK_FN_CASHFLOW', '(SECURITY_CODE="600519")'))).result.data[0]
    expect(cash.END_CCE).toBe(balance.MONETARYFUNDS)
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

import { afterEach, describe, expect, it } from 'vitest'
import type { Instrument } from '../../domain/instrument'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { financialReports } from '../../emulator/market/fundamentals'
import { failureKind, fakeContext } from '../testkit'
import { fetchFinance, financeUrl, parseStatement } from './finance'

const MOUTAI: Instrument = { code: 'sh600519', prefix: 'sh', symbol: '600519', kind: 'stock', board: 'sh-main' }

// The INCOME row of upstreams.md §5.1.1 (a summary row: no NETPROFIT or BASIC_EPS column; this one no INCOME_TAX either).
const INCOME_2024Q3 = {
  SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', REPORT_DATE: '2024-09-30 00:00:00', NOTICE_DATE: '2024-10-26 00:00:00',
  TOTAL_OPERATE_INCOME: 120452389012.5, TOI_RATIO: 16.91, OPERATE_COST: 9012345678.9, SALE_EXPENSE: 3456789012.3, MANAGE_EXPENSE: 5678901234.5,
  FINANCE_EXPENSE: -1234567890.1, OPERATE_PROFIT: 85678901234.5, TOTAL_PROFIT: 85432109876.5, PARENT_NETPROFIT: 60827990123.4, PARENT_NETPROFIT_RATIO: 15.04,
  DEDUCT_PARENT_NETPROFIT: 60812345678.9, DPN_RATIO: 15.1, INDUSTRY_NAME: '酿酒行业', TRADE_MARKET_CODE: '069001001001',
}
const BALANCE = { SECUCODE: '600519.SH', SECURITY_CODE: '600519', REPORT_DATE: '2024-09-30 00:00:00', TOTAL_ASSETS: 300, TOTAL_LIABILITIES: 100, TOTAL_EQUITY: 200, DEBT_ASSET_RATIO: 33.3333333333, CURRENT_RATIO: 150 }
const CASHFLOW = { SECUCODE: '600519.SH', SECURITY_CODE: '600519', REPORT_DATE: '2024-09-30 00:00:00', BEGIN_CCE: 50, END_CCE: 80, CCE_ADD: 30, NETCASH_OPERATE: 40 }

describe('financeUrl', () => {
  it('asks one stock, newest period first, num rows', () => {
    const u = new URL(financeUrl('balance', MOUTAI, 8))
    expect(u.searchParams.get('reportName')).toBe('RPT_DMSK_FN_BALANCE')
    expect(u.searchParams.get('filter')).toBe('(SECURITY_CODE="600519")')
    expect(u.searchParams.get('sortColumns')).toBe('REPORT_DATE')
    expect(u.searchParams.get('sortTypes')).toBe('-1')
    expect(u.searchParams.get('pageSize')).toBe('8')
  })
})

describe('parseStatement', () => {
  it('maps Eastmoney columns onto our lines; absent columns are null', () => {
    const [r] = parseStatement('income', [INCOME_2024Q3], MOUTAI, 4)
    expect(r).toMatchObject({ EndDate: '2024-09-30', revenue: 120452389012.5, parent_net_profit: 60827990123.4, finance_expense: -1234567890.1, net_profit: null, basic_eps: null })
  })

  it('derives net profit as profit before tax − income tax, to the fen; EPS stays null', () => {
    const [r] = parseStatement('income', [{ ...INCOME_2024Q3, INCOME_TAX: 21358027469.13, NETPROFIT: 1, BASIC_EPS: 2 }], MOUTAI, 4)
    expect(r).toMatchObject({ total_profit: 85432109876.5, income_tax: 21358027469.13, net_profit: 64074082407.37, basic_eps: null })
  })

  it('reads no balance column the real report lacks: current totals and the equity split are null', () => {
    const [r] = parseStatement('balance', [{ ...BALANCE, TOTAL_CURRENT_ASSETS: 1, TOTAL_CURRENT_LIAB: 1, TOTAL_PARENT_EQUITY: 190, MINORITY_EQUITY: 10 }], MOUTAI, 4)
    expect(r).toMatchObject({ total_assets: 300, total_equity: 200, current_assets: null, current_liabilities: null, parent_equity: null, minority_equity: null })
  })

  it('rejects rows that do not add up or do not answer the request', () => {
    expect(failureKind(() => parseStatement('balance', [BALANCE], MOUTAI, 4))).toBe('no error')
    expect(failureKind(() => parseStatement('balance', [{ ...BALANCE, TOTAL_LIABILITIES: 120 }], MOUTAI, 4))).toBe('malformed')
    // Liabilities / assets as a fraction where the report prints percent, or totals missing: nothing to check the sheet by.
    expect(failureKind(() => parseStatement('balance', [{ ...BALANCE, DEBT_ASSET_RATIO: 0.3333 }], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('balance', [{ ...BALANCE, TOTAL_EQUITY: null }], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('balance', [{ ...BALANCE, DEBT_ASSET_RATIO: null }], MOUTAI, 4))).toBe('no error')
    expect(failureKind(() => parseStatement('cashflow', [CASHFLOW], MOUTAI, 4))).toBe('no error')
    expect(failureKind(() => parseStatement('cashflow', [{ ...CASHFLOW, CCE_ADD: 35 }], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('income', [{ ...INCOME_2024Q3, SECUCODE: '000001.SZ', SECURITY_CODE: '000001' }], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('income', [{ ...INCOME_2024Q3, REPORT_DATE: '2024-09-29 00:00:00' }], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('income', [{ ...INCOME_2024Q3, TOTAL_PROFIT: '8.5e10' }], MOUTAI, 4))).toBe('malformed')
    const older = { ...INCOME_2024Q3, REPORT_DATE: '2024-06-30 00:00:00' }
    expect(failureKind(() => parseStatement('income', [older, INCOME_2024Q3], MOUTAI, 4))).toBe('malformed')
    expect(failureKind(() => parseStatement('income', [INCOME_2024Q3, INCOME_2024Q3], MOUTAI, 4))).toBe('malformed')
  })
})

describe('fetchFinance', () => {
  afterEach(() => setClock(null))

  it('reads the emulator\'s three reports for a stock', async () => {
    setClock(Date.parse('2026-11-20T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 2000 }
    const [income, balance, cashflow] = await fetchFinance(ctx, MOUTAI, 5)
    expect(income.map((r) => r.EndDate)).toEqual(['2026-09-30', '2026-06-30', '2026-03-31', '2025-12-31', '2025-09-30'])
    expect(balance).toHaveLength(5)
    expect(cashflow[0].end_cash).toBe(balance[0].cash)
    const model = financialReports(market, market.byCode('sh600519')!, Date.parse('2026-11-20T10:30:00+08:00'), 5)
    income.forEach((r, k) => {
      // Every line the report has a column for, and net profit from profit before tax − tax.
      for (const [line, v] of Object.entries(r)) if (line !== 'basic_eps') expect(v, line).not.toBeNull()
      expect(r.basic_eps).toBeNull()
      expect(r.net_profit).toBe(model[k].income.netProfit)
    })
    for (const r of balance) expect([r.current_assets, r.current_liabilities, r.parent_equity, r.minority_equity]).toEqual([null, null, null, null])
  })

  it('is empty when no report has rows, and refuses non-stocks before calling out', async () => {
    const none = fakeContext(() => ({ body: '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}' }))
    await expect(fetchFinance(none.ctx, MOUTAI, 4)).rejects.toMatchObject({ kind: 'empty' })
    const idx = fakeContext(() => ({ body: '' }))
    await expect(fetchFinance(idx.ctx, { code: 'sh000001', prefix: 'sh', symbol: '000001', kind: 'index' }, 4)).rejects.toMatchObject({ kind: 'unsupported' })
    expect(idx.calls).toHaveLength(0)
  })
})

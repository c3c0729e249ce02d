import { afterEach, describe, expect, it } from 'vitest'
import realBalance from '../../../test/fixtures/eastmoney/fn-balance-period-row.json'
import realCashflow from '../../../test/fixtures/eastmoney/fn-cashflow-period-row.json'
import realRow from '../../../test/fixtures/eastmoney/fn-income-period-row.json'
import { createEmulatorFetch, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { financialReport, hasFundamentals } from '../../emulator/market/fundamentals'
import { failureKind } from '../testkit'
import { fetchPeriodStatement, parsePeriodStatement, periodUrl } from './finance-period'

// Rows in the shape of upstreams.md §5.1.1 (the whole market's summary for one REPORT_DATE).
const MOUTAI = {
  SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', REPORT_DATE: '2024-09-30 00:00:00', NOTICE_DATE: '2024-10-26 00:00:00',
  TOTAL_OPERATE_INCOME: 120452389012.5, OPERATE_COST: 9012345678.9, PARENT_NETPROFIT: 60827990123.4, TOI_RATIO: 16.91,
}
const AIRONG = { ...MOUTAI, SECUCODE: '830799.BJ', SECURITY_CODE: '830799', NOTICE_DATE: '2024-10-29 00:00:00', TOTAL_OPERATE_INCOME: 5e8, PARENT_NETPROFIT: -2e7 }

describe('periodUrl', () => {
  it('asks one REPORT_DATE for every stock, sorted by code, 500 rows a page', () => {
    const u = new URL(periodUrl('cashflow', '2024-09-30', 3))
    expect(u.searchParams.get('reportName')).toBe('RPT_DMSK_FN_CASHFLOW')
    expect(u.searchParams.get('filter')).toBe("(REPORT_DATE='2024-09-30')")
    expect(u.searchParams.get('sortColumns')).toBe('SECUCODE')
    expect(u.searchParams.get('pageNumber')).toBe('3')
    expect(u.searchParams.get('pageSize')).toBe('500')
  })
})

describe('parsePeriodStatement', () => {
  it('keys rows by our code, with the notice date and our lines', () => {
    const got = parsePeriodStatement('income', [MOUTAI, AIRONG], '2024-09-30')
    expect([...got.keys()]).toEqual(['sh600519', 'bj830799'])
    expect(got.get('sh600519')).toMatchObject({ notice: '2024-10-26', lines: { revenue: 120452389012.5, parent_net_profit: 60827990123.4, net_profit: null } })
    expect(got.get('bj830799')?.lines.parent_net_profit).toBe(-2e7)
  })

  it('reads a real whole-market row (688013.SH, H1 2020; test/fixtures/eastmoney/SOURCE.md)', () => {
    // The fixture adds up: profit before tax − tax = attributable net profit (no minority interest).
    expect(realRow.TOTAL_PROFIT - realRow.INCOME_TAX).toBeCloseTo(realRow.PARENT_NETPROFIT, 2)
    // 46 columns, no net profit or EPS among them: net profit is derived, EPS null.
    expect(Object.keys(realRow)).toHaveLength(46)
    for (const c of ['NETPROFIT', 'BASIC_EPS']) expect(realRow).not.toHaveProperty(c)
    const got = parsePeriodStatement('income', [realRow], '2020-06-30').get('sh688013')
    expect(got).toMatchObject({
      notice: '2020-09-09',
      lines: { revenue: 70142426.22, operating_cost: 28928635.76, parent_net_profit: 16291105.44, deducted_parent_net_profit: 13309634.13, net_profit: 16291105.44, basic_eps: null },
    })
  })

  it('reads a real whole-market balance row (300344.SZ, H1 2020): no current totals, no parent/minority split', () => {
    // The row adds up: assets = liabilities + equity to the fen, and DEBT_ASSET_RATIO is liabilities / assets in %.
    expect(realBalance.TOTAL_LIABILITIES + realBalance.TOTAL_EQUITY).toBeCloseTo(realBalance.TOTAL_ASSETS, 2)
    expect((realBalance.TOTAL_LIABILITIES / realBalance.TOTAL_ASSETS) * 100).toBeCloseTo(realBalance.DEBT_ASSET_RATIO, 8)
    // 57 columns, none of them the current totals or the equity split our balance lines name.
    expect(Object.keys(realBalance)).toHaveLength(57)
    for (const c of ['TOTAL_CURRENT_ASSETS', 'TOTAL_CURRENT_LIAB', 'TOTAL_PARENT_EQUITY', 'MINORITY_EQUITY']) expect(realBalance).not.toHaveProperty(c)
    const got = parsePeriodStatement('balance', [realBalance], '2020-06-30').get('sz300344')
    expect(got).toMatchObject({
      notice: '2020-10-01',
      lines: {
        cash: 9155387.31, accounts_receivable: 211213607.22, inventory: 95395487.02, fixed_assets: 25345642.2, total_assets: 983875933.36,
        accounts_payable: 49758808.91, advance_receipts: null, total_liabilities: 371193102.01, total_equity: 612682831.35,
        current_assets: null, current_liabilities: null, parent_equity: null, minority_equity: null,
      },
    })
  })

  it('reads a real whole-market cash-flow row (688013.SH, H1 2020): begin and end cash sent as null', () => {
    // Each *_RATIO of this report is the line over the period's net change CCE_ADD, in %.
    expect((realCashflow.NETCASH_OPERATE / realCashflow.CCE_ADD) * 100).toBeCloseTo(realCashflow.NETCASH_OPERATE_RATIO, 8)
    expect((realCashflow.SALES_SERVICES / realCashflow.CCE_ADD) * 100).toBeCloseTo(realCashflow.SALES_SERVICES_RATIO, 8)
    expect((realCashflow.CONSTRUCT_LONG_ASSET / realCashflow.CCE_ADD) * 100).toBeCloseTo(realCashflow.CLA_RATIO, 8)
    expect(Object.keys(realCashflow)).toHaveLength(48)
    const got = parsePeriodStatement('cashflow', [realCashflow], '2020-06-30').get('sh688013')
    expect(got).toMatchObject({
      notice: '2020-09-09',
      lines: {
        sales_cash: 76531523.21, operating_net_cash: 15470566.93, capital_expenditure: 3466385.3, investing_net_cash: -3349126.05,
        financing_net_cash: null, net_cash_change: 13371959.6, begin_cash: null, end_cash: null,
      },
    })
  })

  it.each([
    ['a row of another period', { REPORT_DATE: '2024-06-30 00:00:00' }],
    ['a notice date before the period ends', { NOTICE_DATE: '2024-09-01 00:00:00' }],
    ['no notice date', { NOTICE_DATE: null }],
    ['a code of no A-share exchange', { SECUCODE: '00700.HK' }],
    ['a money cell that is text', { PARENT_NETPROFIT: '6e10' }],
  ])('rejects %s', (_, patch) => {
    expect(failureKind(() => parsePeriodStatement('income', [{ ...MOUTAI, ...patch }], '2024-09-30'))).toBe('malformed')
  })

  it('rejects a stock listed twice and a balance sheet that does not add up', () => {
    expect(failureKind(() => parsePeriodStatement('income', [MOUTAI, MOUTAI], '2024-09-30'))).toBe('malformed')
    const sheet = { ...MOUTAI, TOTAL_ASSETS: 300, TOTAL_LIABILITIES: 120, TOTAL_EQUITY: 200 }
    expect(failureKind(() => parsePeriodStatement('balance', [sheet], '2024-09-30'))).toBe('malformed')
  })
})

describe('fetchPeriodStatement', () => {
  afterEach(() => setClock(null))

  it('pages through the emulator\'s whole market for one period and agrees with its model', async () => {
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    setClock(now)
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
    const got = await fetchPeriodStatement(ctx, 'income', '2026-06-30')
    const published = market.instruments().filter((i) => hasFundamentals(i) && financialReport(market, i, '2026-06-30', now))
    expect(got.size).toBe(published.length)
    expect(got.size).toBeGreaterThan(1000) // more than one 500-row page
    const moutai = financialReport(market, market.byCode('sh600519')!, '2026-06-30', now)!
    expect(got.get('sh600519')).toMatchObject({ notice: moutai.noticeDate, lines: { revenue: moutai.income.revenue, parent_net_profit: moutai.income.parentNetProfit, net_profit: moutai.income.netProfit, basic_eps: null } })
  })

  it('is an empty map for a period nobody has published', async () => {
    setClock(Date.parse('2026-11-20T16:00:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
    expect((await fetchPeriodStatement(ctx, 'income', '2027-03-31')).size).toBe(0)
  })
})

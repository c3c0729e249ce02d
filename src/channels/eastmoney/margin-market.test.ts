import { describe, expect, it } from 'vitest'
import captured from '../../../test/fixtures/eastmoney/margin-dailytrade-2026-08-13.json'
import capturedWeek from '../../../test/fixtures/eastmoney/margin-dailytrade-2026-08-18-20.json'
import { failureKind, fakeContext } from '../testkit'
import { fetchMarketMargin, toMarketMarginDay } from './margin-market'

/** The captured answer as the upstream sent it. */
const real = JSON.stringify(captured)

describe('RPTA_WEB_MARGIN_DAILYTRADE', () => {
  it('reads a real captured answer in CNY (the report prints 100 million CNY)', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: real.replace('"pages":674', '"pages":1').replace('"count":3368', '"count":5') }))
    const days = await fetchMarketMargin(ctx, '2026-08-07')
    expect(days.map((d) => d.date)).toEqual(['2026-08-13', '2026-08-12', '2026-08-11', '2026-08-10', '2026-08-07'])
    expect(days[0]).toEqual({
      date: '2026-08-13', financingBalance: 2649725100007, lendingBalance: 25990134799, totalBalance: 2675715234806,
      financingBuy: 242110328871, lendingSell: 1205715155,
    })
    const url = new URL(calls[0].url)
    expect(url.searchParams.get('reportName')).toBe('RPTA_WEB_MARGIN_DAILYTRADE')
    expect(url.searchParams.get('filter')).toBe("(STATISTICS_DATE>='2026-08-07')")
  })

  it('reads a second real answer (2026-08-18..20, taken Saturday 2026-08-22), the columns=ALL form with investor counts', () => {
    const rows = capturedWeek.result.data
    // 3373 sessions, three a page: 1125 pages.
    expect(capturedWeek.result.pages).toBe(Math.ceil(capturedWeek.result.count / rows.length))
    const days = rows.map(toMarketMarginDay)
    expect(days.map((d) => d.date)).toEqual(['2026-08-20', '2026-08-19', '2026-08-18'])
    expect(days[0]).toEqual({
      date: '2026-08-20', financingBalance: 2639500368567, lendingBalance: 26845294696, totalBalance: 2666345663264,
      financingBuy: 188829242438, lendingSell: 1230454624,
    })
    for (const r of rows) {
      expect(r.MARGIN_BALANCE).toBeCloseTo(r.FIN_BALANCE + r.LOAN_BALANCE, 7)
      expect(r.MARGIN_TRADE_AMT).toBeCloseTo(r.FIN_BUY_AMT + r.LOAN_SELL_AMT, 7)
    }
  })

  it.each([
    ['a total that is not financing + lending', { MARGIN_BALANCE: 1 }],
    ['a negative balance', { FIN_BALANCE: -1, MARGIN_BALANCE: 259.90134799 - 1 }],
    ['a text amount', { FIN_BUY_AMT: 'abc' }],
    ['no date', { STATISTICS_DATE: null }],
  ])('refuses %s', (_why, patch) => {
    const row = { ...JSON.parse(real).result.data[0], ...patch }
    expect(failureKind(() => toMarketMarginDay(row))).toBe('malformed')
  })

  it('reads "no rows" as no days', async () => {
    const { ctx } = fakeContext(() => ({ body: '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}' }))
    expect(await fetchMarketMargin(ctx, '2026-08-07')).toEqual([])
  })
})

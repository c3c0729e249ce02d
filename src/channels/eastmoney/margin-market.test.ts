import { describe, expect, it } from 'vitest'
import captured from '../../../test/fixtures/eastmoney/margin-dailytrade-2026-08-13.json'
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

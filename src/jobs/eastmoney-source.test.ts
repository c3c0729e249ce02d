import { afterEach, describe, expect, it } from 'vitest'
import { createEmulatorFetch, setClock } from '../emulator/control'
import { market } from '../emulator/market'
import { financialReport } from '../emulator/market/fundamentals'
import type { Services } from '../services/types'
import { channelSource, periodFigures } from './eastmoney-source'

describe('periodFigures', () => {
  it('merges a stock\'s statements, dated by the latest notice; a statement not served leaves its lines null', () => {
    const income = new Map([['sh600519', { notice: '2026-10-20', lines: { revenue: 100, operating_cost: 40, parent_net_profit: 30 } }]])
    const cashflow = new Map([['sh600519', { notice: '2026-10-25', lines: { operating_net_cash: 35 } }]])
    const got = periodFigures(income, cashflow, new Map())
    expect(got.get('sh600519')).toEqual({
      notice: '2026-10-25', revenue: 100, operating_cost: 40, parent_net_profit: 30, operating_net_cash: 35,
      total_assets: null, total_liabilities: null, parent_equity: null,
    })
  })
})

describe('channelSource.statements', () => {
  afterEach(() => setClock(null))

  it('reads one period of the whole market through the emulator\'s wire, as its model has it (no parent equity: the real report has none)', async () => {
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    setClock(now)
    const source = channelSource({ channelContext: { fetch: createEmulatorFetch(market), timeoutMs: 10_000 } } as unknown as Services)
    const got = await source.statements('2026-09-30', true)
    expect(got.size).toBeGreaterThan(5000)
    for (const code of ['sh600519', 'sz000001', 'bj830799']) {
      const inst = market.byCode(code)
      if (!inst) continue
      const r = financialReport(market, inst, '2026-09-30', now)!
      expect(got.get(code), code).toEqual({
        notice: r.noticeDate, revenue: r.income.revenue, operating_cost: r.income.operatingCost, parent_net_profit: r.income.parentNetProfit,
        operating_net_cash: r.cashflow.operatingNetCash, total_assets: r.balance.totalAssets, total_liabilities: r.balance.totalLiabilities, parent_equity: null,
      })
    }
  }, 60_000)
})

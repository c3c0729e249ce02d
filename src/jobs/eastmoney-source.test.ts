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
      total_assets: null, total_liabilities: null, bps: null, bps_notice: null, bps_shares: null,
    })
  })

  it('takes the 业绩报表\'s BPS with its own update date, and lists no stock for a 业绩报表 row alone', () => {
    const income = new Map([['sh600519', { notice: '2026-10-20', lines: { revenue: 100, operating_cost: 40, parent_net_profit: 30 } }]])
    const performance = new Map([
      ['sh600519', { notice: '2026-10-20', updated: '2027-04-28', bps: 20.5, shares: 1.2562e9 }],
      ['sz000001', { notice: '2026-10-21', updated: '2026-10-21', bps: 9.9, shares: null }],
    ])
    const got = periodFigures(income, new Map(), new Map(), performance)
    expect([...got.keys()]).toEqual(['sh600519'])
    expect(got.get('sh600519')).toMatchObject({ notice: '2026-10-20', bps: 20.5, bps_notice: '2027-04-28', bps_shares: 1.2562e9 })
    const none = periodFigures(income, new Map(), new Map(), new Map([['sh600519', { notice: '2026-10-20', updated: '2026-10-20', bps: null, shares: 1.2562e9 }]]))
    expect(none.get('sh600519')).toMatchObject({ bps: null, bps_notice: null, bps_shares: null })
  })
})

describe('channelSource.statements', () => {
  afterEach(() => setClock(null))

  it('reads one period of the whole market through the emulator\'s wire, as its model has it (BPS from the 业绩报表)', async () => {
    const now = Date.parse('2026-11-20T16:00:00+08:00')
    setClock(now)
    const source = channelSource({ channelContext: { fetch: createEmulatorFetch(market), timeoutMs: 30_000 } } as unknown as Services)
    const got = await source.statements('2026-09-30', true)
    expect(got.size).toBeGreaterThan(5000)
    for (const code of ['sh600519', 'sz000001', 'bj830799']) {
      const inst = market.byCode(code)
      if (!inst) continue
      const r = financialReport(market, inst, '2026-09-30', now)!
      const { bps, ...rest } = got.get(code)!
      expect(rest, code).toEqual({
        notice: r.noticeDate, revenue: r.income.revenue, operating_cost: r.income.operatingCost, parent_net_profit: r.income.parentNetProfit,
        operating_net_cash: r.cashflow.operatingNetCash, total_assets: r.balance.totalAssets, total_liabilities: r.balance.totalLiabilities, bps_notice: r.noticeDate,
        bps_shares: Math.abs(r.income.basicEps) >= 0.1 ? r.income.parentNetProfit / r.income.basicEps : null,
      })
      // Parent equity per share at the period end, as the quotes' PB has it (12 decimals on the wire).
      expect(bps, code).toBeCloseTo(r.balance.parentEquity / inst.totalShares!, 11)
    }
  }, 60_000)
})

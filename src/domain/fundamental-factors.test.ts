import { describe, expect, it } from 'vitest'
import { candidatePeriods, fundamentalFactors, latestPublished, periodsToFetch, ttm, yoy, type PeriodFigures } from './fundamental-factors'

const fig = (notice: string, x: Partial<PeriodFigures>): PeriodFigures => ({
  notice, revenue: null, operating_cost: null, parent_net_profit: null, operating_net_cash: null,
  total_assets: null, total_liabilities: null, bps: null, bps_notice: null, bps_shares: null, ...x,
})

/** One made-up company, CNY (BPS per share, 100 shares); income and cash flow cumulative within the year. */
const REPORTS: Record<string, PeriodFigures> = {
  '2025-06-30': fig('2025-08-10', { revenue: 600, operating_cost: 360, parent_net_profit: 60, operating_net_cash: 50, total_assets: 2000, total_liabilities: 800, bps: 10, bps_notice: '2025-08-10', bps_shares: 100 }),
  '2025-03-31': fig('2025-04-25', { revenue: 280, operating_cost: 170, parent_net_profit: 28, operating_net_cash: 22, total_assets: 1900, total_liabilities: 760, bps: 9.8, bps_notice: '2025-04-25' }),
  '2024-12-31': fig('2025-03-20', { revenue: 1000, operating_cost: 650, parent_net_profit: 100, operating_net_cash: 120, total_assets: 1850, total_liabilities: 740, bps: 9.5, bps_notice: '2025-03-20' }),
  '2024-06-30': fig('2024-08-20', { revenue: 500, operating_cost: 300, parent_net_profit: 48, operating_net_cash: 40 }),
  '2024-03-31': fig('2024-04-20', { revenue: 240, operating_cost: 150, parent_net_profit: 25, operating_net_cash: 20 }),
}
const of = (p: string) => REPORTS[p]
const SHARES = { totalShares: 100, floatShares: 80, listDate: '2020-08-15' }

describe('which reports a date reads', () => {
  it('takes the four quarter ends strictly before the date as candidates', () => {
    expect(candidatePeriods('2025-08-15')).toEqual(['2025-06-30', '2025-03-31', '2024-12-31', '2024-09-30'])
    expect(candidatePeriods('2025-06-30')).toEqual(['2025-03-31', '2024-12-31', '2024-09-30', '2024-06-30'])
  })

  it('fetches the candidates with their year-ago periods and annuals: 8 periods, balance sheets for 4', () => {
    expect(periodsToFetch('2025-08-15')).toEqual([
      { period: '2025-06-30', balance: true }, { period: '2025-03-31', balance: true }, { period: '2024-12-31', balance: true },
      { period: '2024-09-30', balance: true }, { period: '2024-06-30', balance: false }, { period: '2024-03-31', balance: false },
      { period: '2023-12-31', balance: false }, { period: '2023-09-30', balance: false },
    ])
  })

  it('takes the newest report whose notice date is on or before the date', () => {
    expect(latestPublished(of, '2025-08-15')).toBe('2025-06-30')
    expect(latestPublished(of, '2025-08-10')).toBe('2025-06-30')
    expect(latestPublished(of, '2025-08-09')).toBe('2025-03-31')
    expect(latestPublished(of, '2025-04-01')).toBe('2024-12-31')
    expect(latestPublished(of, '2024-01-01')).toBeUndefined()
  })
})

describe('TTM and YoY from cumulative statements', () => {
  it('H1 TTM = H1 + last annual − H1 a year before', () => {
    expect(ttm(of, '2025-06-30', 'parent_net_profit', '2025-08-15')).toBe(60 + 100 - 48)
    expect(ttm(of, '2025-06-30', 'revenue', '2025-08-15')).toBe(600 + 1000 - 500)
  })

  it('an annual report is its own TTM', () => {
    expect(ttm(of, '2024-12-31', 'parent_net_profit', '2025-04-01')).toBe(100)
  })

  it('is null when the year-ago period is missing', () => {
    expect(ttm((p) => (p === '2024-06-30' ? undefined : of(p)), '2025-06-30', 'parent_net_profit', '2025-08-15')).toBeNull()
  })

  it('YoY compares with the same period a year before', () => {
    expect(yoy(of, '2025-06-30', 'parent_net_profit', '2025-08-15')).toBeCloseTo(25, 12) // (60 − 48) / 48
    expect(yoy(of, '2025-06-30', 'revenue', '2025-08-15')).toBeCloseTo(20, 12) // (600 − 500) / 500
  })
})

describe('fundamentalFactors', () => {
  it('computes every factor of a day, worked by hand', () => {
    const f = fundamentalFactors(of, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES })
    // TTM profit 112, revenue 1100, operating cash 130; 100 shares at 20 → cap 2,000 CNY.
    expect(f.EPS_TTM).toBeCloseTo(1.12, 12)
    expect(f.PE_TTM).toBeCloseTo(20 / 1.12, 12)
    expect(f.PE_LYR).toBeCloseTo(20, 12) // annual EPS 100 / 100
    expect(f.BPS).toBeCloseTo(10, 12)
    expect(f.PB).toBeCloseTo(2, 12)
    expect(f.PS_TTM).toBeCloseTo(2000 / 1100, 12)
    expect(f.PCF_TTM).toBeCloseTo(2000 / 130, 12)
    expect(f.NetProfitYoY).toBeCloseTo(25, 12)
    expect(f.PEG).toBeCloseTo(20 / 1.12 / 25, 12)
    expect(f.ROETTM).toBeCloseTo(11.2, 12) // 112 / (BPS 10 × 100 shares)
    expect(f.GrossMargin).toBeCloseTo(40, 12) // (600 − 360) / 600
    expect(f.NetMargin).toBeCloseTo((112 / 1100) * 100, 12)
    expect(f.DebtRatio).toBeCloseTo(40, 12)
    expect(f.RevenueYoY).toBeCloseTo(20, 12)
    expect(f.TotalMV).toBeCloseTo(2000 / 1e8, 15)
    expect(f.FloatMV).toBeCloseTo(1600 / 1e8, 15)
    expect(f.TotalShares).toBe(100)
    expect(f.FloatShares).toBe(80)
    expect(f.ListDays).toBe(1826) // five years including 2024-02-29
    expect(f.TurnoverRate).toBeCloseTo(5, 12) // 4 / 80
  })

  it('reads nothing published after the date (the H1 report comes out on 2025-08-10)', () => {
    const f = fundamentalFactors(of, { date: '2025-08-05', close: 20, volume: 4, shares: SHARES })
    // Q1: TTM profit 28 + 100 − 25 = 103; equity 980; profit YoY (28 − 25) / 25.
    expect(f.EPS_TTM).toBeCloseTo(1.03, 12)
    expect(f.BPS).toBeCloseTo(9.8, 12)
    expect(f.NetProfitYoY).toBeCloseTo(12, 12)
    expect(f.DebtRatio).toBeCloseTo(40, 12) // 760 / 1900
  })

  it('takes BPS, PB and ROETTM from the latest report\'s BPS only once its 业绩报表 row is published', () => {
    // The H1 statements are out on 2025-08-10, its BPS row only on 2025-08-20 (a restatement re-dates it).
    const late = (p: string) => (p === '2025-06-30' ? { ...of(p), bps_notice: '2025-08-20' } : of(p))
    const before = fundamentalFactors(late, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES })
    for (const k of ['BPS', 'PB', 'ROETTM'] as const) expect(before[k], k).toBeNull() // not Q1's BPS: no mixing of periods
    expect(before.EPS_TTM).toBeCloseTo(1.12, 12) // the statements still count
    const after = fundamentalFactors(late, { date: '2025-08-20', close: 25, volume: 4, shares: SHARES })
    expect(after.BPS).toBe(10)
    expect(after.PB).toBeCloseTo(2.5, 12) // close / BPS
    expect(after.ROETTM).toBeCloseTo(11.2, 12)
    // No BPS sent, a non-positive one, or figures kept before BPS was a line: null, never a guess.
    expect(fundamentalFactors((p) => ({ ...of(p), bps: null, bps_notice: null, bps_shares: null }) as PeriodFigures, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES }).PB).toBeNull()
    const negative = fundamentalFactors((p) => of(p) && { ...of(p), bps: -2 }, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES })
    expect([negative.BPS, negative.PB, negative.ROETTM]).toEqual([-2, null, null])
    const kept = (p: string) => {
      const r = of(p)
      if (!r) return undefined
      const { bps: _b, bps_notice: _n, bps_shares: _s, ...old } = r
      return old as PeriodFigures
    }
    expect(fundamentalFactors(kept, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES }).BPS).toBeNull()
  })

  it('gives no PB or ROETTM while the report\'s BPS is over other shares than today\'s (a bonus issue since)', () => {
    // 10转10 after the H1 report: 200 shares, the price halved; the report's BPS is per old share (100).
    const after = fundamentalFactors(of, { date: '2025-08-15', close: 10, volume: 4, shares: { ...SHARES, totalShares: 200 } })
    expect([after.PB, after.ROETTM]).toEqual([null, null])
    expect(after.BPS).toBe(10) // as published, per share of the period end
    expect(after.EPS_TTM).toBeCloseTo(0.56, 12) // CNY over today's count: unaffected
    // Within 5 % plus a 2-decimal EPS's rounding (EPS 0.6: 0.83 %): the same shares.
    expect(fundamentalFactors(of, { date: '2025-08-15', close: 20, volume: 4, shares: { ...SHARES, totalShares: 105 } }).PB).toBeCloseTo(2, 12)
    expect(fundamentalFactors(of, { date: '2025-08-15', close: 20, volume: 4, shares: { ...SHARES, totalShares: 107 } }).PB).toBeNull()
    // Basis unknown (EPS under 0.1): taken as published.
    const unknown = (p: string) => of(p) && { ...of(p), bps_shares: null }
    expect(fundamentalFactors(unknown, { date: '2025-08-15', close: 10, volume: 4, shares: { ...SHARES, totalShares: 200 } }).PB).toBeCloseTo(1, 12)
  })

  it('leaves a loss-maker\'s multiples null but keeps its EPS', () => {
    const loss = (p: string) => {
      const r = of(p)
      return r && { ...r, parent_net_profit: r.parent_net_profit === null ? null : -r.parent_net_profit }
    }
    const f = fundamentalFactors(loss, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES })
    expect(f.EPS_TTM).toBeCloseTo(-1.12, 12)
    expect(f.PE_TTM).toBeNull()
    expect(f.PE_LYR).toBeNull()
    expect(f.PEG).toBeNull()
    expect(f.ROETTM).toBeCloseTo(-11.2, 12)
  })

  it('is null without share counts or statements, never invented', () => {
    const f = fundamentalFactors(of, { date: '2025-08-15', close: 20, volume: 4, shares: undefined })
    for (const k of ['EPS_TTM', 'PE_TTM', 'ROETTM', 'PS_TTM', 'TotalMV', 'FloatMV', 'TotalShares', 'ListDays', 'TurnoverRate'] as const) expect(f[k]).toBeNull()
    // Published per share: BPS and PB need no share count.
    expect(f.BPS).toBe(10)
    expect(f.PB).toBeCloseTo(2, 12)
    const none = fundamentalFactors(() => undefined, { date: '2025-08-15', close: 20, volume: 4, shares: SHARES })
    expect(Object.entries(none).filter(([, v]) => v !== null).map(([k]) => k).sort()).toEqual(['FloatMV', 'FloatShares', 'ListDays', 'TotalMV', 'TotalShares', 'TurnoverRate'])
  })
})

import { describe, expect, it } from 'vitest'
import { changeDistribution, changePct, type SessionRow } from './change-distribution'
import { limitFraction, limitPrices } from './price-limit'

const row = (code: string, preClose: number, close: number, extra: Partial<SessionRow> = {}): SessionRow => ({
  code, name: 'X', preClose, close, amount: 1000, halted: false, traded: !extra.halted, ...extra,
})

describe('limit rules', () => {
  it('gives each board its limit and main-board ST stocks 5%', () => {
    expect(limitFraction('sh-main', '贵州茅台')).toBe(0.1)
    expect(limitFraction('sz-main', '*ST国华')).toBe(0.05)
    expect(limitFraction('sz-main', 'ST华英')).toBe(0.05)
    expect(limitFraction('chinext', 'ST某某')).toBe(0.2)
    expect(limitFraction('star', '中芯国际')).toBe(0.2)
    expect(limitFraction('bj', '艾融软件')).toBe(0.3)
  })

  it('rounds limit prices half up to the cent', () => {
    expect(limitPrices(10.05, 0.1)).toEqual({ down: 9.05, up: 11.06 })
    expect(limitPrices(8.45, 0.05)).toEqual({ down: 8.03, up: 8.87 })
  })
})

describe('changeDistribution', () => {
  it('counts every traded stock once, in one bucket, and limit moves by board', () => {
    const rows = [
      row('sh600000', 10, 11), // +10%: SH main limit-up
      row('sz000002', 10.05, 11.06), // limit-up after rounding (+10.05%)
      row('sz300001', 10, 11), // +10% on ChiNext: not at its 20% limit
      row('sz300002', 10, 12), // ChiNext limit-up
      row('sh688001', 10, 8), // STAR limit-down
      row('sz000004', 8.45, 8.03, { name: '*ST国华' }), // ST limit-down (-4.97%)
      row('bj830799', 10, 13), // BSE limit-up
      row('sh600001', 10, 10), // unchanged
      row('sh600002', 10, 9.7), // -3.00% → -5~-3
      row('sh600003', 10, 10.3), // +3.00% → 3~5
      row('sh600004', 10, 0, { halted: true, amount: 0 }),
    ]
    const d = changeDistribution(rows)
    expect(d).toMatchObject({ total: 11, traded: 10, halted: 1, advancers: 6, decliners: 3, unchanged: 1, limit_up: 4, limit_down: 2 })
    expect(d.advancers + d.decliners + d.unchanged).toBe(d.traded)
    expect(d.buckets.reduce((s, b) => s + b.count, 0)).toBe(d.traded)
    const by = Object.fromEntries(d.buckets.map((b) => [b.label, b.count]))
    expect(by).toEqual({ '≤-9': 1, '-9~-7': 0, '-7~-5': 0, '-5~-3': 2, '-3~0': 0, '0': 1, '0~3': 0, '3~5': 1, '5~7': 0, '7~9': 0, '≥9': 5 })
    expect(d.turnover).toEqual({ sh: 5000, sz: 4000, bj: 1000, sh_sz: 9000 })
  })

  it('labels buckets with their bounds', () => {
    const { buckets } = changeDistribution([])
    expect(buckets[0]).toEqual({ label: '≤-9', min_pct: null, max_pct: -9, count: 0 })
    expect(buckets[4]).toEqual({ label: '-3~0', min_pct: -3, max_pct: 0, count: 0 })
    expect(buckets[10]).toEqual({ label: '≥9', min_pct: 9, max_pct: null, count: 0 })
  })

  it('quotes change percent to 2 decimals', () => {
    expect(changePct(11.06, 10.05)).toBe(10.05)
    expect(changePct(9.7, 10)).toBe(-3)
  })
})

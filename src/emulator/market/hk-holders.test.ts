import { describe, expect, it } from 'vitest'
import { hkHolderNoticeDate, hkHolderPeriods, hkHolders } from './hk-holders'
import { market } from './index'

const TENCENT = market.byCode('hk00700')!

describe('HK disclosed holders', () => {
  it('publishes half-year reports after their lag, newest first', () => {
    expect(hkHolderPeriods(TENCENT, '2026-08-28').slice(0, 2)).toEqual(['2025-12-31', '2025-06-30'])
    expect(hkHolderPeriods(TENCENT, hkHolderNoticeDate('2026-06-30'))[0]).toBe('2026-06-30')
  })

  it('is deterministic, largest first, each a share of the total shares, with the change against the report before', () => {
    const a = hkHolders(TENCENT, '2026-06-30')
    expect(hkHolders(TENCENT, '2026-06-30')).toEqual(a)
    expect(a.map((h) => h.shares)).toEqual([...a.map((h) => h.shares)].sort((x, y) => y - x))
    for (const h of a) {
      expect(h.ratio).toBeCloseTo((h.shares / TENCENT.totalShares!) * 100, 3)
      expect(h.direct).toBeLessThanOrEqual(h.shares)
    }
    const before = new Map(hkHolders(TENCENT, '2025-12-31').map((h) => [h.name, h.shares]))
    for (const h of a) {
      const was = before.get(h.name)
      if (was) expect(h.changePct).toBeCloseTo(((h.shares - was) / was) * 100, 1)
      else expect(h.changePct).toBeNull()
    }
  })
})

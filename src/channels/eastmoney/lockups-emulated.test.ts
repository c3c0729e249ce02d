import { describe, expect, it } from 'vitest'
import realLifts from '../../../test/fixtures/eastmoney/lift-stage-rows-2026-07-28.json'
import { toLockup } from './calendar'
import { lockupRows } from '../../emulator/wire/datacenter-lockup'
import { market } from '../../emulator/market/index'
import { lockupsOf } from '../../emulator/market/lockups'

const NOW = Date.parse('2026-10-08T07:30:00Z')

// The emulator's lock-up rows, read by the channel's parser (the emulator itself never imports a channel).
describe('RPT_LIFT_STAGE rows of the emulator', () => {
  const rows = lockupRows(market, NOW, [])

  it('carry the real rows\' columns (test/fixtures/eastmoney/lift-stage-rows-2026-07-28.json) and BATCH_HOLDER_NUM', () => {
    expect(rows.length).toBeGreaterThan(100)
    const real = new Set(realLifts.flatMap((r) => Object.keys(r)))
    for (const r of rows) expect(Object.keys(r).filter((k) => !real.has(k))).toEqual(['BATCH_HOLDER_NUM'])
    expect(Object.keys(rows[0]).filter((k) => k !== 'BATCH_HOLDER_NUM')).toEqual(Object.keys(realLifts[0]))
  })

  it('write 万股 and 万元 that add up as the real rows do, and read back as the model\'s shares and CNY', () => {
    for (const r of rows as any[]) {
      const e = toLockup(r)
      const inst = market.byCode(e.code)!
      const l = lockupsOf(inst).find((x) => x.freeDate === e.freeDate && x.kind === e.kind)!
      expect(e.shares).toBe(l.shares)
      if (r.NEW !== null) expect(e.marketValue).toBeCloseTo(l.shares * r.NEW, 2)
      expect((r.FREE_SHARES + r.NON_FREE_SHARES) * r.TOTAL_RATIO).toBeCloseTo(r.CURRENT_FREE_SHARES, 3)
      expect(r.CURRENT_FREE_SHARES / (r.FREE_SHARES - r.CURRENT_FREE_SHARES)).toBeCloseTo(r.FREE_RATIO, 6)
      expect(r.MARKET_TYPE).toBe(r.SECURITY_CODE.startsWith('688') ? 'kcb' : r.SECURITY_CODE.startsWith('6') ? 'sh' : r.MARKET_TYPE)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { ccassRecord, ccassRecordDate } from './ccass'
import { hkHolderPeriods, hkHolders } from './hk-holders'
import { market } from './index'

const TENCENT = market.byCode('hk00700')!

describe('ccassRecordDate', () => {
  it('shows a Sunday or an HK holiday as the last earlier day with a record; Saturdays have one', () => {
    expect(ccassRecordDate('2026-11-19')).toBe('2026-11-19')
    expect(ccassRecordDate('2026-11-21')).toBe('2026-11-21') // Saturday
    expect(ccassRecordDate('2026-11-22')).toBe('2026-11-21') // Sunday
    expect(ccassRecordDate('2026-12-25')).toBe('2026-12-24') // Christmas, then Boxing Day
    expect(ccassRecordDate('2026-12-26')).toBe('2026-12-26') // a Saturday keeps its record
  })
})

describe('ccassRecord', () => {
  it.each(market.instruments().filter((i) => i.kind === 'hk').map((i) => i.code))('adds up for %s: participants to the intermediaries, categories and the rest to the issued shares', (code) => {
    const inst = market.byCode(code)!
    const r = ccassRecord(inst, '2026-11-19')!
    expect(r.issued).toBe(inst.totalShares)
    expect(r.holdings.reduce((s, h) => s + h.shares, 0)).toBe(r.intermediaries.shares)
    expect(r.intermediaries.participants).toBe(r.holdings.length)
    expect(r.intermediaries.shares + r.consenting.shares + r.nonConsenting.shares).toBeLessThan(r.issued)
    for (const h of r.holdings) {
      expect(h.id).toMatch(/^[ABC]\d{5}$/)
      expect(h.shares).toBeGreaterThan(0)
    }
    expect(new Set(r.holdings.map((h) => h.id)).size).toBe(r.holdings.length)
    expect(r.holdings.map((h) => h.shares)).toEqual([...r.holdings.map((h) => h.shares)].sort((a, b) => b - a))
  })

  it('keeps the controlling holder\'s disclosed block outside CCASS', () => {
    const r = ccassRecord(TENCENT, '2026-11-19')!
    const end = hkHolderPeriods(TENCENT, '2026-11-19')[0]
    const controlling = hkHolders(TENCENT, end).find((h) => h.identity === '受控法团权益')!
    expect(r.issued - (r.intermediaries.shares + r.consenting.shares + r.nonConsenting.shares)).toBeGreaterThanOrEqual(controlling.shares)
  })

  it('is the same for the same stock and day, drifts from day to day, and the holiday shows the day before', () => {
    expect(ccassRecord(TENCENT, '2026-11-19')).toEqual(ccassRecord(TENCENT, '2026-11-19'))
    expect(ccassRecord(TENCENT, '2026-11-18')!.holdings).not.toEqual(ccassRecord(TENCENT, '2026-11-19')!.holdings)
    expect(ccassRecord(TENCENT, '2026-11-22')).toEqual(ccassRecord(TENCENT, '2026-11-21'))
  })

  it('has no record of what is not an HK stock or not listed yet', () => {
    expect(ccassRecord(market.byCode('sh600519')!, '2026-11-19')).toBeNull()
    expect(ccassRecord(TENCENT, '2004-06-01')).toBeNull()
  })
})

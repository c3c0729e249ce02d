import { describe, expect, it } from 'vitest'
import { isTradingDay } from '../../domain/trading-calendar'
import { disclosureOf } from './disclosure'
import { market } from './index'
import { lockupsOf } from './lockups'
import { seasonOf } from '../../domain/report-seasons'

const recent = market.instruments().filter((i) => i.kind === 'stock' && i.listDate >= '2023-01-01').slice(0, 50)

describe('lockupsOf', () => {
  it('frees shares 6, 12 and 36 months after listing, on trading days, never more than is locked plus the placement', () => {
    for (const inst of recent) {
      const l = lockupsOf(inst)
      expect(l).toHaveLength(3)
      for (const x of l) expect(isTradingDay(x.freeDate) && x.freeDate > inst.listDate).toBe(true)
      expect(l.map((x) => x.freeDate)).toEqual([...l.map((x) => x.freeDate)].sort())
      const locked = inst.totalShares! - inst.floatShares!
      expect(l[1].shares + l[2].shares).toBeLessThanOrEqual(locked + 200)
    }
  })

  it('has none for old listings, indexes and funds', () => {
    for (const code of ['sh600519', 'sh000001', 'sh510300']) expect(lockupsOf(market.byCode(code)!)).toEqual([])
  })
})

describe('disclosureOf', () => {
  it('books every listed stock inside the season, and none before its listing', () => {
    const season = seasonOf('2026-09-30')
    for (const inst of recent) {
      const d = disclosureOf(inst, season)
      if (inst.listDate > season.period) {
        expect(d).toBeUndefined()
        continue
      }
      expect(d!.first >= season.from && d!.first <= season.to).toBe(true)
      if (d!.changed) expect(d!.changed >= season.from && d!.changed <= season.to).toBe(true)
    }
  })
})

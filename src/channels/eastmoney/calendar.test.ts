import { describe, expect, it } from 'vitest'
import realLifts from '../../../test/fixtures/eastmoney/lift-stage-rows-2026-07-28.json'
import liftPage from '../../../test/fixtures/eastmoney/lift-stage-2026-08-24-page1.json'
import captured600779 from '../../../test/fixtures/eastmoney/public-bs-appoin-600779-2023h1.json'
import { seasonOf } from '../../domain/report-seasons'
import { ChannelError } from '../errors'
import { toDisclosure, toLockup } from './calendar'

// A hand row in the real rows' units (10,000 shares, 10,000 CNY) and columns, without the optional ones.
const LOCKUP = {
  SECURITY_CODE: '300750', SECURITY_NAME_ABBR: '宁德时代', FREE_DATE: '2024-09-24 00:00:00', CURRENT_FREE_SHARES: 39.0146, ABLE_FREE_SHARES: 39.0146,
  LIFT_MARKET_CAP: 6336.97305, FREE_RATIO: 0.000822, TOTAL_RATIO: 0.0001, FREE_SHARES_TYPE: '股权激励限售股份',
}

describe('toLockup', () => {
  it('reads a row: 万股 to shares, 万元 to CNY, the ratio as a percent; the code from its range when SECUCODE is absent', () => {
    expect(toLockup(LOCKUP)).toEqual({
      code: 'sz300750', name: '宁德时代', freeDate: '2024-09-24', shares: 390146, marketValue: 63369730.5, floatRatio: 0.0822, kind: '股权激励限售股份',
    })
    expect(toLockup({ ...LOCKUP, SECUCODE: '300750.SZ' }).code).toBe('sz300750')
  })

  it('refuses ratios in another unit rather than scale them by guess, and rows that do not add up', () => {
    for (const bad of [
      { ...LOCKUP, TOTAL_RATIO: 2.5 },
      { ...LOCKUP, FREE_RATIO: 0.00005 },
      { ...LOCKUP, CURRENT_FREE_SHARES: 0, ABLE_FREE_SHARES: null },
      { ...LOCKUP, FREE_DATE: null },
      { ...LOCKUP, SECURITY_CODE: '12345' },
      { ...LOCKUP, SECUCODE: '600519.SH' },
      { ...LOCKUP, LIFT_MARKET_CAP: -1 },
      // freed × NEW is not the market value (shares in shares beside 万元)
      { ...LOCKUP, NEW: 162.43, CURRENT_FREE_SHARES: 390146 },
      // FREE_SHARES + NON_FREE_SHARES (here in shares) at TOTAL_RATIO is not the freed count
      { ...LOCKUP, FREE_SHARES: 3901465544, NON_FREE_SHARES: 0 },
    ]) {
      expect(() => toLockup(bad), JSON.stringify(bad)).toThrow(ChannelError)
    }
  })
})

describe('toLockup on real rows (600626, 688785, 2026-07-28; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads 万股 and 万元 as shares and CNY; the rows\' own arithmetic holds', () => {
    for (const r of realLifts) {
      // Freed × the latest price (NEW) = LIFT_MARKET_CAP, and freed = total × TOTAL_RATIO, to the row's decimals.
      expect(r.CURRENT_FREE_SHARES * r.NEW).toBeCloseTo(r.LIFT_MARKET_CAP, 4)
      expect((r.FREE_SHARES + r.NON_FREE_SHARES) * r.TOTAL_RATIO).toBeCloseTo(r.CURRENT_FREE_SHARES, 3)
    }
    // 申达股份: 212.8 million shares freed of its 1.32 billion, worth 693.6 million CNY at 3.26.
    expect(realLifts.map(toLockup)).toEqual([
      { code: 'sh600626', name: '申达股份', freeDate: '2026-07-28', shares: 212_765_957, marketValue: 693_617_019.82, floatRatio: 19.2031, kind: '定向增发机构配售股份' },
      { code: 'sh688785', name: '恒运昌', freeDate: '2026-07-28', shares: 816_783, marketValue: 246_227_403.18, floatRatio: 6.4174, kind: '首发机构配售股份' },
    ])
  })
})

describe('toLockup on a real page (releases of 2026-08-24, taken Saturday 2026-08-22; test/fixtures/eastmoney/SOURCE.md)', () => {
  it('reads the three rows: shares and CNY from 万, the float ratio in percent; freed × NEW is the market value', () => {
    const { result } = liftPage
    // 161 releases, three a page: 54 pages.
    expect(result.pages).toBe(Math.ceil(result.count / result.data.length))
    const events = result.data.map(toLockup)
    expect(events.map((e) => [e.code, e.freeDate, e.shares, e.kind])).toEqual([
      ['sz002157', '2026-08-24', 223567, '其他类型'],
      ['sh603087', '2026-08-24', 259327, '首发原股东限售股份'],
      ['sz301418', '2026-08-24', 1397000, '首发原股东限售股份'],
    ])
    expect(events[2]).toMatchObject({ marketValue: 52541170, floatRatio: 4.7458 })
    for (const r of result.data) {
      expect(r.LIFT_MARKET_CAP).toBeCloseTo(r.CURRENT_FREE_SHARES * r.NEW, 5)
      // A share of the float is at least the same share of the total; both 20-day changes are null on these rows (the release two days ahead).
      expect(r.FREE_RATIO).toBeGreaterThanOrEqual(r.TOTAL_RATIO)
      expect([r.B20_ADJCHRATE, r.A20_ADJCHRATE]).toEqual([null, null])
    }
  })
})

describe('toDisclosure', () => {
  const season = seasonOf('2026-09-30')
  const ROW = {
    SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', REPORT_DATE: '2026-09-30 00:00:00', REPORT_TYPE_NAME: '2026年三季报',
    FIRST_APPOINT_DATE: '2026-10-24 00:00:00', FIRST_CHANGE_DATE: '2026-10-28 00:00:00', SECOND_CHANGE_DATE: null, THIRD_CHANGE_DATE: null, ACTUAL_PUBLISH_DATE: null,
  }

  it('takes the latest revision as the date until published, then the publication', () => {
    expect(toDisclosure(ROW, season)).toMatchObject({ code: 'sh600519', scheduled: '2026-10-24', revised: '2026-10-28', published: null, date: '2026-10-28' })
    expect(toDisclosure({ ...ROW, ACTUAL_PUBLISH_DATE: '2026-10-27 00:00:00' }, season).date).toBe('2026-10-27')
  })

  it('reads a captured row (600779, H1 2023): booked, not yet published; the name in our spelling', () => {
    expect(toDisclosure(captured600779.result.data[0], seasonOf('2023-06-30'))).toEqual({
      code: 'sh600779', name: '水井坊', period: '2023-06-30', report: '2023年半年报', scheduled: '2023-07-29', revised: null, published: null, date: '2023-07-29',
    })
  })

  it('refuses a row of another period or without a booking', () => {
    expect(() => toDisclosure({ ...ROW, REPORT_DATE: '2026-06-30 00:00:00' }, season)).toThrow(ChannelError)
    expect(() => toDisclosure({ ...ROW, FIRST_APPOINT_DATE: null }, season)).toThrow(ChannelError)
  })
})

import { describe, expect, it } from 'vitest'
import { market } from '../../emulator/market'
import { handleDatacenter } from '../../emulator/wire/eastmoney-datacenter'
import { ChannelError } from '../errors'
import { readDatacenter } from './datacenter'
import { ipoUrl, toIpo } from './ipo'

const NOW = Date.parse('2026-11-20T10:30:00+08:00')
const emulated = async (from: string, now = NOW) => {
  const page = readDatacenter(await handleDatacenter(new URL(ipoUrl(from, 1)).searchParams, market, now).text())
  return page?.data ?? []
}

const ROW = {
  SECURITY_CODE: '603123', SECURITY_NAME: '华科智能', TRADE_MARKET_CODE: '069001001001', APPLY_CODE: '732123', MARKET_TYPE: '沪市主板',
  ISSUE_NUM: 4000.0, ONLINE_ISSUE_NUM: 1600.0, ONLINE_APPLY_UPPER: 16000, ISSUE_PRICE: 25.6, AFTER_ISSUE_PE: 22.5,
  APPLY_DATE: '2026-08-05 00:00:00', BALLOT_NUM_DATE: '2026-08-07 00:00:00', BALLOT_PAY_DATE: '2026-08-07 00:00:00', LISTING_DATE: null,
  ONLINE_ISSUE_LWR: '0.0312', OPEN_PRICE: null, CLOSE_PRICE: null,
}

describe('toIpo', () => {
  it('reads a row in our units: sizes in shares, dates YYYY-MM-DD, missing values null', () => {
    expect(toIpo(ROW)).toEqual({
      code: 'sh603123', name: '华科智能', subscriptionCode: '732123', board: '沪市主板', issuePrice: 25.6, issuePe: 22.5,
      issueShares: 40_000_000, onlineShares: 16_000_000, subscriptionLimit: 16000, subscriptionDate: '2026-08-05',
      allotmentDate: '2026-08-07', paymentDate: '2026-08-07', listingDate: null, winningRate: 0.0312, firstOpen: null, firstClose: null,
    })
  })

  it('leaves out listings outside Shanghai and Shenzhen', () => {
    expect(toIpo({ ...ROW, TRADE_MARKET_CODE: '069001017' })).toBeNull()
  })

  it('rejects rows that do not add up', () => {
    for (const bad of [
      { ...ROW, SECURITY_CODE: '60312' },
      { ...ROW, SECURITY_NAME: '' },
      { ...ROW, APPLY_DATE: null },
      { ...ROW, LISTING_DATE: '2026-08-01 00:00:00' },
      { ...ROW, ONLINE_ISSUE_NUM: 5000 },
      { ...ROW, ISSUE_PRICE: 'abc' },
      { ...ROW, TRADE_MARKET_CODE: '069001002002' }, // 603123 is not a Shenzhen code
    ]) {
      expect(() => toIpo(bad), JSON.stringify(bad)).toThrow(ChannelError)
    }
  })

  it('reads every emulator row, and each IPO lists on the stock\'s listDate', async () => {
    const rows = await emulated('2026-09-01')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      const ipo = toIpo(row)!
      const inst = market.byCode(ipo.code)!
      expect(inst.kind).toBe('stock')
      if (ipo.listingDate) expect(ipo.listingDate).toBe(inst.listDate)
      expect(ipo.subscriptionDate >= '2026-09-01').toBe(true)
    }
  })

  it('shows nothing before it is public: no price before pricing, no listing date before its notice', async () => {
    const rows = await emulated('2026-09-01')
    const ipo = toIpo(rows.at(-1)!)! // the latest subscription
    const early = Date.parse(`${ipo.subscriptionDate}T09:00:00+08:00`) - 5 * 86_400_000
    const before = (await emulated('2026-09-01', early)).map((r) => toIpo(r)!).find((i) => i.code === ipo.code)
    if (before) {
      expect(before.firstClose).toBeNull()
      expect(before.listingDate).toBeNull()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind } from '../testkit'
import type { ChannelContext } from '../types'
import { fetchHkHolders, hkHolderUrl, parseHkHolders } from './hk-holders'

const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
const TENCENT = parseSymbol('hk00700')

// The shape of a row as a public project's mock of a captured answer shows it, with the other
// columns akshare's request names.
const row = (patch: Record<string, unknown> = {}) => ({
  SECURITY_CODE: '00700', SECUCODE: '00700.HK', NOTICE_DATE: '2026-03-20 00:00:00', REPORT_DATE: '2025-12-31 00:00:00', HOLDER_NAME: '马化腾',
  TOTAL_SHARES: 804859700, TOTAL_SHARES_RATIO: 8.825, DIRECT_SHARES: null, SHARES_CHG_RATIO: null, SHARES_TYPE: '普通股', EQUITY_TYPE: '董事', HOLD_IDENTITY: '受控法团权益',
  ...patch,
})

beforeAll(() => {
  resetEmulator()
  setClock(Date.parse('2026-11-20T16:00:00+08:00'))
})
afterAll(() => resetEmulator())

describe('hkHolderUrl', () => {
  it('asks the F10 datacenter for one HK stock, newest report and largest holding first', () => {
    const u = new URL(hkHolderUrl(TENCENT))
    expect(u.origin + u.pathname).toBe('https://datacenter.eastmoney.com/securities/api/data/v1/get')
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ reportName: 'RPT_HKF10_EQUITYCHG_HOLDER', filter: '(SECUCODE="00700.HK")', sortColumns: 'REPORT_DATE,TOTAL_SHARES', sortTypes: '-1,-1', source: 'F10', client: 'PC' })
  })

  it('refuses a code that is not an HK stock', () => {
    expect(failureKind(() => hkHolderUrl(parseSymbol('sh600519')))).toBe('unsupported')
  })
})

describe('parseHkHolders', () => {
  it('keeps the newest period\'s rows, dates without their time', () => {
    const rows = parseHkHolders([row(), row({ HOLDER_NAME: 'Prosus N.V.', TOTAL_SHARES: 2e9, TOTAL_SHARES_RATIO: 21.9, EQUITY_TYPE: '主要股东' }), row({ REPORT_DATE: '2025-06-30 00:00:00' })], TENCENT)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toEqual({ endDate: '2025-12-31', name: '马化腾', equityType: '董事', identity: '受控法团权益', sharesType: '普通股', shares: 804859700, ratio: 8.825, directShares: null, changePct: null, noticeDate: '2026-03-20' })
  })

  it.each([
    ['another stock\'s row', { SECUCODE: '09988.HK', SECURITY_CODE: '09988' }],
    ['a ratio above 100', { TOTAL_SHARES_RATIO: 180 }],
    ['a share count that is no count', { TOTAL_SHARES: 12.5 }],
    ['more direct shares than the holding', { DIRECT_SHARES: 9e8 }],
    ['a report date that is no date', { REPORT_DATE: '2025-13-31 00:00:00' }],
    ['text where a number belongs', { TOTAL_SHARES: '腾讯' }],
  ])('rejects %s', (_, patch) => {
    expect(failureKind(() => parseHkHolders([row(patch)], TENCENT))).toBe('malformed')
  })

  it('rejects periods that are not newest first', () => {
    expect(failureKind(() => parseHkHolders([row({ REPORT_DATE: '2025-06-30 00:00:00' }), row()], TENCENT))).toBe('malformed')
  })
})

describe('over the emulator', () => {
  it('reads the newest half-year report: shares and ratios agree with the stock\'s share count', async () => {
    const holders = await fetchHkHolders(ctx, TENCENT)
    expect(holders.length).toBeGreaterThanOrEqual(2)
    expect(new Set(holders.map((h) => h.endDate))).toEqual(new Set(['2026-06-30']))
    const total = market.byCode('hk00700')!.totalShares!
    for (const h of holders) expect(h.ratio).toBeCloseTo((h.shares / total) * 100, 2)
    expect(holders.map((h) => h.shares)).toEqual([...holders.map((h) => h.shares)].sort((a, b) => b - a))
    expect(holders.some((h) => h.equityType === '董事')).toBe(true)
  })

  it('answers nothing for an HK code the market does not have', async () => {
    expect(await fetchHkHolders(ctx, parseSymbol('hk00001'))).toEqual([])
  })
})

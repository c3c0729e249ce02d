import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseSymbol } from '../../domain/symbols'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext } from '../testkit'
import type { ChannelContext } from '../types'
import { companyEventsUrl, fetchCompanyEvents, toCompanyEvent } from './company-events'

const ctx: ChannelContext = { fetch: createEmulatorFetch(market), timeoutMs: 10_000 }
const MOUTAI = parseSymbol('sh600519')
const ROW = { SECURITY_CODE: '600519', SECUCODE: '600519.SH', SECURITY_NAME_ABBR: '贵州茅台', EVENT_TYPE: '除权除息', EVENT_CONTENT: '10派276.73元(含税)，除权除息日', TRADE_DATE: '2026-06-19 00:00:00' }

beforeAll(() => {
  resetEmulator()
  setClock(Date.parse('2026-11-20T16:00:00+08:00'))
})
afterAll(() => resetEmulator())

describe('companyEventsUrl', () => {
  it('asks one stock from a date on, newest first', () => {
    const u = new URL(companyEventsUrl(MOUTAI, '2025-11-20', 1))
    expect(Object.fromEntries(u.searchParams)).toMatchObject({ reportName: 'RPT_ORGOP_ALL', filter: `(SECURITY_CODE="600519")(TRADE_DATE>='2025-11-20')`, sortColumns: 'TRADE_DATE', sortTypes: '-1' })
  })
})

describe('toCompanyEvent', () => {
  it('reads date, type and content', () => {
    expect(toCompanyEvent(ROW, MOUTAI)).toEqual({ date: '2026-06-19', type: '除权除息', content: '10派276.73元(含税)，除权除息日' })
  })

  it.each([
    ['another stock', { ...ROW, SECURITY_CODE: '600520' }],
    ['a SECUCODE of another market', { ...ROW, SECUCODE: '600519.SZ' }],
    ['a bad date', { ...ROW, TRADE_DATE: '2026-02-30 00:00:00' }],
    ['no type', { ...ROW, EVENT_TYPE: ' ' }],
    ['a number printed as NaN in the content', { ...ROW, EVENT_CONTENT: '10派NaN元(含税)，除权除息日' }],
    ['undefined in the content', { ...ROW, EVENT_CONTENT: '10派undefined元(含税)' }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => toCompanyEvent(row, MOUTAI))).toBe('malformed')
  })
})

describe('fetchCompanyEvents', () => {
  it('reads the emulator\'s calendar newest first, nothing before the date asked', async () => {
    const events = await fetchCompanyEvents(ctx, MOUTAI, '2025-11-20')
    expect(events.length).toBeGreaterThan(3)
    expect(events.every((e) => e.date >= '2025-11-20')).toBe(true)
    expect(events.map((e) => e.date)).toEqual(events.map((e) => e.date).sort().reverse())
    expect(events.map((e) => e.type)).toContain('除权除息')
  })

  it('refuses a row dated before the window', async () => {
    const body = JSON.stringify({ version: 'x', result: { pages: 1, count: 1, data: [{ ...ROW, TRADE_DATE: '2020-01-02 00:00:00' }] }, success: true, message: 'ok', code: 0 })
    const { ctx: fake } = fakeContext(() => ({ body }))
    await expect(fetchCompanyEvents(fake, MOUTAI, '2025-11-20')).rejects.toMatchObject({ kind: 'malformed' })
  })
})

import { describe, expect, it } from 'vitest'
import { createEmulatorFetch, resetEmulator, setClock } from '../../emulator/control'
import { market } from '../../emulator/market'
import { failureKind, fakeContext } from '../testkit'
import { fetchMeetingsBetween, fetchRightsIssuesBetween, toMeeting, toRightsIssue } from './calendar-corporate'

/**
 * Rows in the reports' shapes. The rights issue is 德赛电池's of 2023 as a public client's test
 * fixture records it (FINANCE_CODE 43263, 10配3 at 21.16 CNY); the meeting's columns are those
 * akshare's stock_gddh_em asks for, with values written for the test.
 */
const RIGHTS = {
  SECUCODE: '000049.SZ', SECURITY_CODE: '000049', SECURITY_NAME_ABBR: '德赛电池', FINANCE_CODE: '43263', PLACING_RATIO: 3, ISSUE_PRICE: 21.16,
  ISSUE_NUM: 85251672, EX_DIVIDEND_DATE: '2023-12-08 00:00:00', EQUITY_RECORD_DATE: '2023-11-29 00:00:00', PAY_START_DATE: '2023-11-30 00:00:00',
  PAY_END_DATE: '2023-12-06 00:00:00', LISTING_DATE: '2023-12-25 00:00:00', FIRST_NOTICE_DATE: '2023-11-27 00:00:00',
}
const MEETING = {
  SECUCODE: '600519.SH', SECURITY_CODE: '600519', SECURITY_NAME_ABBR: '贵州茅台', MEETING_TITLE: '2025年年度股东大会',
  START_ADJUST_DATE: '2026-05-20 00:00:00', END_ADJUST_DATE: '2026-05-20 00:00:00', EQUITY_RECORD_DATE: '2026-05-13 00:00:00',
  ONSITE_RECORD_DATE: '2026-05-19 00:00:00', DECISION_NOTICE_DATE: null, NOTICE_DATE: '2026-04-30 00:00:00',
  WEB_START_DATE: '2026-05-20 00:00:00', WEB_END_DATE: '2026-05-20 00:00:00', SERIAL_NUM: 1, PROPOSAL: '关于2025年度利润分配方案的议案', IS_LASTDATE: '1',
}
const EMPTY = '{"version":null,"result":null,"success":false,"message":"返回数据为空","code":9201}'
const answer = (rows: unknown[], count = rows.length) => JSON.stringify({ version: 'x', result: { pages: 1, data: rows, count }, success: true, message: 'ok', code: 0 })

describe('toRightsIssue', () => {
  it('reads a rights issue: ratio per 10, price, shares and its dates', () => {
    expect(toRightsIssue(RIGHTS)).toEqual({
      code: 'sz000049', name: '德赛电池', date: '2023-11-29', ratioPer10: 3, price: 21.16, shares: 85251672, sharesBefore: null, sharesAfter: null,
      exDate: '2023-12-08', paymentStart: '2023-11-30', paymentEnd: '2023-12-06', listingDate: '2023-12-25', noticeDate: '2023-11-27',
    })
  })

  it.each([
    ['no record date', { ...RIGHTS, EQUITY_RECORD_DATE: null }],
    ['no ratio', { ...RIGHTS, PLACING_RATIO: null }],
    ['a ratio in another unit', { ...RIGHTS, PLACING_RATIO: 30 }],
    ['a negative price', { ...RIGHTS, ISSUE_PRICE: -1 }],
    ['fewer shares after than before', { ...RIGHTS, TOTAL_SHARES_BEFORE: 100, TOTAL_SHARES_AFTER: 90 }],
    ['payment closing before it opens', { ...RIGHTS, PAY_END_DATE: '2023-11-29 00:00:00' }],
    ['an ex-date before the record date', { ...RIGHTS, EX_DIVIDEND_DATE: '2023-11-28 00:00:00' }],
    ['a SECURITY_CODE that is not the SECUCODE', { ...RIGHTS, SECURITY_CODE: '000050' }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => toRightsIssue(row as Record<string, unknown>))).toBe('malformed')
  })
})

describe('toMeeting', () => {
  it('reads a meeting not yet held', () => {
    expect(toMeeting(MEETING)).toEqual({
      code: 'sh600519', name: '贵州茅台', date: '2026-05-20', title: '2025年年度股东大会', recordDate: '2026-05-13', noticeDate: '2026-04-30',
      resolutionDate: null, voteStart: '2026-05-20', voteEnd: '2026-05-20', proposals: '关于2025年度利润分配方案的议案',
    })
  })

  it.each([
    ['no meeting day', { ...MEETING, START_ADJUST_DATE: null }],
    ['no title', { ...MEETING, MEETING_TITLE: '' }],
    ['a record date after the meeting', { ...MEETING, EQUITY_RECORD_DATE: '2026-05-21 00:00:00' }],
    ['a resolution before the meeting', { ...MEETING, DECISION_NOTICE_DATE: '2026-05-19 00:00:00' }],
    ['a date that is not one', { ...MEETING, NOTICE_DATE: '2026-04-31 00:00:00' }],
  ])('refuses %s', (_why, row) => {
    expect(failureKind(() => toMeeting(row as Record<string, unknown>))).toBe('malformed')
  })
})

describe('fetching a window', () => {
  it('asks by the date column within the window, latest meeting versions only, and says when more rows exist', async () => {
    const { ctx, calls } = fakeContext(() => ({ body: answer([MEETING], 7) }))
    const got = await fetchMeetingsBetween(ctx, '2026-05-01', '2026-05-31', 1)
    expect(got.more).toBe(true)
    const url = new URL(calls[0].url)
    expect(url.searchParams.get('reportName')).toBe('RPT_GENERALMEETING_DETAIL')
    expect(url.searchParams.get('filter')).toBe(`(IS_LASTDATE="1")(START_ADJUST_DATE>='2026-05-01')(START_ADJUST_DATE<='2026-05-31')`)
  })

  it('refuses a row outside the window, and is empty for no rows', async () => {
    const outside = fakeContext(() => ({ body: answer([RIGHTS]) }))
    await expect(fetchRightsIssuesBetween(outside.ctx, '2024-01-01', '2024-01-31', 50)).rejects.toMatchObject({ kind: 'malformed' })
    const none = fakeContext(() => ({ body: EMPTY }))
    expect(await fetchRightsIssuesBetween(none.ctx, '2024-01-01', '2024-01-31', 50)).toEqual({ events: [], more: false })
  })

  it("reads the emulator's meetings and rights issues", async () => {
    resetEmulator()
    setClock(Date.parse('2026-10-22T10:30:00+08:00'))
    const ctx = { fetch: createEmulatorFetch(market), timeoutMs: 30_000 }
    const meetings = await fetchMeetingsBetween(ctx, '2026-05-01', '2026-05-10', 500)
    expect(meetings.events.length).toBeGreaterThan(0)
    const rights = await fetchRightsIssuesBetween(ctx, '2026-01-01', '2026-10-22', 500)
    expect(rights.events.length).toBeGreaterThan(0)
    for (const r of rights.events) expect(r.sharesAfter).toBe(r.sharesBefore! + r.shares!)
    resetEmulator()
  })
})

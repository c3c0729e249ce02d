/**
 * Two more sections of the corporate calendar from datacenter reports, one page each like the
 * others (calendar.ts): shareholder meetings `RPT_GENERALMEETING_DETAIL` (upstreams.md §5.9;
 * columns as akshare's `stock_gddh_em` asks them, the latest version of each meeting by
 * `IS_LASTDATE="1"` as it filters) by meeting day, and rights issues `RPT_IPO_ALLOTMENT` (配股;
 * report as akshare's `stock_pg_em` reads it, column names as public clients and their recorded
 * rows use them: PLACING_RATIO per 10 shares, ISSUE_PRICE, ISSUE_NUM, TOTAL_SHARES_BEFORE/AFTER,
 * EQUITY_RECORD_DATE, EX_DIVIDEND_DATE, PAY_START/END_DATE, LISTING_DATE) by record date.
 */
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { codeOf, nameOf, onePage, optDate, type Section } from './calendar'
import { datacenterUrl } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const MEETING_REPORT = 'RPT_GENERALMEETING_DETAIL'
const RIGHTS_REPORT = 'RPT_IPO_ALLOTMENT'

/** One shareholders' meeting. */
export interface MeetingEvent {
  code: string
  name: string
  /** The meeting day. */
  date: string
  /** 2025年年度股东大会, 2026年第一次临时股东大会… */
  title: string
  /** Holders on this day may vote; null when absent. */
  recordDate: string | null
  /** When the meeting was called; null when absent. */
  noticeDate: string | null
  /** When its resolutions were announced; null until then. */
  resolutionDate: string | null
  /** Online voting window; null when absent. */
  voteStart: string | null
  voteEnd: string | null
  /** The proposals as the upstream lists them; null when absent. */
  proposals: string | null
}

/** One rights issue. */
export interface RightsIssueEvent {
  code: string
  name: string
  /** Record date: holders that day get the rights. */
  date: string
  /** New shares offered per 10 held (10配3 → 3). */
  ratioPer10: number
  /** CNY per new share; null until priced. */
  price: number | null
  /** New shares issued (planned until the subscription closes); null when absent. */
  shares: number | null
  sharesBefore: number | null
  sharesAfter: number | null
  exDate: string | null
  paymentStart: string | null
  paymentEnd: string | null
  listingDate: string | null
  noticeDate: string | null
}

const text = (row: JsonObject, col: string) => (typeof row[col] === 'string' && (row[col] as string).trim() ? (row[col] as string).trim() : null)

/** Dates that must not run backwards, `[earlier, later]` column pairs; `malformed` when one does. */
function ordered(row: JsonObject, what: string, pairs: Array<[string, string]>): void {
  for (const [a, b] of pairs) {
    const x = optDate(row, a)
    const y = optDate(row, b)
    if (x && y && x > y) throw malformed(CHANNEL, `${what}: ${a} ${x} is after ${b} ${y}`)
  }
}

export function toMeeting(row: JsonObject): MeetingEvent {
  const code = codeOf(row)
  const date = optDate(row, 'START_ADJUST_DATE')
  if (!date) throw malformed(CHANNEL, `meeting row of ${code} has no START_ADJUST_DATE`)
  const title = text(row, 'MEETING_TITLE')
  if (!title) throw malformed(CHANNEL, `meeting row of ${code} on ${date} has no MEETING_TITLE`)
  const what = `meeting of ${code} on ${date}`
  ordered(row, what, [['EQUITY_RECORD_DATE', 'START_ADJUST_DATE'], ['NOTICE_DATE', 'START_ADJUST_DATE'], ['START_ADJUST_DATE', 'DECISION_NOTICE_DATE'], ['WEB_START_DATE', 'WEB_END_DATE']])
  return {
    code, name: nameOf(row, code), date, title,
    recordDate: optDate(row, 'EQUITY_RECORD_DATE'), noticeDate: optDate(row, 'NOTICE_DATE'), resolutionDate: optDate(row, 'DECISION_NOTICE_DATE'),
    voteStart: optDate(row, 'WEB_START_DATE'), voteEnd: optDate(row, 'WEB_END_DATE'), proposals: text(row, 'PROPOSAL'),
  }
}

/** Rights issues are capped at 30% of the shares; a ratio above 10 per 10 is another unit. */
const MAX_RATIO = 10

export function toRightsIssue(row: JsonObject): RightsIssueEvent {
  const code = codeOf(row)
  const date = optDate(row, 'EQUITY_RECORD_DATE')
  if (!date) throw malformed(CHANNEL, `rights issue row of ${code} has no EQUITY_RECORD_DATE`)
  const what = `rights issue of ${code} recorded ${date}`
  const n = (col: string) => {
    const v = optNum(CHANNEL, row[col], `${col} of ${what}`)
    if (v !== null && v < 0) throw malformed(CHANNEL, `${col} of ${what} is negative`)
    return v
  }
  const ratio = n('PLACING_RATIO')
  if (ratio === null || ratio === 0 || ratio > MAX_RATIO) throw malformed(CHANNEL, `PLACING_RATIO of ${what} is not shares per 10: ${JSON.stringify(row.PLACING_RATIO)}`)
  const price = n('ISSUE_PRICE')
  const before = n('TOTAL_SHARES_BEFORE')
  const after = n('TOTAL_SHARES_AFTER')
  if (before !== null && after !== null && after < before) throw malformed(CHANNEL, `${what}: fewer shares after (${after}) than before (${before})`)
  ordered(row, what, [['FIRST_NOTICE_DATE', 'EQUITY_RECORD_DATE'], ['EQUITY_RECORD_DATE', 'EX_DIVIDEND_DATE'], ['PAY_START_DATE', 'PAY_END_DATE'], ['EQUITY_RECORD_DATE', 'LISTING_DATE']])
  return {
    code, name: nameOf(row, code), date, ratioPer10: ratio, price: price === 0 ? null : price, shares: n('ISSUE_NUM'), sharesBefore: before, sharesAfter: after,
    exDate: optDate(row, 'EX_DIVIDEND_DATE'), paymentStart: optDate(row, 'PAY_START_DATE'), paymentEnd: optDate(row, 'PAY_END_DATE'),
    listingDate: optDate(row, 'LISTING_DATE'), noticeDate: optDate(row, 'FIRST_NOTICE_DATE'),
  }
}

const byDateCode = <T extends { date: string; code: string }>(a: T, b: T) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.code < b.code ? -1 : a.code > b.code ? 1 : 0)

/** Rows of `report` with `column` in [from, to], parsed, checked to lie there, by date then code. */
async function between<T extends { date: string; code: string }>(ctx: ChannelContext, report: string, column: string, extra: string, from: string, to: string, limit: number, parse: (r: JsonObject) => T): Promise<Section<T>> {
  const filter = `${extra}(${column}>='${from}')(${column}<='${to}')`
  const { rows, more } = await onePage(ctx, datacenterUrl({ report, filter, sortColumns: `${column},SECURITY_CODE`, sortTypes: '1,1', page: 1, pageSize: limit }))
  const events = rows.map(parse)
  for (const e of events) if (e.date < from || e.date > to) throw malformed(CHANNEL, `${report} row ${e.code} ${e.date} is outside ${from}..${to}`)
  return { events: events.sort(byDateCode), more }
}

/** Shareholder meetings held in [from, to]. */
export const fetchMeetingsBetween = (ctx: ChannelContext, from: string, to: string, limit: number) =>
  between(ctx, MEETING_REPORT, 'START_ADJUST_DATE', '(IS_LASTDATE="1")', from, to, limit, toMeeting)

/** Rights issues with a record date in [from, to]. */
export const fetchRightsIssuesBetween = (ctx: ChannelContext, from: string, to: string, limit: number) =>
  between(ctx, RIGHTS_REPORT, 'EQUITY_RECORD_DATE', '', from, to, limit, toRightsIssue)

/**
 * Two corporate-event reports of Eastmoney's datacenter, from the one market:
 * `RPT_GENERALMEETING_DETAIL` (股东大会, columns as akshare's `stock_gddh_em` asks them), one
 * meeting per dividend plan, held the day the plan turns approved (market/dividend-plans.ts), so
 * the meeting and the plan's stage tell one story; and `RPT_IPO_ALLOTMENT` (配股, columns as public
 * clients read them), the rights issues of market/rights-issues.ts. A row exists once its notice
 * is out by the clock's Beijing date; a resolution date only once the meeting has been held.
 * Without bounds on the date column (`START_ADJUST_DATE`, `EQUITY_RECORD_DATE`) the last and next
 * year are served.
 */
import { addDays, beijing } from '../../domain/dates'
import { previousTradingDay } from '../../domain/trading-calendar'
import { meetingDates, planDates } from '../market/dividend-plans'
import { rightsIssueOf } from '../market/rights-issues'
import type { EmuInstrument, MarketModel } from '../market/types'
import { reportDate, type Predicate, type Row } from './datacenter-rows'
import { hashOf, round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const datetime = (d: string) => `${d} 00:00:00`

/** The stocks a `SECURITY_CODE=` predicate names, else every A-share stock. */
function stocks(market: MarketModel, filter: readonly Predicate[]): EmuInstrument[] {
  const code = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')?.value
  return market.instruments().filter((i) => i.kind === 'stock' && SUFFIX[i.prefix] && (code === undefined || i.symbol === code))
}

/** `[from, to]` of a date column's predicates, the last and next year when unbounded. */
function bounds(filter: readonly Predicate[], column: string, today: string): [string, string] {
  let from = addDays(today, -365)
  let to = addDays(today, 365)
  for (const p of filter) {
    if (p.column !== column) continue
    const d = p.value.slice(0, 10)
    if (p.op === '=' || p.op.startsWith('>')) from = d
    if (p.op === '=' || p.op.startsWith('<')) to = d
  }
  return [from, to]
}

const identity = (inst: EmuInstrument): Row => ({ SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`, SECURITY_CODE: inst.symbol, SECURITY_NAME_ABBR: inst.name })

/** The meeting's name and the proposal it votes on, by the period the distribution is of. */
function meetingWords(exDate: string): { title: string; proposal: string } {
  const period = reportDate(exDate)
  const year = period.slice(0, 4)
  if (period.endsWith('12-31')) return { title: `${year}年年度股东大会`, proposal: `关于${year}年度利润分配方案的议案` }
  const which = period.endsWith('06-30') ? '半年度' : '前三季度'
  return { title: `${Number(year) + (period.endsWith('09-30') ? 1 : 0)}年第一次临时股东大会`, proposal: `关于${year}年${which}利润分配方案的议案` }
}

function meetingRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const [from, to] = bounds(filter, 'START_ADJUST_DATE', today)
  const rows: Row[] = []
  for (const inst of stocks(market, filter)) {
    for (const a of market.actions(inst)) {
      const m = meetingDates(a)
      if (m.meeting < from || m.meeting > to || m.notice > today || planDates(a).planNotice > today) continue
      const words = meetingWords(a.exDate)
      rows.push({
        ...identity(inst),
        MEETING_TITLE: words.title,
        START_ADJUST_DATE: datetime(m.meeting),
        END_ADJUST_DATE: datetime(m.meeting),
        EQUITY_RECORD_DATE: datetime(m.record),
        ONSITE_RECORD_DATE: datetime(previousTradingDay(m.meeting)),
        DECISION_NOTICE_DATE: m.resolution <= today ? datetime(m.resolution) : null,
        NOTICE_DATE: datetime(m.notice),
        WEB_START_DATE: datetime(m.meeting),
        WEB_END_DATE: datetime(m.meeting),
        SERIAL_NUM: 1,
        PROPOSAL: words.proposal,
        IS_LASTDATE: '1',
      })
    }
  }
  return rows
}

function allotmentRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const [from, to] = bounds(filter, 'EQUITY_RECORD_DATE', today)
  const rows: Row[] = []
  for (const inst of stocks(market, filter)) {
    const r = rightsIssueOf(inst)
    if (!r || r.notice > today || r.record < from || r.record > to) continue
    // Priced off the close before the announcement.
    const day = previousTradingDay(r.notice)
    const close = market.dailyBars(inst, addDays(day, -20), day, now).at(-1)?.close
    if (close === undefined) continue
    const before = inst.totalShares as number
    const issued = Math.round((before * r.ratioPer10) / 10)
    rows.push({
      ...identity(inst),
      FINANCE_CODE: String(hashOf('rights:' + inst.code) % 100000),
      PLACING_RATIO: r.ratioPer10,
      ISSUE_PRICE: round(close * r.discount, 2),
      ISSUE_NUM: issued,
      TOTAL_SHARES_BEFORE: before,
      TOTAL_SHARES_AFTER: before + issued,
      FIRST_NOTICE_DATE: datetime(r.notice),
      EQUITY_RECORD_DATE: datetime(r.record),
      EX_DIVIDEND_DATE: datetime(r.ex),
      PAY_START_DATE: datetime(r.payStart),
      PAY_END_DATE: datetime(r.payEnd),
      LISTING_DATE: datetime(r.listing),
    })
  }
  return rows
}

export const CORPORATE_REPORTS = { RPT_GENERALMEETING_DETAIL: meetingRows, RPT_IPO_ALLOTMENT: allotmentRows }

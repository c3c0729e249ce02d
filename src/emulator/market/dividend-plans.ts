/**
 * The life of a dividend plan around one corporate action, so that every view of a dividend
 * (the plan rows, the ex-date, the adjusted prices) tells one story. Dates only; amounts are the
 * action's. Pure: action in, dates out.
 */
import { addDays } from '../../domain/dates'
import { previousTradingDay, tradingDayOnOrBefore } from '../../domain/trading-calendar'
import type { CorporateAction } from './types'

export type PlanStage = 'proposed' | 'approved' | 'implemented'

/** When the board proposes, the shareholders approve, and the implementation is announced; then record, ex and payment dates. */
export interface PlanDates {
  planNotice: string
  approval: string
  implementationNotice: string
  record: string
  ex: string
  /** Cash is paid on the ex-date (A-share practice); null when the plan pays no cash. */
  pay: string | null
}

/** The dates that follow from an ex-date alone, by ex-date: the whole-market dividend and meeting scans ask for each many times. */
const byExDate = new Map<string, Omit<PlanDates, 'pay'>>()

export function planDates(a: CorporateAction): PlanDates {
  let d = byExDate.get(a.exDate)
  if (!d) {
    const record = previousTradingDay(a.exDate)
    d = {
      planNotice: tradingDayOnOrBefore(addDays(a.exDate, -75)),
      approval: tradingDayOnOrBefore(addDays(a.exDate, -30)),
      implementationNotice: tradingDayOnOrBefore(addDays(record, -5)),
      record,
      ex: a.exDate,
    }
    byExDate.set(a.exDate, d)
  }
  return { ...d, pay: a.cash > 0 ? a.exDate : null }
}

/** The plan's stage on `today` (`YYYY-MM-DD`); null before it is announced. */
export function planStage(d: PlanDates, today: string): PlanStage | null {
  if (today < d.planNotice) return null
  if (today < d.approval) return 'proposed'
  return today < d.implementationNotice ? 'approved' : 'implemented'
}

/**
 * The shareholders' meeting that approves a plan: held on the approval day (its resolution is
 * announced that day, when the plan's stage turns to approved), called 20 days ahead, with its
 * own record date five trading days before it (the rules allow at most seven working days).
 */
export interface MeetingDates {
  notice: string
  record: string
  meeting: string
  resolution: string
}

const meetingsByExDate = new Map<string, MeetingDates>()

export function meetingDates(a: CorporateAction): MeetingDates {
  let m = meetingsByExDate.get(a.exDate)
  if (!m) {
    const meeting = planDates(a).approval
    let record = meeting
    for (let k = 0; k < 5; k++) record = previousTradingDay(record)
    m = { notice: tradingDayOnOrBefore(addDays(meeting, -20)), record, meeting, resolution: meeting }
    meetingsByExDate.set(a.exDate, m)
  }
  return m
}

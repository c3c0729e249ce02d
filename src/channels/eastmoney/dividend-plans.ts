/**
 * Dividend plans of one stock from `RPT_SHAREBONUS_DET` (upstreams.md §5.2), every stage of them:
 * board proposal, shareholders' approval, implementation. Unlike dividends.ts (which keeps only
 * implemented ex-dates for price adjustment) this keeps the plan's dates and status as well.
 */
import type { Instrument } from '../../domain/instrument'
import { isValidDate } from '../../domain/dates'
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { DIVIDEND_COLUMNS, DIVIDEND_REPORT, EX_DATE, perShare } from './dividends'
import { CHANNEL } from './wire'

/** A plan's stage, in our words. */
export type PlanStatus = 'proposed' | 'approved' | 'implemented' | 'cancelled'

/** `ASSIGN_PROGRESS` texts seen upstream, by stage. Anything else is kept as text with a null status. */
export const PLAN_STATUS: Record<string, PlanStatus> = {
  董事会预案: 'proposed',
  预案: 'proposed',
  董事会预案通过: 'proposed',
  股东大会决议通过: 'approved',
  股东大会通过: 'approved',
  实施分配: 'implemented',
  实施方案: 'implemented',
  停止实施: 'cancelled',
  股东大会否决: 'cancelled',
}

/** One distribution plan, values per share. */
export interface DividendPlan {
  /** The financial period it distributes, `YYYY-MM-DD`; null when the upstream does not say (Sina). */
  reportDate: string | null
  planNoticeDate: string | null
  /** The latest announcement about the plan (proposal, approval or implementation); null when not given. */
  noticeDate: string | null
  /** Cash per share, CNY, pre-tax (0 when the plan pays none). */
  cash: number
  /** Bonus shares (送) per share; null when the upstream gives only the sum with transfers. */
  bonusShares: number | null
  /** Transferred shares (转增) per share; null as for bonusShares. */
  transferShares: number | null
  /** Bonus plus transferred shares per share. */
  bonusTransferShares: number
  recordDate: string | null
  exDate: string | null
  payDate: string | null
  status: PlanStatus | null
  /** The upstream's own words for the stage. */
  statusText: string
  /** The plan as the upstream words it, e.g. `10派276.73元(含税)`. */
  profile: string | null
}

/** The same report as the history store's actions (./dividends.ts), with the plan's own columns. */
const PLAN_COLUMNS = {
  ...DIVIDEND_COLUMNS,
  reportDate: 'REPORT_DATE',
  planNoticeDate: 'PLAN_NOTICE_DATE',
  noticeDate: 'NOTICE_DATE',
  recordDate: 'EQUITY_RECORD_DATE',
  payDate: 'PAY_CASH_DATE',
  progress: 'ASSIGN_PROGRESS',
  profile: 'IMPL_PLAN_PROFILE',
} as const
const C = PLAN_COLUMNS

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

/** The URL of one page of a stock's plans, newest period first. */
export function dividendPlansUrl(inst: Instrument, page: number): string {
  if (!SUFFIX[inst.prefix]) throw unsupported(CHANNEL, `dividend plans are for sh/sz/bj stocks, not ${inst.code}`)
  return datacenterUrl({ report: DIVIDEND_REPORT, filter: `(${C.code}="${inst.symbol}")`, sortColumns: C.reportDate, sortTypes: '-1', page })
}

function date(row: JsonObject, col: string, where: string): string | null {
  const raw = row[col]
  if (raw === null || raw === undefined || raw === '') return null
  const m = typeof raw === 'string' ? EX_DATE.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${col} of ${where} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

/**
 * One row as a plan of `inst`. A row of another stock, unreadable dates or numbers, negative
 * amounts, parts that do not add up to the stated sum, or dates out of order (record date after
 * the ex-date, payment before the record date) are `malformed`.
 */
export function toPlan(row: JsonObject, inst: Instrument): DividendPlan {
  const code = row[C.code]
  if (String(code) !== inst.symbol) throw malformed(CHANNEL, `dividend row of ${JSON.stringify(code)} answers a query for ${inst.code}`)
  const secu = row[C.secucode]
  if (secu !== undefined && secu !== null && secu !== `${inst.symbol}.${SUFFIX[inst.prefix]}`) throw malformed(CHANNEL, `dividend row ${JSON.stringify(secu)} is not ${inst.code}`)
  const reportDate = date(row, C.reportDate, inst.code)
  if (!reportDate) throw malformed(CHANNEL, `dividend row of ${inst.code} has no ${C.reportDate}`)
  const where = `${inst.code} ${reportDate}`
  const n = (col: string) => {
    const v = optNum(CHANNEL, row[col], `${col} of ${where}`)
    if (v !== null && v < 0) throw malformed(CHANNEL, `${col} of ${where} is negative`)
    return v
  }
  const cash = n(C.cashPer10)
  const sum = n(C.sharesPer10)
  const bonus = n(C.bonusPer10)
  const transfer = n(C.transferPer10)
  const parts = bonus === null && transfer === null ? null : (bonus ?? 0) + (transfer ?? 0)
  if (sum !== null && parts !== null && Math.abs(sum - parts) > 1e-6) throw malformed(CHANNEL, `${C.sharesPer10} ${sum} of ${where} is not ${C.bonusPer10} + ${C.transferPer10} = ${parts}`)
  const onlySum = parts === null && sum !== null && sum > 0

  const recordDate = date(row, C.recordDate, where)
  const exDate = date(row, C.exDate, where)
  const payDate = date(row, C.payDate, where)
  if (recordDate && exDate && recordDate >= exDate) throw malformed(CHANNEL, `record date ${recordDate} of ${where} is not before the ex-date ${exDate}`)
  if (recordDate && payDate && payDate < recordDate) throw malformed(CHANNEL, `payment date ${payDate} of ${where} is before the record date ${recordDate}`)

  const progress = row[C.progress]
  const statusText = typeof progress === 'string' ? progress : ''
  const profile = row[C.profile]
  return {
    reportDate,
    planNoticeDate: date(row, C.planNoticeDate, where),
    noticeDate: date(row, C.noticeDate, where),
    cash: perShare(cash ?? 0),
    bonusShares: onlySum ? null : perShare(bonus ?? 0),
    transferShares: onlySum ? null : perShare(transfer ?? 0),
    bonusTransferShares: perShare(sum ?? parts ?? 0),
    recordDate,
    exDate,
    payDate,
    status: PLAN_STATUS[statusText] ?? null,
    statusText,
    profile: typeof profile === 'string' && profile !== '' ? profile : null,
  }
}

/** The date a plan is known by: its ex-date once set, else when it was proposed, else its latest announcement, else its period. */
export const planDate = (p: DividendPlan): string => p.exDate ?? p.planNoticeDate ?? p.noticeDate ?? p.reportDate ?? ''

/** Every plan of one A-share stock, newest first (by {@link planDate}); none is []. */
export async function fetchDividendPlans(ctx: ChannelContext, inst: Instrument): Promise<DividendPlan[]> {
  const rows = await fetchDatacenterRows(ctx, (page) => dividendPlansUrl(inst, page))
  return rows.map((r) => toPlan(r, inst)).sort((a, b) => (planDate(a) < planDate(b) ? 1 : planDate(a) > planDate(b) ? -1 : 0))
}

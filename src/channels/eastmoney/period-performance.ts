/**
 * One report period's 业绩报表 for the whole A-share market: the datacenter report
 * `RPT_LICO_FN_CPD` (src/channels/README.md, "业绩报表"), filtered by `REPORTDATE`, paged 500 rows at
 * a time as finance-period.ts walks the statements. We read it for one figure the summary statements lack:
 * `BPS` (每股净资产), the equity attributable to the parent per share at the period end, which
 * the balance report `RPT_DMSK_FN_BALANCE` does not split from total equity.
 *
 * Each row has two dates (test/fixtures/eastmoney/lico-fn-cpd-301381-2025-05-26.json):
 * `NOTICE_DATE`, when the period was first published, and `UPDATE_DATE`, when the row last
 * changed (a later report restating the period moves it: that capture's 2024-03-31 row, first
 * published 2024-04-27, is updated 2025-04-26). The row holds the values as of `UPDATE_DATE`, so
 * that is when a caller may first use them.
 */
import { isValidDate } from '../../domain/dates'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const PERFORMANCE_REPORT = 'RPT_LICO_FN_CPD'

/** One stock's row of the period: its dates and parent equity per share. */
export interface PeriodPerformance {
  /** `NOTICE_DATE`: the period's first publication, `YYYY-MM-DD`. */
  notice: string
  /** `UPDATE_DATE`: when the row's values were last published, `YYYY-MM-DD`, on or after `notice`. */
  updated: string
  /** `BPS`: parent equity per share at the period end, CNY; null when not sent. */
  bps: number | null
  /**
   * The shares the row's per-share figures are over: `PARENT_NETPROFIT` / `BASIC_EPS`, when the
   * EPS is at least 0.1 CNY (else its rounding leaves the count unknown, and it is null). EPS is
   * over the period's weighted shares, so this is near the period-end count, not exactly it.
   */
  shares: number | null
}

/** Below this EPS (CNY), profit / EPS says too little about the share count. */
const SHARES_EPS = 0.1

const PERIOD = /^\d{4}-(03-31|06-30|09-30|12-31)$/
const PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }
const SECUCODE = /^(\d{6})\.(SH|SZ|BJ)$/

/**
 * URL of page `page` of the report for every stock, period `YYYY-MM-DD`, sorted by code so paging
 * is stable. No `SECURITY_TYPE_CODE` filter, as for the statements: BJ stays in.
 */
export function performanceUrl(period: string, page: number): string {
  return datacenterUrl({ report: PERFORMANCE_REPORT, filter: `(REPORTDATE='${period}')`, sortColumns: 'SECUCODE', sortTypes: '1', page })
}

/** `YYYY-MM-DD` of a datacenter datetime cell, or null when it is not one. */
const dateOf = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}( 00:00:00)?$/.test(v) && isValidDate(v.slice(0, 10)) ? v.slice(0, 10) : null)

/** A number cell: finite, or null when absent; anything else is `malformed`. */
function numberCell(row: JsonObject, column: string, where: string): number | null {
  const v = row[column]
  if (v === null || v === undefined) return null
  if (typeof v !== 'number' || !Number.isFinite(v)) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} ${where} ${column} is ${JSON.stringify(v)}`)
  return v
}

/**
 * Whether a row's figures agree with each other. Basic EPS is the attributable profit over the
 * weighted shares, so both have one sign; and with a positive BPS (parent equity) the weighted
 * ROE has the profit's sign too. (Exact agreement is not to be had from one row: EPS is rounded
 * to 4 decimals and weighted over the period, the ROE averages the equity over the period.)
 */
function addsUp(eps: number | null, profit: number | null, roe: number | null, bps: number | null): boolean {
  if (eps !== null && profit !== null && eps !== 0 && profit !== 0 && Math.sign(eps) !== Math.sign(profit)) return false
  if (roe !== null && profit !== null && bps !== null && bps > 0 && roe !== 0 && profit !== 0 && Math.sign(roe) !== Math.sign(profit)) return false
  return true
}

/**
 * Rows of one period, by our code. Every row must be of that period, name an sh/sz/bj stock once,
 * carry a notice date after the period end and an update date not before it, and add up; else
 * `malformed`.
 */
export function parsePeriodPerformance(rows: JsonObject[], period: string): Map<string, PeriodPerformance> {
  const out = new Map<string, PeriodPerformance>()
  for (const row of rows) {
    const m = typeof row.SECUCODE === 'string' ? SECUCODE.exec(row.SECUCODE) : null
    if (!m) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} row has SECUCODE ${JSON.stringify(row.SECUCODE)}`)
    const code = PREFIX[m[2]] + m[1]
    const where = `${code} ${period}`
    if (dateOf(row.REPORTDATE) !== period) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} row of ${code} is for ${JSON.stringify(row.REPORTDATE)}, asked ${period}`)
    const notice = dateOf(row.NOTICE_DATE)
    if (!notice || notice <= period) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} ${where} has notice date ${JSON.stringify(row.NOTICE_DATE)}`)
    const updated = dateOf(row.UPDATE_DATE)
    if (!updated || updated < notice) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} ${where} has update date ${JSON.stringify(row.UPDATE_DATE)}, notice ${notice}`)
    if (out.has(code)) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} lists ${code} twice for ${period}`)
    const bps = numberCell(row, 'BPS', where)
    const eps = numberCell(row, 'BASIC_EPS', where)
    const profit = numberCell(row, 'PARENT_NETPROFIT', where)
    const roe = numberCell(row, 'WEIGHTAVG_ROE', where)
    if (!addsUp(eps, profit, roe, bps)) throw malformed(CHANNEL, `${PERFORMANCE_REPORT} ${where} does not add up: EPS ${eps}, profit ${profit}, ROE ${roe}, BPS ${bps}`)
    const shares = eps !== null && profit !== null && Math.abs(eps) >= SHARES_EPS ? profit / eps : null
    out.set(code, { notice, updated, bps, shares })
  }
  return out
}

/** The report of every A-share for `period` (`YYYY-MM-DD` quarter end); an empty map when none is published. */
export async function fetchPeriodPerformance(ctx: ChannelContext, period: string): Promise<Map<string, PeriodPerformance>> {
  if (!PERIOD.test(period)) throw new RangeError(`not a quarter end: ${period}`)
  const rows = await fetchDatacenterRows(ctx, (page) => performanceUrl(period, page))
  return parsePeriodPerformance(rows, period)
}

/**
 * One report period's statements for the whole A-share market, from the same datacenter reports
 * as /v1/finance (`RPT_DMSK_FN_*`, upstreams.md §5.1.1) filtered by `REPORT_DATE` instead of by
 * stock, paged 500 rows at a time: about 12 requests per statement and period for 5,500 stocks,
 * where per-stock calls would cost 5,500. Each row keeps its `NOTICE_DATE`, so a caller can take
 * only what was published by a date.
 */
import { isValidDate } from '../../domain/dates'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { FINANCE_REPORTS, statementLines, type StatementName } from './finance'
import { CHANNEL } from './wire'

/** One stock's statement of the period: when it was published and our lines. */
export interface PeriodStatement {
  /** `YYYY-MM-DD`. */
  notice: string
  lines: Record<string, number | null>
}

const PERIOD = /^\d{4}-(03-31|06-30|09-30|12-31)$/
const PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }
const SECUCODE = /^(\d{6})\.(SH|SZ|BJ)$/

/** URL of page `page` of one statement for every stock, period `YYYY-MM-DD`, sorted by code so paging is stable. */
export function periodUrl(statement: StatementName, period: string, page: number): string {
  return datacenterUrl({ report: FINANCE_REPORTS[statement], filter: `(REPORT_DATE='${period}')`, sortColumns: 'SECUCODE', sortTypes: '1', page })
}

/** `YYYY-MM-DD` of a datacenter datetime cell, or null when it is not one. */
const dateOf = (v: unknown) => (typeof v === 'string' && isValidDate(v.slice(0, 10)) && /^\d{4}-\d{2}-\d{2}( 00:00:00)?$/.test(v) ? v.slice(0, 10) : null)

/**
 * Rows of one statement for one period, by our code. Every row must be of that period, name an
 * sh/sz/bj stock once, carry a notice date after the period end, and add up; else `malformed`.
 */
export function parsePeriodStatement(statement: StatementName, rows: JsonObject[], period: string): Map<string, PeriodStatement> {
  const out = new Map<string, PeriodStatement>()
  for (const row of rows) {
    const m = typeof row.SECUCODE === 'string' ? SECUCODE.exec(row.SECUCODE) : null
    if (!m) throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} row has SECUCODE ${JSON.stringify(row.SECUCODE)}`)
    const code = PREFIX[m[2]] + m[1]
    if (dateOf(row.REPORT_DATE) !== period) throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} row of ${code} is for ${JSON.stringify(row.REPORT_DATE)}, asked ${period}`)
    const notice = dateOf(row.NOTICE_DATE)
    if (!notice || notice <= period) throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} row of ${code} ${period} has notice date ${JSON.stringify(row.NOTICE_DATE)}`)
    if (out.has(code)) throw malformed(CHANNEL, `${FINANCE_REPORTS[statement]} lists ${code} twice for ${period}`)
    out.set(code, { notice, lines: statementLines(statement, row, `${code} ${period}`) })
  }
  return out
}

/** One statement of every stock for `period` (`YYYY-MM-DD` quarter end); an empty map when none is published. */
export async function fetchPeriodStatement(ctx: ChannelContext, statement: StatementName, period: string): Promise<Map<string, PeriodStatement>> {
  if (!PERIOD.test(period)) throw new RangeError(`not a quarter end: ${period}`)
  const rows = await fetchDatacenterRows(ctx, (page) => periodUrl(statement, period, page))
  return parsePeriodStatement(statement, rows, period)
}

import { empty } from '../channels/errors'
import { fetchReportList, fetchReportSummary } from '../channels/eastmoney/reports'
import type { Instrument } from '../domain/instrument'
import { askWith } from './ask'

export { reportPageUrl, reportPdfUrl, type ResearchRow } from '../channels/eastmoney/reports'

// Broker research (/v1/dehydrated): Eastmoney's report list and each report's page.

/**
 * The newest `limit` research reports on `inst` (or on the whole market without it) from `begin`
 * to `end`; none is an `empty` failure, so that the answer says there was nothing.
 */
export const researchReports = (q: { inst: Instrument | undefined; begin: string; end: string; limit: number }) =>
  askWith(async (ctx) => {
    const page = await fetchReportList(ctx, { inst: q.inst, begin: q.begin, end: q.end, pageSize: q.limit })
    if (page.rows.length === 0) throw empty('eastmoney', `no research reports ${q.inst ? 'on ' + q.inst.code : 'in the market'} since ${q.begin}`)
    return page.rows.slice(0, q.limit)
  })

/** The summary text of one report, from its page. */
export const reportSummary = (infoCode: string) => askWith((ctx) => fetchReportSummary(ctx, infoCode))

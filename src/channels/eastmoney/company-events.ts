/**
 * A stock's company calendar from the datacenter report `RPT_ORGOP_ALL` (upstreams.md §5.9):
 * dated events with Eastmoney's type word and a line of content.
 */
import { isValidDate } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const COMPANY_CALENDAR_REPORT = 'RPT_ORGOP_ALL'

export interface CompanyEvent {
  date: string
  /** The upstream's EVENT_TYPE word, e.g. `除权除息`. */
  type: string
  content: string
}

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const DATETIME = /^(\d{4}-\d{2}-\d{2})( \d{2}:\d{2}:\d{2})?$/

/** The URL of one page of a stock's events dated `from` on, newest first. */
export function companyEventsUrl(inst: Instrument, from: string, page: number): string {
  if (inst.kind !== 'stock' || !SUFFIX[inst.prefix]) throw unsupported(CHANNEL, `the company calendar is for sh/sz/bj stocks, not ${inst.code}`)
  if (!isValidDate(from)) throw unsupported(CHANNEL, `not a YYYY-MM-DD date: ${from}`)
  return datacenterUrl({ report: COMPANY_CALENDAR_REPORT, filter: `(SECURITY_CODE="${inst.symbol}")(TRADE_DATE>='${from}')`, sortColumns: 'TRADE_DATE', sortTypes: '-1', page })
}

/** One row as an event of `inst`; another stock's row, a bad date, or a row without a type is `malformed`. */
export function toCompanyEvent(row: JsonObject, inst: Instrument): CompanyEvent {
  if (String(row.SECURITY_CODE) !== inst.symbol) throw malformed(CHANNEL, `${COMPANY_CALENDAR_REPORT} row of ${JSON.stringify(row.SECURITY_CODE)} answers a query for ${inst.code}`)
  const secu = row.SECUCODE
  if (secu !== undefined && secu !== null && secu !== `${inst.symbol}.${SUFFIX[inst.prefix]}`) throw malformed(CHANNEL, `${COMPANY_CALENDAR_REPORT} row ${JSON.stringify(secu)} is not ${inst.code}`)
  const m = typeof row.TRADE_DATE === 'string' ? DATETIME.exec(row.TRADE_DATE) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `TRADE_DATE of a ${inst.code} event is not a date: ${JSON.stringify(row.TRADE_DATE)}`)
  const type = typeof row.EVENT_TYPE === 'string' ? row.EVENT_TYPE.trim() : ''
  if (!type) throw malformed(CHANNEL, `${inst.code} event on ${m[1]} has no EVENT_TYPE`)
  const content = typeof row.EVENT_CONTENT === 'string' ? row.EVENT_CONTENT : ''
  // The content is passed on as written, so it must at least be text a person wrote: a number
  // printed as NaN or undefined is a broken answer, not a disclosure.
  if (BROKEN_TEXT.test(content)) throw malformed(CHANNEL, `${inst.code} event on ${m[1]} carries a broken number: ${JSON.stringify(content.slice(0, 80))}`)
  return { date: m[1], type, content }
}

/** What a program printed where a number belonged. */
const BROKEN_TEXT = /NaN|undefined|Infinity|\[object /

/** Events of one stock from `from` on, newest first (ties keep the upstream's order); none is []. */
export async function fetchCompanyEvents(ctx: ChannelContext, inst: Instrument, from: string): Promise<CompanyEvent[]> {
  const rows = await fetchDatacenterRows(ctx, (page) => companyEventsUrl(inst, from, page))
  const events = rows.map((r) => toCompanyEvent(r, inst))
  for (const e of events) if (e.date < from) throw malformed(CHANNEL, `${inst.code} event on ${e.date} is before the ${from} asked for`)
  return events.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
}

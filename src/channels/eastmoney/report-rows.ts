/**
 * Shared readers for the trading-activity reports of the datacenter (block trades, margin, the
 * dragon-tiger board): fetching a report through the mirrors, and the columns every such row
 * has (code, date), checked against what was asked.
 */
import { isValidDate } from '../../domain/dates'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { DATACENTER_URL, datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { MIRRORS, withMirrors } from './mirrors'
import { CHANNEL } from './wire'

/** Every row of a report query, from `datacenter-web` or, failing that, its `datacenter` mirror. */
export function fetchReport(ctx: ChannelContext, q: { report: string; filter: string; sortColumns: string; sortTypes: string }): Promise<JsonObject[]> {
  return withMirrors(MIRRORS.datacenter, (host) =>
    fetchDatacenterRows(ctx, (page) => datacenterUrl({ ...q, page }).replace(new URL(DATACENTER_URL).host, host))
  )
}

const SUFFIX_PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }
const BJ_CODE = /^[489]/

/** Our code from `SECUCODE` (`600519.SH`), checked against `SECURITY_CODE` when both are there. */
export function codeOfRow(row: JsonObject, codeColumn = 'SECURITY_CODE'): string {
  const secu = row.SECUCODE
  const bare = row[codeColumn]
  const m = typeof secu === 'string' ? /^(\d{6})\.(SH|SZ|BJ)$/.exec(secu) : null
  if (m) {
    if (bare !== undefined && bare !== null && String(bare) !== m[1]) throw malformed(CHANNEL, `${codeColumn} ${JSON.stringify(bare)} disagrees with SECUCODE ${secu}`)
    return SUFFIX_PREFIX[m[2]] + m[1]
  }
  // Reports without SECUCODE (margin, seats) name the six digits only.
  if (typeof bare !== 'string' || !/^\d{6}$/.test(bare)) throw malformed(CHANNEL, `row has no readable code: ${JSON.stringify(secu ?? bare)}`)
  return (bare.startsWith('6') ? 'sh' : BJ_CODE.test(bare) ? 'bj' : 'sz') + bare
}

/** `YYYY-MM-DD` of a `"YYYY-MM-DD 00:00:00"` column. */
export function dateOfRow(row: JsonObject, column: string): string {
  const raw = row[column]
  const m = typeof raw === 'string' ? /^(\d{4}-\d{2}-\d{2})(?: 00:00:00)?$/.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${column} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

/** A text column; null when missing or empty. */
export const textOf = (row: JsonObject, column: string): string | null => {
  const v = row[column]
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null
}

/** Six digits of an A-share code, for a report filter. */
export const bareCode = (code: string) => code.slice(2)

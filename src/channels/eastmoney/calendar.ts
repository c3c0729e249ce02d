/**
 * The per-stock sections of the corporate calendar from datacenter reports, one page each (the
 * caller's `limit` is the page size, so a section holds at most that many rows):
 * the disclosure schedule `RPT_PUBLIC_BS_APPOIN` (upstreams.md §5.9), the dividends with an
 * ex-date in a window `RPT_SHAREBONUS_DET` (§5.2, read as dividends.ts reads it), and lock-up
 * expiries `RPT_LIFT_STAGE` (§5.9).
 */
import { addDays, isValidDate } from '../../domain/dates'
import type { ReportSeason } from '../../domain/report-seasons'
import { malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, readDatacenter } from './datacenter'
import { DIVIDEND_REPORT, toAction } from './dividends'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const DISCLOSURE_REPORT = 'RPT_PUBLIC_BS_APPOIN'
/** A booked date moves by days, rarely weeks: ask this much around the window for rows that moved into it. */
const MOVE_MARGIN_DAYS = 15

/** One scheduled periodic report. */
export interface DisclosureEvent {
  code: string
  name: string
  /** Period end `YYYY-MM-DD`. */
  period: string
  /** Eastmoney's name of the report (`2026年三季报`). */
  report: string
  /** First booked day. */
  scheduled: string
  /** The latest day it was moved to; null if never moved. */
  revised: string | null
  /** The day it was published; null until then. */
  published: string | null
  /** The day that counts: published, else revised, else scheduled. */
  date: string
}

/** One dividend or bonus-share distribution. */
export interface DividendEvent {
  code: string
  name: string
  exDate: string
  recordDate: string | null
  /** CNY per share, pre-tax. */
  cash: number
  /** Bonus and transfer shares per share. */
  bonus: number
  /** The plan as Eastmoney words it (`10派5.2元(含税)`); null when absent. */
  plan: string | null
}

const DATE = /^(\d{4}-\d{2}-\d{2})( 00:00:00)?$/

/** A `YYYY-MM-DD[ 00:00:00]` cell as a date; null when empty; `malformed` otherwise. */
export function optDate(row: JsonObject, col: string): string | null {
  const raw = row[col]
  if (raw === null || raw === undefined || raw === '' || raw === '-') return null
  const m = typeof raw === 'string' ? DATE.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${col} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

const SUFFIX_PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }

/** `600519.SH` → `sh600519`, checked against `SECURITY_CODE`. */
export function codeOf(row: JsonObject): string {
  const m = typeof row.SECUCODE === 'string' ? /^(\d{6})\.(SH|SZ|BJ)$/.exec(row.SECUCODE) : null
  if (!m) throw malformed(CHANNEL, `SECUCODE is not a code.SH|SZ|BJ: ${JSON.stringify(row.SECUCODE)}`)
  if (row.SECURITY_CODE !== undefined && String(row.SECURITY_CODE) !== m[1]) throw malformed(CHANNEL, `SECURITY_CODE ${JSON.stringify(row.SECURITY_CODE)} disagrees with ${row.SECUCODE}`)
  return SUFFIX_PREFIX[m[2]] + m[1]
}

export const nameOf = (row: JsonObject, code: string) => {
  const n = row.SECURITY_NAME_ABBR
  if (typeof n !== 'string' || !n.trim()) throw malformed(CHANNEL, `row of ${code} has no SECURITY_NAME_ABBR`)
  return n.trim()
}

/** A section's events, and whether the report holds more rows than the page asked for. */
export interface Section<T> {
  events: T[]
  more: boolean
}

/** One page of a report's rows ([] for the datacenter's "no rows"), and whether more exist. */
export async function onePage(ctx: ChannelContext, url: string): Promise<{ rows: JsonObject[]; more: boolean }> {
  const page = readDatacenter(await fetchText(ctx, CHANNEL, url))
  return { rows: page?.data ?? [], more: !!page && page.count > page.data.length }
}

/** One schedule row as an event; `malformed` when it does not answer the period asked. */
export function toDisclosure(row: JsonObject, season: ReportSeason): DisclosureEvent {
  const code = codeOf(row)
  const period = optDate(row, 'REPORT_DATE')
  if (period !== season.period) throw malformed(CHANNEL, `disclosure row of ${code} is for ${period}, not ${season.period}`)
  const scheduled = optDate(row, 'FIRST_APPOINT_DATE')
  if (!scheduled) throw malformed(CHANNEL, `disclosure row of ${code} has no FIRST_APPOINT_DATE`)
  const revised = optDate(row, 'THIRD_CHANGE_DATE') ?? optDate(row, 'SECOND_CHANGE_DATE') ?? optDate(row, 'FIRST_CHANGE_DATE')
  const published = optDate(row, 'ACTUAL_PUBLISH_DATE')
  // Eastmoney writes `2023年 半年报` (a captured row, test/fixtures/eastmoney/SOURCE.md); our
  // seasons are spelt without the space, the same on every endpoint.
  const named = typeof row.REPORT_TYPE_NAME === 'string' ? row.REPORT_TYPE_NAME.replace(/\s+/g, '') : ''
  const report = named || season.name
  return { code, name: nameOf(row, code), period, report, scheduled, revised, published, date: published ?? revised ?? scheduled }
}

/** The disclosure schedule of one season, events dated in [from, to], by date then code. */
export async function fetchDisclosures(ctx: ChannelContext, season: ReportSeason, from: string, to: string, limit: number): Promise<Section<DisclosureEvent>> {
  const filter = `(REPORT_DATE='${season.period}')(FIRST_APPOINT_DATE>='${addDays(from, -MOVE_MARGIN_DAYS)}')(FIRST_APPOINT_DATE<='${addDays(to, MOVE_MARGIN_DAYS)}')`
  const { rows, more } = await onePage(ctx, datacenterUrl({ report: DISCLOSURE_REPORT, filter, sortColumns: 'FIRST_APPOINT_DATE,SECURITY_CODE', sortTypes: '1,1', page: 1, pageSize: limit }))
  const events = rows
    .map((r) => toDisclosure(r, season))
    .filter((e) => e.date >= from && e.date <= to)
    .sort((a, b) => (a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.code < b.code ? -1 : 1))
  return { events, more }
}

/** Distributions with an ex-date in [from, to], by ex-date then code; `malformed` for a row outside it. */
export async function fetchDividendsBetween(ctx: ChannelContext, from: string, to: string, limit: number): Promise<Section<DividendEvent>> {
  const filter = `(EX_DIVIDEND_DATE>='${from}')(EX_DIVIDEND_DATE<='${to}')`
  const { rows, more } = await onePage(ctx, datacenterUrl({ report: DIVIDEND_REPORT, filter, sortColumns: 'EX_DIVIDEND_DATE,SECURITY_CODE', sortTypes: '1,1', page: 1, pageSize: limit }))
  const out: DividendEvent[] = []
  for (const row of rows) {
    const a = toAction(row)
    if (!a) continue
    if (a.exDate < from || a.exDate > to) throw malformed(CHANNEL, `dividend row ${a.code} ${a.exDate} is outside ${from}..${to}`)
    const plan = typeof row.IMPL_PLAN_PROFILE === 'string' && row.IMPL_PLAN_PROFILE.trim() ? row.IMPL_PLAN_PROFILE.trim() : null
    out.push({ code: a.code, name: nameOf(row, a.code), exDate: a.exDate, recordDate: optDate(row, 'EQUITY_RECORD_DATE'), cash: a.cash, bonus: a.bonus, plan })
  }
  return { events: out.sort((a, b) => (a.exDate !== b.exDate ? (a.exDate < b.exDate ? -1 : 1) : a.code < b.code ? -1 : 1)), more }
}

const LOCKUP_REPORT = 'RPT_LIFT_STAGE'

/** One batch of restricted shares becoming tradable. */
export interface LockupEvent {
  code: string
  name: string
  freeDate: string
  /** Shares freed. */
  shares: number
  /** CNY, at the close before the free date (the latest close for batches ahead); null when absent. */
  marketValue: number | null
  /** Percent of the float before the release; null when absent. */
  floatRatio: number | null
  /** The kind of restricted shares, e.g. 首发原股东限售股份. */
  kind: string | null
}

/** Our code of a lock-up row: `SECUCODE` when given, else the A-share range of `SECURITY_CODE`. */
function lockupCode(row: JsonObject): string {
  if (row.SECUCODE !== undefined && row.SECUCODE !== null) return codeOf(row)
  const s = typeof row.SECURITY_CODE === 'string' ? row.SECURITY_CODE : ''
  const prefix = /^6/.test(s) ? 'sh' : /^[03]/.test(s) ? 'sz' : /^(4|8|92)/.test(s) ? 'bj' : null
  if (!prefix || !/^\d{6}$/.test(s)) throw malformed(CHANNEL, `lock-up row has no A-share SECURITY_CODE: ${JSON.stringify(row.SECURITY_CODE)}`)
  return prefix + s
}

/**
 * One lock-up row. The real rows (test/fixtures/eastmoney/lift-stage-rows-2026-07-28.json,
 * SOURCE.md) give the shares in 10,000 shares (万股) and `LIFT_MARKET_CAP` in 10,000 CNY (万元);
 * they are handed out in shares and CNY. The ratios are fractions. `TOTAL_RATIO` cannot exceed 1
 * and `FREE_RATIO` (of the float) cannot be below it: a row breaking either is in another unit,
 * and is refused rather than scaled by guess. When the row carries them, freed × `NEW` must make
 * `LIFT_MARKET_CAP` (both in 万) and (`FREE_SHARES` + `NON_FREE_SHARES`) × `TOTAL_RATIO` the freed
 * shares, as on the real rows; a row that does not add up is refused.
 */
export function toLockup(row: JsonObject): LockupEvent {
  const code = lockupCode(row)
  const freeDate = optDate(row, 'FREE_DATE')
  if (!freeDate) throw malformed(CHANNEL, `lock-up row of ${code} has no FREE_DATE`)
  const at = (col: string) => `${col} of ${code} on ${freeDate}`
  const wanShares = optNum(CHANNEL, row.CURRENT_FREE_SHARES, at('CURRENT_FREE_SHARES')) ?? optNum(CHANNEL, row.ABLE_FREE_SHARES, at('ABLE_FREE_SHARES'))
  if (wanShares === null || wanShares <= 0) throw malformed(CHANNEL, `${at('CURRENT_FREE_SHARES')} is not a positive number`)
  const wanValue = optNum(CHANNEL, row.LIFT_MARKET_CAP, at('LIFT_MARKET_CAP'))
  if (wanValue !== null && wanValue < 0) throw malformed(CHANNEL, `${at('LIFT_MARKET_CAP')} is negative`)
  const ratio = optNum(CHANNEL, row.FREE_RATIO, at('FREE_RATIO'))
  if (ratio !== null && ratio < 0) throw malformed(CHANNEL, `${at('FREE_RATIO')} is negative`)
  // A release may exceed the float (ratio above 1), never the total: TOTAL_RATIO tells the unit.
  const ofTotal = optNum(CHANNEL, row.TOTAL_RATIO, at('TOTAL_RATIO'))
  if (ofTotal !== null && (ofTotal < 0 || ofTotal > 1)) throw malformed(CHANNEL, `${at('TOTAL_RATIO')} ${ofTotal} is not a fraction of the total`)
  if (ofTotal !== null && ratio !== null && ratio < ofTotal * 0.999) throw malformed(CHANNEL, `${at('FREE_RATIO')} ${ratio} is below its share of the total ${ofTotal}`)
  const price = optNum(CHANNEL, row.NEW, at('NEW'))
  if (price !== null && price > 0 && wanValue !== null && Math.abs(wanShares * price - wanValue) > Math.max(0.01, wanValue * 1e-6)) {
    throw malformed(CHANNEL, `${at('LIFT_MARKET_CAP')} ${wanValue} is not CURRENT_FREE_SHARES ${wanShares} × NEW ${price}`)
  }
  const floating = optNum(CHANNEL, row.FREE_SHARES, at('FREE_SHARES'))
  const restricted = optNum(CHANNEL, row.NON_FREE_SHARES, at('NON_FREE_SHARES'))
  if (floating !== null && restricted !== null && ofTotal !== null && Math.abs((floating + restricted) * ofTotal - wanShares) > Math.max(0.01, wanShares * 1e-4)) {
    throw malformed(CHANNEL, `${at('TOTAL_RATIO')} ${ofTotal} of FREE_SHARES + NON_FREE_SHARES is not CURRENT_FREE_SHARES ${wanShares}`)
  }
  const kind = typeof row.FREE_SHARES_TYPE === 'string' && row.FREE_SHARES_TYPE.trim() ? row.FREE_SHARES_TYPE.trim() : null
  return {
    code,
    name: nameOf(row, code),
    freeDate,
    shares: Math.round(wanShares * 10_000),
    marketValue: wanValue === null ? null : Math.round(wanValue * 1_000_000) / 100,
    floatRatio: ratio === null ? null : Math.round(ratio * 1e6) / 1e4,
    kind,
  }
}

/** Lock-up expiries with a free date in [from, to], by date then code. */
export async function fetchLockupsBetween(ctx: ChannelContext, from: string, to: string, limit: number): Promise<Section<LockupEvent>> {
  const filter = `(FREE_DATE>='${from}')(FREE_DATE<='${to}')`
  const { rows, more } = await onePage(ctx, datacenterUrl({ report: LOCKUP_REPORT, filter, sortColumns: 'FREE_DATE,CURRENT_FREE_SHARES', sortTypes: '1,1', page: 1, pageSize: limit }))
  const out = rows.map(toLockup)
  for (const e of out) if (e.freeDate < from || e.freeDate > to) throw malformed(CHANNEL, `lock-up row ${e.code} ${e.freeDate} is outside ${from}..${to}`)
  return { events: out.sort((a, b) => (a.freeDate !== b.freeDate ? (a.freeDate < b.freeDate ? -1 : 1) : a.code < b.code ? -1 : a.code > b.code ? 1 : 0)), more }
}

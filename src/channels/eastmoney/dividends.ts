/**
 * Corporate actions (cash dividends, bonus and transfer shares) from the datacenter report
 * `RPT_SHAREBONUS_DET` (upstreams.md §5.2), per stock or per ex-date. Values come per 10 shares;
 * we hand them out per share.
 */
import { isValidDate } from '../../domain/dates'
import { malformed, unsupported } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

/** One ex-date of one stock. */
export interface CorporateAction {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  /** `YYYY-MM-DD`. */
  exDate: string
  /** CNY per share, pre-tax. */
  cash: number
  /** Bonus plus transfer shares per share (10送3转2 → 0.5). */
  bonus: number
}

/** Every action of one stock (canonical code), or every stock's actions on one ex-date. */
export type ActionQuery = { code: string } | { exDate: string }

export const DIVIDEND_REPORT = 'RPT_SHAREBONUS_DET'

/** The report's columns, by meaning. */
export const DIVIDEND_COLUMNS = {
  /** `600519.SH`: the only column naming the exchange. */
  secucode: 'SECUCODE',
  code: 'SECURITY_CODE',
  /** `YYYY-MM-DD 00:00:00`; null until the plan is implemented. */
  exDate: 'EX_DIVIDEND_DATE',
  /** CNY per 10 shares, pre-tax; null when none. */
  cashPer10: 'PRETAX_BONUS_RMB',
  /** Bonus + transfer shares per 10; null when none. */
  sharesPer10: 'BONUS_IT_RATIO',
  /** Its two parts, read only when the sum is missing. */
  bonusPer10: 'BONUS_RATIO',
  transferPer10: 'IT_RATIO',
} as const
const C = DIVIDEND_COLUMNS

const SUFFIX_PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }
const A_SHARE_CODE = /^(sh|sz|bj)(\d{6})$/
/** A datacenter date column: `YYYY-MM-DD`, usually with ` 00:00:00`. */
export const EX_DATE = /^(\d{4}-\d{2}-\d{2})( 00:00:00)?$/
/** Per-share values keep this many decimals: enough for any per-10 figure Eastmoney prints, and no float noise from ÷10. */
const DECIMALS = 8

export const perShare = (per10: number) => Math.round((per10 / 10) * 10 ** DECIMALS) / 10 ** DECIMALS

/** The report filter for a query: `(SECURITY_CODE="600519")` or `(EX_DIVIDEND_DATE='2025-06-20')`. */
function dividendFilter(query: ActionQuery): string {
  if ('code' in query) {
    const m = A_SHARE_CODE.exec(query.code)
    if (!m) throw unsupported(CHANNEL, `corporate actions are for sh/sz/bj stocks, not ${query.code}`)
    return `(${C.code}="${m[2]}")`
  }
  if (!isValidDate(query.exDate)) throw unsupported(CHANNEL, `not a YYYY-MM-DD date: ${query.exDate}`)
  return `(${C.exDate}='${query.exDate}')`
}

/** The URL of one page of a query, newest ex-date first. */
export function dividendsUrl(query: ActionQuery, page: number): string {
  return datacenterUrl({ report: DIVIDEND_REPORT, filter: dividendFilter(query), sortColumns: C.exDate, sortTypes: '-1', page })
}

function canonicalCode(row: JsonObject): string {
  const secu = row[C.secucode]
  const m = typeof secu === 'string' ? /^(\d{6})\.(SH|SZ|BJ)$/.exec(secu) : null
  if (!m) throw malformed(CHANNEL, `${C.secucode} is not a code.SH|SZ|BJ: ${JSON.stringify(secu)}`)
  const code = row[C.code]
  if (code !== undefined && code !== null && String(code) !== m[1]) throw malformed(CHANNEL, `${C.code} ${JSON.stringify(code)} disagrees with ${secu}`)
  return SUFFIX_PREFIX[m[2]] + m[1]
}

/**
 * One report row as an action; null for a plan with no ex-date yet, or one that distributes
 * nothing. Anything unreadable is `malformed`.
 */
export function toAction(row: JsonObject): CorporateAction | null {
  const raw = row[C.exDate]
  if (raw === null || raw === undefined || raw === '') return null
  const code = canonicalCode(row)
  const m = typeof raw === 'string' ? EX_DATE.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${C.exDate} of ${code} is not a date: ${JSON.stringify(raw)}`)
  const at = (col: string) => `${col} of ${code} on ${m[1]}`
  const cash = optNum(CHANNEL, row[C.cashPer10], at(C.cashPer10)) ?? 0
  const shares =
    optNum(CHANNEL, row[C.sharesPer10], at(C.sharesPer10)) ??
    (optNum(CHANNEL, row[C.bonusPer10], at(C.bonusPer10)) ?? 0) + (optNum(CHANNEL, row[C.transferPer10], at(C.transferPer10)) ?? 0)
  if (cash < 0 || shares < 0) throw malformed(CHANNEL, `negative distribution for ${code} on ${m[1]}`)
  if (cash === 0 && shares === 0) return null
  return { code, exDate: m[1], cash: perShare(cash), bonus: perShare(shares) }
}

/**
 * Implemented corporate actions for one stock or one ex-date, ascending by ex-date (then code).
 * Plans without an ex-date are skipped; no rows (code 9201) is []. A row that does not answer
 * the query (another stock, another date) is `malformed`. Two distinct rows of one stock on one
 * ex-date (e.g. a special and a regular dividend) are summed; an exact repeat is kept once.
 */
export async function fetchCorporateActions(ctx: ChannelContext, query: ActionQuery): Promise<CorporateAction[]> {
  dividendFilter(query) // refuse a bad query before calling out
  const rows = await fetchDatacenterRows(ctx, (page) => dividendsUrl(query, page))
  const byKey = new Map<string, CorporateAction>()
  const seen = new Set<string>()
  for (const row of rows) {
    const a = toAction(row)
    if (!a) continue
    if ('code' in query ? a.code !== query.code : a.exDate !== query.exDate) {
      throw malformed(CHANNEL, `dividend row ${a.code} ${a.exDate} does not answer ${JSON.stringify(query)}`)
    }
    const exact = `${a.code}|${a.exDate}|${a.cash}|${a.bonus}`
    if (seen.has(exact)) continue
    seen.add(exact)
    const key = `${a.code}|${a.exDate}`
    const prev = byKey.get(key)
    byKey.set(key, prev ? { ...prev, cash: perShare((prev.cash + a.cash) * 10), bonus: perShare((prev.bonus + a.bonus) * 10) } : a)
  }
  return [...byKey.values()].sort((a, b) => (a.exDate !== b.exDate ? (a.exDate < b.exDate ? -1 : 1) : a.code < b.code ? -1 : 1))
}

/**
 * New-share subscriptions from the datacenter report `RPTA_APP_IPOAPPLY` (upstreams.md §5.8):
 * Shanghai and Shenzhen IPOs with their subscription, allotment, payment and listing dates, the
 * issue price and sizes. Issue sizes come in 10,000 shares (万股), the subscription cap in shares
 * (as recorded answers in public client tests show); we hand all of them out in shares.
 */
import { isValidDate } from '../../domain/dates'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, fetchDatacenterRows } from './datacenter'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const IPO_REPORT = 'RPTA_APP_IPOAPPLY'

/** One IPO, in our units. Dates `YYYY-MM-DD`; null where the upstream has no value yet. */
export interface Ipo {
  code: string
  name: string
  /** The code investors subscribe with (Shanghai: 732xxx / 787xxx). */
  subscriptionCode: string | null
  /** 沪市主板, 科创板, 深市主板, 创业板 as the upstream names the board. */
  board: string | null
  /** CNY per share; null until priced. */
  issuePrice: number | null
  issuePe: number | null
  /** Shares. */
  issueShares: number | null
  onlineShares: number | null
  subscriptionLimit: number | null
  subscriptionDate: string
  allotmentDate: string | null
  paymentDate: string | null
  listingDate: string | null
  /** Percent. */
  winningRate: number | null
  /** CNY; null before the first close. */
  firstOpen: number | null
  firstClose: number | null
}

/** Exchange of `TRADE_MARKET_CODE` (069001001… Shanghai, 069001002… Shenzhen). */
function prefixOf(marketCode: unknown): 'sh' | 'sz' | undefined {
  if (typeof marketCode !== 'string') return undefined
  if (marketCode.startsWith('069001001')) return 'sh'
  if (marketCode.startsWith('069001002')) return 'sz'
  return undefined
}

const DATE = /^(\d{4}-\d{2}-\d{2})( 00:00:00)?$/

function optDate(row: JsonObject, col: string, code: string): string | null {
  const raw = row[col]
  if (raw === null || raw === undefined || raw === '' || raw === '-') return null
  const m = typeof raw === 'string' ? DATE.exec(raw) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `${col} of ${code} is not a date: ${JSON.stringify(raw)}`)
  return m[1]
}

const optText = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)
const shares = (wan: number | null) => (wan === null ? null : Math.round(wan * 1e4))

/**
 * One report row as an IPO; null for a listing outside Shanghai and Shenzhen. A row without a
 * code, a name or a subscription date, or with dates out of order, is `malformed`.
 */
export function toIpo(row: JsonObject): Ipo | null {
  const symbol = row.SECURITY_CODE
  if (typeof symbol !== 'string' || !/^\d{6}$/.test(symbol)) throw malformed(CHANNEL, `IPO row has no six-digit SECURITY_CODE: ${JSON.stringify(symbol)}`)
  const prefix = prefixOf(row.TRADE_MARKET_CODE)
  if (!prefix) return null
  let code: string
  try {
    const inst = parseSymbol(prefix + symbol)
    if (inst.kind !== 'stock') throw malformed(CHANNEL, `IPO row ${prefix}${symbol} is not a stock code`)
    code = inst.code
  } catch (e) {
    if (e instanceof SymbolError) throw malformed(CHANNEL, `IPO row ${prefix}${symbol}: ${e.message}`)
    throw e
  }
  const name = optText(row.SECURITY_NAME)
  if (!name) throw malformed(CHANNEL, `IPO row ${code} has no SECURITY_NAME`)
  const subscriptionDate = optDate(row, 'APPLY_DATE', code)
  if (!subscriptionDate) throw malformed(CHANNEL, `IPO row ${code} has no APPLY_DATE`)
  const n = (col: string) => {
    const v = optNum(CHANNEL, row[col], `${col} of ${code}`)
    if (v !== null && v < 0) throw malformed(CHANNEL, `${col} of ${code} is negative: ${v}`)
    return v
  }
  const ipo: Ipo = {
    code,
    name,
    subscriptionCode: optText(row.APPLY_CODE),
    board: optText(row.MARKET_TYPE),
    issuePrice: n('ISSUE_PRICE'),
    issuePe: n('AFTER_ISSUE_PE'),
    issueShares: shares(n('ISSUE_NUM')),
    onlineShares: shares(n('ONLINE_ISSUE_NUM')),
    subscriptionLimit: n('ONLINE_APPLY_UPPER'),
    subscriptionDate,
    allotmentDate: optDate(row, 'BALLOT_NUM_DATE', code),
    paymentDate: optDate(row, 'BALLOT_PAY_DATE', code),
    listingDate: optDate(row, 'LISTING_DATE', code),
    winningRate: n('ONLINE_ISSUE_LWR'),
    firstOpen: n('OPEN_PRICE'),
    firstClose: n('CLOSE_PRICE'),
  }
  for (const later of [ipo.allotmentDate, ipo.paymentDate, ipo.listingDate]) {
    if (later !== null && later < subscriptionDate) throw malformed(CHANNEL, `IPO ${code}: a date ${later} precedes subscription ${subscriptionDate}`)
  }
  if (ipo.winningRate !== null && ipo.winningRate > 100) throw malformed(CHANNEL, `IPO ${code}: winning rate ${ipo.winningRate}% is above 100`)
  if (ipo.issueShares !== null && ipo.onlineShares !== null && ipo.onlineShares > ipo.issueShares) {
    throw malformed(CHANNEL, `IPO ${code}: online tranche ${ipo.onlineShares} exceeds the issue ${ipo.issueShares}`)
  }
  return ipo
}

/** The report URL: subscriptions on or after `from`, newest first. */
export function ipoUrl(from: string, page: number): string {
  return datacenterUrl({ report: IPO_REPORT, filter: `(APPLY_DATE>='${from}')`, sortColumns: 'APPLY_DATE,SECURITY_CODE', sortTypes: '-1,-1', page })
}

/** IPOs subscribed on or after `from`, ascending by subscription date then code; none is []. */
export async function fetchIpos(ctx: ChannelContext, from: string): Promise<Ipo[]> {
  if (!isValidDate(from)) throw malformed(CHANNEL, `not a date: ${from}`)
  const rows = await fetchDatacenterRows(ctx, (page) => ipoUrl(from, page))
  const out = new Map<string, Ipo>()
  for (const row of rows) {
    const ipo = toIpo(row)
    if (!ipo) continue
    if (ipo.subscriptionDate < from) throw malformed(CHANNEL, `IPO ${ipo.code} subscribed ${ipo.subscriptionDate}, before the ${from} asked for`)
    out.set(ipo.code, ipo)
  }
  return [...out.values()].sort((a, b) => (a.subscriptionDate !== b.subscriptionDate ? (a.subscriptionDate < b.subscriptionDate ? -1 : 1) : a.code < b.code ? -1 : 1))
}

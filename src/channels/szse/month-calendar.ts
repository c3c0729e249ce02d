/**
 * The Shenzhen Stock Exchange's month calendar, the upstream of the trading-calendar refresh
 * (research/upstreams.md section 5.13): `GET …/monthList?month=2025-1` answers
 * `{"data":[{"jyrq":"2025-01-02","jybz":"1","zrxh":5},…]}` with `jyrq` the date, `jybz` "1" for a
 * trading day and "0" for a closed one, `zrxh` the weekday (Sunday = 1), every calendar day of the
 * month, and beside `data` a `nowdate` (the server's date, not read here): a captured answer,
 * test/fixtures/szse/. A month not yet published answers an empty `data`. SSE and SZSE share one
 * calendar.
 *
 * Wrong data is worse than none: a month is accepted only when it adds up (every weekday of the
 * month present once, no weekend trading, a plausible number of sessions), and a year only when
 * all twelve months do and its statutory holidays are closed.
 */
import { datesOfMonth, isValidDate, weekday } from '../../domain/dates'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'

const SZSE_MONTH_URL = 'http://www.szse.cn/api/report/exchange/onepersistenthour/monthList'

/** The month URL; SZSE writes the month without a leading zero (`2025-1`). */
export const szseMonthUrl = (year: number, month: number) => `${SZSE_MONTH_URL}?month=${year}-${month}`

/** What one month's answer says. */
export type MonthOutcome =
  | { status: 'ok'; closed: string[]; sessions: number }
  | { status: 'unpublished' }
  | { status: 'invalid'; reason: string }

/** Fewer sessions than this in a month means the answer is wrong (the lowest real months have about 15). */
const MIN_SESSIONS = 10

const pad = (n: number) => String(n).padStart(2, '0')

const isWeekend = (d: string) => weekday(d) === 0 || weekday(d) === 6

/** Reads and checks one month's answer: its closed weekdays, or why it cannot be used. */
export function parseSzseMonth(json: unknown, year: number, month: number): MonthOutcome {
  const data = (json as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return { status: 'invalid', reason: 'no data array' }
  if (data.length === 0) return { status: 'unpublished' }
  const prefix = `${year}-${pad(month)}-`
  const open = new Map<string, boolean>()
  for (const item of data) {
    const { jyrq, jybz, zrxh } = (item ?? {}) as Record<string, unknown>
    if (typeof jyrq !== 'string' || !isValidDate(jyrq) || !jyrq.startsWith(prefix)) return { status: 'invalid', reason: `date ${JSON.stringify(jyrq)} is not in ${year}-${month}` }
    if (open.has(jyrq)) return { status: 'invalid', reason: `${jyrq} listed twice` }
    const flag = String(jybz)
    if (flag !== '0' && flag !== '1') return { status: 'invalid', reason: `${jyrq}: jybz ${JSON.stringify(jybz)} is neither 0 nor 1` }
    if (zrxh !== undefined && Number(zrxh) !== weekday(jyrq) + 1) return { status: 'invalid', reason: `${jyrq}: zrxh ${JSON.stringify(zrxh)} is not its weekday` }
    if (flag === '1' && isWeekend(jyrq)) return { status: 'invalid', reason: `${jyrq} is a weekend day marked as trading` }
    open.set(jyrq, flag === '1')
  }
  const closed: string[] = []
  let sessions = 0
  for (const d of datesOfMonth(year, month)) {
    if (isWeekend(d)) continue
    const o = open.get(d)
    if (o === undefined) return { status: 'invalid', reason: `weekday ${d} missing` }
    if (o) sessions++
    else closed.push(d)
  }
  if (sessions < MIN_SESSIONS) return { status: 'invalid', reason: `only ${sessions} sessions in ${year}-${month}` }
  return { status: 'ok', closed, sessions }
}

/**
 * Checks a whole year assembled from twelve good months. 1 January and 1 October are statutory
 * holidays every year, and every real year closes on 16–20 weekdays: a year that trades on them, or
 * closes on far fewer or more days, is a placeholder or a broken answer, not a holiday notice.
 */
export function checkYear(year: number, closed: readonly string[]): string | undefined {
  for (const md of ['01-01', '10-01']) {
    const d = `${year}-${md}`
    if (!isWeekend(d) && !closed.includes(d)) return `${d} is a statutory holiday but is marked as trading`
  }
  if (closed.length < 8 || closed.length > 30) return `${closed.length} closed weekdays is implausible for a year`
  return undefined
}

/** Fetches and checks one month. Network and HTTP failures throw a ChannelError. */
export async function fetchSzseMonth(ctx: ChannelContext, year: number, month: number): Promise<MonthOutcome> {
  const text = await fetchText(ctx, 'szse', szseMonthUrl(year, month), {
    headers: { Accept: 'application/json', Referer: 'http://www.szse.cn/aboutus/calendar/' },
  })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { status: 'invalid', reason: 'not JSON' }
  }
  return parseSzseMonth(json, year, month)
}

/**
 * SZSE's month calendar as the emulator answers it
 * (`GET www.szse.cn/api/report/exchange/onepersistenthour/monthList?month=2025-1`): every day of
 * the month as `{jyrq, jybz, zrxh}` from the bundled holidays (2016–2026) plus an invented 2027,
 * so the refresh job has a year to learn that the code does not already know. Other years answer
 * `{"data":[]}`, as SZSE does for a month it has not published. Either way with `nowdate`, the
 * day asked (test/fixtures/szse).
 */
import { SSE_HOLIDAYS } from '../../data/holidays'
import { beijing, datesOfMonth, weekday } from '../../domain/dates'
import { jsonResponse, notFound, textResponse } from './respond'

const MONTH_LIST_PATH = '/api/report/exchange/onepersistenthour/monthList'

/**
 * A made-up but plausible 2027 (not the real notice, which was not out when this was written):
 * New Year, Spring Festival week (New Year's Day of the lunar calendar is Saturday 6 February),
 * Qingming, Labour Day, Dragon Boat, Mid-Autumn and National Day, weekdays only.
 */
export const INVENTED_2027: readonly string[] = [
  '2027-01-01',
  '2027-02-05', '2027-02-08', '2027-02-09', '2027-02-10', '2027-02-11', '2027-02-12',
  '2027-04-05',
  '2027-05-03', '2027-05-04', '2027-05-05',
  '2027-06-09',
  '2027-09-15',
  '2027-10-01', '2027-10-04', '2027-10-05', '2027-10-06', '2027-10-07',
]

/** Closed weekdays per year the emulated SZSE has published. */
const PUBLISHED: Record<number, ReadonlySet<string>> = Object.fromEntries(
  [...Object.entries(SSE_HOLIDAYS), ['2027', INVENTED_2027] as const].map(([y, dates]) => [Number(y), new Set(dates)])
)

/** One month as SZSE lists it: every calendar day, weekends closed. */
function monthList(year: number, month: number): Array<{ jyrq: string; jybz: string; zrxh: number }> {
  const closed = PUBLISHED[year]
  if (!closed) return []
  return datesOfMonth(year, month).map((d) => {
    const w = weekday(d)
    return { jyrq: d, jybz: w === 0 || w === 6 || closed.has(d) ? '0' : '1', zrxh: w + 1 }
  })
}

/** Answers one www.szse.cn request at `now`; SZSE stamps every month with the day it was asked (`nowdate`). */
export function handleSzse(url: URL, now: number): Response {
  if (url.pathname !== MONTH_LIST_PATH) return notFound()
  const m = /^(\d{4})-(\d{1,2})$/.exec(url.searchParams.get('month') ?? '')
  if (!m || +m[2] < 1 || +m[2] > 12) return textResponse('{"code":"400","message":"month must be YYYY-M"}', 'application/json;charset=UTF-8', 400)
  return jsonResponse({ data: monthList(+m[1], +m[2]), nowdate: beijing(now).date }, 'application/json;charset=UTF-8')
}

/**
 * `push2ex.eastmoney.com/getTopicZDFenBu` (涨跌分布, upstreams.md §4.4) as the emulator answers it:
 * `{"rc":0,…,"data":{"qdate":YYYYMMDD,"fenbu":[{"-1":n},{"-10":n},…,{"9":n}]}}`, one single-key object
 * per bucket from -11 to 11, for `date=YYYYMMDD` (absent: the clock's Beijing date). Only sessions that
 * have closed are answered; a closed day, a future day or today before 15:00 get `data: null`.
 */
import { beijing } from '../../domain/dates'
import { upDownDistribution } from '../market/breadth'
import { isSessionDay } from '../market/calendars'
import type { MarketModel } from '../market/types'
import { envelope } from './push2-envelope'
import { jsonResponse, notFound } from './respond'

export const PUSH2EX_HOST = 'push2ex.eastmoney.com'
const FENBU_PATH = '/getTopicZDFenBu'
/** Minute of the Beijing day after which today's distribution is final. */
const CLOSE_MINUTE = 15 * 60

export function handlePush2ex(url: URL, market: MarketModel, now: number): Response {
  if (url.pathname !== FENBU_PATH) return notFound()
  const clock = beijing(now)
  const raw = url.searchParams.get('date')
  const date = raw && /^\d{8}$/.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6)}` : clock.date
  const closed = date < clock.date || (date === clock.date && clock.minute >= CLOSE_MINUTE)
  if (!closed || !isSessionDay('cn', date)) return push2exEmpty()
  const counts = upDownDistribution(market, date, now)
  if (counts.size === 0) return push2exEmpty()
  // Buckets in the order of their keys as text ("-1", "-10", "-11", "-2" … "0", "1", "10", "11", "2" …),
  // as a real answer lists them (test/fixtures/push2/SOURCE.md).
  const keys = Array.from({ length: 23 }, (_, i) => String(i - 11)).sort()
  const fenbu = keys.map((k) => ({ [k]: counts.get(Number(k)) ?? 0 }))
  return jsonResponse(envelope(0, { qdate: Number(date.replaceAll('-', '')), fenbu }))
}

/** Nothing for that day (also the `empty` fault's answer). */
export function push2exEmpty(): Response {
  return jsonResponse(envelope(0, null))
}

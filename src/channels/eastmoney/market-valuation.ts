/**
 * Every A-share stock's valuation now, in one walk of `push2 …/api/qt/clist/get` over the
 * all-A-shares filter: PE TTM (`f115`), PB (`f23`) and total market cap (`f20`) (upstreams.md
 * §1.5, §3.1). A ratio Eastmoney does not have (`"-"`) is null; a loss-making company's PE is
 * negative, as Eastmoney prints it.
 */
import { isValidDate } from '../../domain/dates'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { isObject, readData } from './envelope'
import { fetchAllPages, type ListPage } from './list-pages'
import { A_SHARE_FS, MARKET_LIST_URL } from './market-list'
import { CHANNEL, QUOTE_FIELDS as Q } from './wire'

const VALUATION_FIELDS = { code: Q.code, market: Q.market, name: Q.name, tradeDate: Q.tradeDate, marketCap: 'f20', pb: 'f23', peTtm: 'f115' } as const
const F = VALUATION_FIELDS
const FIELD_LIST = Object.values(F).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(',')

/** Eastmoney files BJ stocks under market 0 with SZ; their codes start 4, 8 or 9. */
const BJ_CODE = /^[489]/
const MAX_TOTAL = 20_000

export interface ValuationRow {
  /** `sh600519`. */
  code: string
  name: string
  /** Trade date, `YYYY-MM-DD`. */
  date: string
  /** Total market cap, CNY; null when Eastmoney has none. */
  marketCap: number | null
  /** Price / EPS of the last four quarters; negative for a loss; null when none. */
  peTtm: number | null
  /** Price / book value per share; null when none. */
  pb: number | null
}

export function valuationListUrl(page: number): string {
  return `${MARKET_LIST_URL}?pn=${page}&pz=100&po=1&np=1&fltt=2&invt=2&fid=f12&fs=${encodeURIComponent(A_SHARE_FS)}&fields=${FIELD_LIST}`
}

function toRow(raw: unknown): ValuationRow {
  if (!isObject(raw)) throw malformed(CHANNEL, 'valuation row is not an object')
  const code = raw[F.code]
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) throw malformed(CHANNEL, `valuation row code is not six digits: ${JSON.stringify(code)}`)
  const m = raw[F.market]
  const prefix = m === 1 || m === '1' ? 'sh' : m === 0 || m === '0' ? (BJ_CODE.test(code) ? 'bj' : 'sz') : null
  if (!prefix) throw malformed(CHANNEL, `valuation row ${code} has market ${JSON.stringify(m)}`)
  const d = String(raw[F.tradeDate] ?? '')
  const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`
  if (!/^\d{8}$/.test(d) || !isValidDate(date)) throw malformed(CHANNEL, `valuation row ${code} has no trade date`)
  const marketCap = optNum(CHANNEL, raw[F.marketCap], `${F.marketCap} of ${code}`)
  if (marketCap !== null && marketCap < 0) throw malformed(CHANNEL, `negative market cap for ${code}`)
  return {
    code: prefix + code,
    name: typeof raw[F.name] === 'string' ? (raw[F.name] as string) : '',
    date,
    marketCap,
    peTtm: optNum(CHANNEL, raw[F.peTtm], `${F.peTtm} of ${code}`),
    pb: optNum(CHANNEL, raw[F.pb], `${F.pb} of ${code}`),
  }
}

export function parseValuationPage(text: string): ListPage<ValuationRow> {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const total = data.total
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > MAX_TOTAL) throw malformed(CHANNEL, `valuation list total is not a count: ${JSON.stringify(total)}`)
  const list = Array.isArray(data.diff) ? data.diff : isObject(data.diff) ? Object.values(data.diff) : null
  if (!list) throw malformed(CHANNEL, 'valuation list has no diff')
  return { total, rows: list.map(toRow) }
}

export function fetchMarketValuation(ctx: ChannelContext): Promise<ValuationRow[]> {
  return fetchAllPages(ctx, 'valuation list', valuationListUrl, parseValuationPage, (r) => r.code)
}

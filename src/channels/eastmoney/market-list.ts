/**
 * The whole A-share market in one walk of `push2 …/api/qt/clist/get` (upstreams.md §3.1): SH, SZ
 * and BJ stocks, today's bar each, paged by code. A market that does not add up is `malformed`,
 * never silently partial.
 */
import { beijing, isValidDate } from '../../domain/dates'
import { walkRest, WHOLE_MARKET_WALK, type WalkBudget } from '../page-walk'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import { isObject, readData, type JsonObject } from './envelope'
import { QUOTE_FIELDS, CHANNEL } from './wire'
import { securityName } from '../names'

/** One stock's day, as the market list gives it. */
export interface MarketRow {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  name: string
  /** Trade date `YYYY-MM-DD` from `f297`: the session the row shows (the last one outside trading hours). */
  date: string
  open: number
  high: number
  low: number
  close: number
  preClose: number
  /** Shares. */
  volume: number
  /** CNY. */
  amount: number
  /** Suspended (`"-"` prices, as captured): open, high, low, close, volume and amount are 0; preClose is the last close. */
  halted: boolean
  /** The row carries trades of its session (not suspended, and volume or an open). */
  traded: boolean
  /** Shares: total market cap `f20` ÷ the price it was valued at (close, or preClose when halted); null when absent. */
  totalShares?: number | null
  /** Shares: float market cap `f21` ÷ the same price; null when absent. */
  floatShares?: number | null
  /** Listing date `YYYY-MM-DD` from `f26`; null when absent. */
  listDate?: string | null
  /** Turnover rate `f8`, percent of float shares, 2 decimals; null when halted or absent (the history store keeps it for the chip). */
  turnover?: number | null
}

export const MARKET_LIST_URL = 'https://push2.eastmoney.com/api/qt/clist/get'

/** Every A-share stock: SZ main, ChiNext, SH main, STAR, BJ. */
export const A_SHARE_FS = 'm:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048'

/**
 * List-namespace ids we ask for, by meaning (fltt=2: plain numbers, `"-"` when none): the same
 * namespace as `ulist.np`, so they come from its one table in ./wire.
 */
const Q = QUOTE_FIELDS
const MARKET_FIELDS = {
  close: Q.last, volume: Q.volume, amount: Q.amount, code: Q.code, market: Q.market, name: Q.name,
  high: Q.high, low: Q.low, open: Q.open, preClose: Q.preClose, time: Q.time, tradeDate: Q.tradeDate, turnover: Q.turnover,
  totalCap: 'f20', floatCap: 'f21', listDate: 'f26',
} as const
const F = MARKET_FIELDS

const FIELD_LIST = Object.values(F)
  .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
  .join(',')

/** Rows asked per page. */
const MARKET_PAGE_SIZE = 100
/** A total beyond this is not the A-share market (about 5,500 stocks): refuse rather than walk it. */
const MAX_TOTAL = 20_000

/** Eastmoney files BJ stocks under market 0 with SZ; their codes start 4, 8 or 9, SZ stocks' 0 or 3. */
const BJ_CODE = /^[489]/
/** Shares per `f5` unit: lots of 100. */
const LOT = 100

/** The `clist/get` URL of one page, sorted by code (`fid=f12`, `po=1`: descending) so paging is stable. */
export function marketListUrl(page: number, pageSize = MARKET_PAGE_SIZE): string {
  return (
    `${MARKET_LIST_URL}?pn=${page}&pz=${pageSize}&po=1&np=1&fltt=2&invt=2&fid=f12` +
    `&fs=${encodeURIComponent(A_SHARE_FS)}&fields=${FIELD_LIST}`
  )
}

/** One parsed page: the `total` it claims (0 for `data: null`) and its checked rows in wire order. */
export interface MarketPage {
  total: number
  rows: MarketRow[]
}

/**
 * Parses one `clist/get` page. `data: null` (nothing matched, or past the end) is a page with
 * total 0 and no rows. Rows are read by key (`diff` as array or as `np=2` object); any row that does
 * not add up is `malformed`.
 */
export function parseMarketPage(text: string): MarketPage {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const total = data.total
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0) throw malformed(CHANNEL, `list total is not a count: ${JSON.stringify(total)}`)
  const diff = data.diff
  const list = Array.isArray(diff) ? diff : isObject(diff) ? Object.values(diff) : null
  if (!list) throw malformed(CHANNEL, 'list data has no diff')
  return { total, rows: list.map(toRow) }
}

export function canonicalCode(row: JsonObject): string {
  const market = row[F.market]
  const code = row[F.code]
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) throw malformed(CHANNEL, `list row code is not six digits: ${JSON.stringify(code)}`)
  if (market === 1 || market === '1') return 'sh' + code
  if (market === 0 || market === '0') return (BJ_CODE.test(code) ? 'bj' : 'sz') + code
  throw malformed(CHANNEL, `list row ${code} has market ${JSON.stringify(market)}, not an A-share exchange`)
}

/**
 * Trade date from `f297` (`YYYYMMDD`), else the date of `f124` (Unix seconds) on the exchange's
 * clock `dateOf` (Beijing by default; the HK and US lists pass theirs).
 */
export function tradeDate(row: JsonObject, code: string, dateOf: (seconds: number) => string = (s) => beijing(s * 1000).date): string {
  const raw = row[F.tradeDate]
  if (raw !== undefined && raw !== null && raw !== '-' && raw !== 0) {
    const d = String(raw)
    const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`
    if (!/^\d{8}$/.test(d) || !isValidDate(date)) throw malformed(CHANNEL, `${F.tradeDate} of ${code} is not a YYYYMMDD date: ${JSON.stringify(raw)}`)
    return date
  }
  const seconds = optNum(CHANNEL, row[F.time], `${F.time} of ${code}`)
  if (seconds === null || seconds <= 0 || seconds > 4_102_444_800) throw malformed(CHANNEL, `no trade date for ${code}`)
  return dateOf(seconds)
}

function toRow(raw: unknown): MarketRow {
  if (!isObject(raw)) throw malformed(CHANNEL, 'list row is not an object')
  const code = canonicalCode(raw)
  const field = (k: keyof typeof F) => `${F[k]} (${k}) of ${code}`
  const base = {
    code,
    name: typeof raw[F.name] === 'string' ? securityName(raw[F.name] as string) : '',
    date: tradeDate(raw, code),
    // A stock that has never traded (listing day, before the first trade) may have no previous close either.
    preClose: optNum(CHANNEL, raw[F.preClose], field('preClose')) ?? 0,
  }
  if (raw[F.close] === '-') return check({ ...base, ...sharesOf(raw, code, base.preClose), open: 0, high: 0, low: 0, close: 0, volume: 0, amount: 0, halted: true, traded: false, turnover: null })
  const close = num(CHANNEL, raw[F.close], field('close'))
  // A rate that is a number but cannot be one (negative) is null for that stock only, like the share counts.
  const turnover = optNum(CHANNEL, raw[F.turnover], field('turnover'))
  // Before a session's first trade a row may carry a price with "-" for open, high, low and volume.
  const day = (k: 'open' | 'high' | 'low' | 'volume' | 'amount') => optNum(CHANNEL, raw[F[k]], field(k)) ?? 0
  const [open, high, low] = [day('open'), day('high'), day('low')]
  const volume = Math.round(day('volume') * LOT)
  return check({
    turnover: turnover !== null && turnover >= 0 ? turnover : null,
    ...base,
    ...sharesOf(raw, code, close),
    open,
    high,
    low,
    close,
    volume,
    amount: day('amount'),
    halted: false,
    traded: volume > 0 || (open > 0 && high > 0 && low > 0),
  })
}

/**
 * Share counts and listing date of a row. Eastmoney values both caps at one price (the last, or
 * the previous close when halted), so cap ÷ that price is the share count to the share. Text where
 * a number belongs is `malformed` (the field map moved); a value that is a number but cannot be
 * right (a cap ≤ 0, float above total, a date that is none) is null for that stock only: the
 * day's prices of the whole market do not hang on one stock's share count.
 */
function sharesOf(raw: JsonObject, code: string, price: number): Pick<MarketRow, 'totalShares' | 'floatShares' | 'listDate'> {
  const shares = (k: 'totalCap' | 'floatCap') => {
    const cap = optNum(CHANNEL, raw[F[k]], `${F[k]} (${k}) of ${code}`)
    return cap === null || cap <= 0 || price <= 0 ? null : Math.round(cap / price)
  }
  let totalShares = shares('totalCap')
  let floatShares = shares('floatCap')
  if (totalShares !== null && floatShares !== null && floatShares > totalShares * (1 + 1e-6)) totalShares = floatShares = null
  const rawDate = raw[F.listDate]
  let listDate: string | null = null
  if (typeof rawDate === 'number' || (typeof rawDate === 'string' && /^\d+$/.test(rawDate))) {
    const d = String(rawDate)
    const date = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`
    if (/^\d{8}$/.test(d) && isValidDate(date)) listDate = date
  } else if (rawDate !== undefined && rawDate !== null && rawDate !== '-') {
    throw malformed(CHANNEL, `${F.listDate} of ${code} is not a YYYYMMDD date: ${JSON.stringify(rawDate)}`)
  }
  return { totalShares, floatShares, listDate }
}

/** Below this many shares, odd lots rounded into `f5` can move the average price too far to check it. */
const VWAP_MIN_VOLUME = 100 * LOT
/** How far amount ÷ volume may fall outside [low, high] (lot rounding, odd lots). */
const VWAP_SLACK = 0.05

/**
 * Rejects a row that does not add up: negative numbers; for a row with trades non-positive prices,
 * high < low, open or close outside [low, high], or an average price (amount ÷ volume) outside
 * the day's range, which is what a lots/shares or 10k-CNY mix-up looks like.
 */
function check(r: MarketRow): MarketRow {
  for (const k of ['open', 'high', 'low', 'close', 'preClose', 'volume', 'amount'] as const) {
    if (!Number.isFinite(r[k]) || r[k] < 0) throw malformed(CHANNEL, `bad ${k} ${r[k]} for ${r.code}`)
  }
  if (!r.traded) return r
  if (r.low <= 0 || r.preClose <= 0) throw malformed(CHANNEL, `non-positive price for ${r.code}`)
  if (r.high < r.low) throw malformed(CHANNEL, `high ${r.high} < low ${r.low} for ${r.code}`)
  const eps = r.high * 1e-6
  if (r.open > r.high + eps || r.open < r.low - eps || r.close > r.high + eps || r.close < r.low - eps) {
    throw malformed(CHANNEL, `open/close outside [low, high] for ${r.code}`)
  }
  if (r.volume >= VWAP_MIN_VOLUME) {
    const vwap = r.amount / r.volume
    if (vwap < r.low * (1 - VWAP_SLACK) || vwap > r.high * (1 + VWAP_SLACK)) throw malformed(CHANNEL, `amount/volume ${vwap} outside [${r.low}, ${r.high}] for ${r.code}`)
  } else if (r.volume === 0 && r.amount > 0) {
    throw malformed(CHANNEL, `amount without volume for ${r.code}`)
  }
  return r
}

/**
 * Every A-share stock's state now (after the close: the day's bar), ascending by code. Reads
 * `total` and the server's page size from page 1, then pages 2..N, as many in flight as the walk's
 * time budget needs (src/channels/page-walk.ts: a `timeout` when even the widest walk would not
 * finish in time). Every page must claim the same total and come back full
 * (the last one with the remainder), else `malformed`; nothing at all is `empty`. Rows repeated
 * across pages are kept once (first wins).
 */
export async function fetchMarketSnapshot(ctx: ChannelContext, budget: WalkBudget = WHOLE_MARKET_WALK): Promise<MarketRow[]> {
  const startedAt = Date.now()
  const first = parseMarketPage(await fetchText(ctx, CHANNEL, marketListUrl(1)))
  const { total } = first
  if (total === 0 && first.rows.length === 0) throw empty(CHANNEL, 'market list is empty')
  if (total > MAX_TOTAL) throw malformed(CHANNEL, `market list total ${total} is implausible`)
  // The server may cap pz below what we ask; its page-1 length is the real page size.
  const size = first.rows.length
  if (size === 0 || size > total) throw malformed(CHANNEL, `market list page 1 has ${size} rows of ${total}`)
  const pages = Math.ceil(total / size)
  const rest = await walkRest(
    CHANNEL,
    Array.from({ length: pages - 1 }, (_, i) => i + 2),
    startedAt,
    async (pn) => {
      const page = parseMarketPage(await fetchText(ctx, CHANNEL, marketListUrl(pn)))
      const want = pn < pages ? size : total - (pages - 1) * size
      if (page.total === 0 && page.rows.length === 0) throw malformed(CHANNEL, `market list page ${pn} of ${pages} came back empty`)
      if (page.total !== total) throw malformed(CHANNEL, `market list total changed from ${total} to ${page.total} at page ${pn}`)
      if (page.rows.length !== want) throw malformed(CHANNEL, `market list page ${pn} has ${page.rows.length} rows, want ${want}`)
      return page.rows
    },
    budget
  )
  const byCode = new Map<string, MarketRow>()
  for (const rows of [first.rows, ...rest]) for (const r of rows) if (!byCode.has(r.code)) byCode.set(r.code, r)
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : 1))
}

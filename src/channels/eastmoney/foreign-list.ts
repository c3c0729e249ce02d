/**
 * The whole HK or US stock market in one walk of `push2 …/api/qt/clist/get` (upstreams.md §3.1,
 * field ids §1.5), for the HK and US screening tables. `fs`: HK all = `m:128 t:3,m:128 t:4,
 * m:128 t:1,m:128 t:2` (main board, GEM and the other types), US = `m:105,m:106,m:107` (NASDAQ,
 * NYSE, AMEX). Units as the list gives them with `fltt=2`: prices and amount in the listing's
 * currency (HKD, USD), volume `f5` in shares (not lots, unlike A-shares), caps `f20`/`f21` in the
 * currency, percentages in points.
 *
 * Failover: the same list from Eastmoney's mirror host (`push2delay`). No second upstream is
 * used: the one other whole-market list we know (Tencent's rank list, §3.2) is documented for
 * A-shares only (`board_code=aStock`), and we do not guess board codes.
 */
import type { Instrument } from '../../domain/instrument'
import { malformed } from '../errors'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { exchangeClock } from './clock'
import { isObject, readData, type JsonObject } from './envelope'
import { fetchAllPages, type ListPage } from './list-pages'
import { tradeDate } from './market-list'
import { MIRRORS, withMirrors } from './mirrors'
import { CHANNEL } from './wire'
import { securityName } from '../names'

export type ForeignMarket = 'hk' | 'us'

/**
 * Each market's `fs` filter and the `f13` market numbers its rows may carry: HK is filtered as
 * market 128 but its rows print 116, the market of HK secids (`116.00700`).
 */
const FOREIGN_FS: Record<ForeignMarket, { fs: string; markets: readonly number[] }> = {
  hk: { fs: 'm:128 t:3,m:128 t:4,m:128 t:1,m:128 t:2', markets: [116, 128] },
  us: { fs: 'm:105,m:106,m:107', markets: [105, 106, 107] },
}

/** List-namespace ids asked for, by meaning (fltt=2: plain numbers, `"-"` when none). */
const FOREIGN_FIELDS = {
  close: 'f2', changePct: 'f3', volume: 'f5', amount: 'f6', amplitude: 'f7', turnover: 'f8', pe: 'f9',
  code: 'f12', market: 'f13', name: 'f14', high: 'f15', low: 'f16', open: 'f17', preClose: 'f18',
  totalCap: 'f20', floatCap: 'f21', pb: 'f23', change60d: 'f24', changeYtd: 'f25', peTtm: 'f115',
  time: 'f124', tradeDate: 'f297',
} as const
const F = FOREIGN_FIELDS
const FIELD_LIST = [...new Set(Object.values(F))].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(',')

/** One HK or US stock's session as the list gives it; prices and amounts in the listing's currency. */
export interface ForeignRow {
  /** Canonical code: `hk00700`, `usAAPL`. */
  code: string
  name: string
  /** Session date `YYYY-MM-DD` in the exchange's own calendar (US Eastern for US). */
  date: string
  /** No trade this session (`"-"` prices): the price fields are null. */
  halted: boolean
  close: number | null
  preClose: number | null
  changePct: number | null
  amplitude: number | null
  /** Shares. */
  volume: number | null
  amount: number | null
  /** Percent of shares. */
  turnover: number | null
  /** Trailing P/E: `f115` when given, else `f9`; null for none (a loss-maker's is not printed). */
  pe: number | null
  pb: number | null
  /** Caps in the currency (not yet in 100 million). */
  totalCap: number | null
  floatCap: number | null
  change60d: number | null
  changeYtd: number | null
}

/** The page size we ask for; the server may answer fewer (fetchAllPages reads its real size). */
const PAGE_SIZE = 100

export function foreignListUrl(market: ForeignMarket, page: number, host: string = MIRRORS.push2[0]): string {
  return (
    `https://${host}/api/qt/clist/get?pn=${page}&pz=${PAGE_SIZE}&po=1&np=1&fltt=2&invt=2&fid=f12` +
    `&fs=${encodeURIComponent(FOREIGN_FS[market].fs)}&fields=${FIELD_LIST}`
  )
}

/** HK codes are five digits; US tickers letters and digits with `.`/`-` classes (`BRK.B`) as Eastmoney prints them. */
const CODE_RE: Record<ForeignMarket, RegExp> = { hk: /^\d{5}$/, us: /^[A-Z][A-Z0-9._-]{0,9}$/ }

/** A price or ratio field: `"-"` / absent is null, text where a number belongs is `malformed`. */
const field = (raw: JsonObject, id: string, code: string) => optNum(CHANNEL, raw[id] === '-' ? null : raw[id], `${id} of ${code}`)

/** Parses one row; a row that does not add up is `malformed` (the whole list is then refused). */
export function toForeignRow(market: ForeignMarket, raw: unknown): ForeignRow {
  if (!isObject(raw)) throw malformed(CHANNEL, 'list row is not an object')
  const symbol = raw[F.code]
  const m = Number(raw[F.market])
  if (typeof symbol !== 'string' || !CODE_RE[market].test(symbol)) throw malformed(CHANNEL, `${market} list row code ${JSON.stringify(symbol)} is not a ${market} code`)
  if (!FOREIGN_FS[market].markets.includes(m)) throw malformed(CHANNEL, `${market} list row ${symbol} has market ${JSON.stringify(raw[F.market])}`)
  const code = market + symbol
  const n = (id: string) => field(raw, id, code)
  const halted = raw[F.close] === '-' || raw[F.close] === undefined
  const close = halted ? null : n(F.close)
  const row: ForeignRow = {
    code,
    name: typeof raw[F.name] === 'string' ? securityName(raw[F.name] as string) : '',
    date: tradeDate(raw, code, (seconds) => exchangeClock({ prefix: market } as Instrument, seconds).date),
    halted,
    close,
    preClose: n(F.preClose),
    changePct: halted ? null : n(F.changePct),
    amplitude: halted ? null : n(F.amplitude),
    volume: halted ? null : n(F.volume),
    amount: halted ? null : n(F.amount),
    turnover: halted ? null : n(F.turnover),
    pe: n(F.peTtm) ?? n(F.pe),
    pb: n(F.pb),
    totalCap: n(F.totalCap),
    floatCap: n(F.floatCap),
    change60d: n(F.change60d),
    changeYtd: n(F.changeYtd),
  }
  return check(row)
}

/** How far `f3` may sit from the change recomputed from `f2` and `f18` (2-decimal rounding of both). */
const PCT_SLACK = 0.05

/** Rejects numbers that cannot be: non-positive prices, negative volume or caps, a change % that disagrees with the prices. */
function check(r: ForeignRow): ForeignRow {
  for (const k of ['close', 'preClose', 'volume', 'amount', 'totalCap', 'floatCap'] as const) {
    const v = r[k]
    if (v !== null && (!Number.isFinite(v) || v < 0)) throw malformed(CHANNEL, `bad ${k} ${v} for ${r.code}`)
  }
  if (r.close !== null && r.close <= 0) throw malformed(CHANNEL, `non-positive price for ${r.code}`)
  if (r.close !== null && r.preClose && r.changePct !== null) {
    const pct = ((r.close - r.preClose) / r.preClose) * 100
    if (Math.abs(pct - r.changePct) > PCT_SLACK + Math.abs(pct) * 1e-3) throw malformed(CHANNEL, `f3 ${r.changePct} of ${r.code} does not match f2 ${r.close} and f18 ${r.preClose}`)
  }
  return r
}

/** Parses one `clist/get` page of the market's list; `data: null` is a page with nothing. */
export function parseForeignPage(market: ForeignMarket, text: string): ListPage<ForeignRow> {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const total = data.total
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0 || total > 50_000) throw malformed(CHANNEL, `list total is not a count: ${JSON.stringify(total)}`)
  const diff = data.diff
  const list = Array.isArray(diff) ? diff : isObject(diff) ? Object.values(diff) : null
  if (!list) throw malformed(CHANNEL, 'list data has no diff')
  return { total, rows: list.map((r) => toForeignRow(market, r)) }
}

/** Every HK (or US) stock's row, ascending by code; from the mirror when the first host fails. */
export async function fetchForeignList(ctx: ChannelContext, market: ForeignMarket): Promise<ForeignRow[]> {
  const rows = await withMirrors(MIRRORS.push2, (host) =>
    fetchAllPages(ctx, `${market} market list`, (pn) => foreignListUrl(market, pn, host), (text) => parseForeignPage(market, text), (r) => r.code)
  )
  return rows.sort((a, b) => (a.code < b.code ? -1 : 1))
}

/**
 * One instrument from Eastmoney's `push2 …/api/qt/stock/get` (upstreams.md §1.4, ids §1.6, the
 * stock/get namespace): the five-level book and the snapshot profile, with `fltt=2` (decimals).
 * `"-"` marks what does not exist: the session's prices of a suspended stock (the halt sign, as in
 * the list namespace), an empty book level, open/high/low before the day's first trade. The
 * rise speed (涨速) is not in this namespace; it comes from `ulist.np/get` field f22 (list
 * namespace, §1.5) in a second, parallel request.
 */
import { beijing } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { lineStatus } from '../../domain/market-phase'
import { bookProblem, isAuctionBook, levelOf, type Level, type OrderBook } from '../../domain/orderbook'
import { orderImbalance, securityType, type Snapshot } from '../../domain/snapshot'
import { ChannelError, empty, malformed, unsupported } from '../errors'
import { fetchLivePage } from '../live-lines'
import type { ChannelContext } from '../types'
import { num, optNum, sessionOf } from '../validate'
import { isObject, readData, type JsonObject } from './envelope'
import { secids } from './secid'
import { CHANNEL } from './wire'
import { securityName } from '../names'

const STOCK_GET_URL = 'https://push2.eastmoney.com/api/qt/stock/get'
const SPEED_URL = 'https://push2.eastmoney.com/api/qt/ulist.np/get'

/** stock/get ids by meaning (§1.6). Book levels best first: bid1 is f19/f20, ask1 f39/f40. */
const STOCK_FIELDS = {
  bids: [['f19', 'f20'], ['f17', 'f18'], ['f15', 'f16'], ['f13', 'f14'], ['f11', 'f12']],
  asks: [['f39', 'f40'], ['f37', 'f38'], ['f35', 'f36'], ['f33', 'f34'], ['f31', 'f32']],
  last: 'f43', high: 'f44', low: 'f45', open: 'f46', volume: 'f47', amount: 'f48', outer: 'f49', volumeRatio: 'f50',
  limitUp: 'f51', limitDown: 'f52', code: 'f57', name: 'f58', preClose: 'f60', avgPrice: 'f71', totalShares: 'f84',
  floatShares: 'f85', time: 'f86', totalCap: 'f116', floatCap: 'f117', inner: 'f161', peDynamic: 'f162', peStatic: 'f163',
  peTtm: 'f164', pb: 'f167', turnover: 'f168', change: 'f169', changePct: 'f170', amplitude: 'f171',
} as const

const F = STOCK_FIELDS
type Scalar = Exclude<keyof typeof F, 'bids' | 'asks'>

/** Every id above, ascending, for `fields=`. */
const STOCK_FIELD_LIST = [...F.bids.flat(), ...F.asks.flat(), ...Object.entries(F).filter(([k]) => k !== 'bids' && k !== 'asks').map(([, v]) => v as string)]
  .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
  .join(',')

export function stockGetUrl(secid: string): string {
  return `${STOCK_GET_URL}?secid=${secid}&fltt=2&invt=2&fields=${STOCK_FIELD_LIST}`
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

export interface StockGet {
  book: OrderBook
  snapshot: Snapshot
}

/**
 * Parses a stock/get answer for `inst` at `now` (the clock decides whether the line is in
 * session: src/domain/market-phase.ts); `speed` is the f22 value when it was fetched.
 */
export function parseStockGet(text: string, inst: Instrument, now: number, speed: number | null = null): StockGet {
  const data = readData(text)
  if (!data) throw empty(CHANNEL, `no stock/get data for ${inst.code}`)
  if (String(data[F.code]) !== inst.symbol) throw malformed(CHANNEL, `stock/get answered ${JSON.stringify(data[F.code])} for ${inst.code}`)
  const opt = (k: Scalar) => optNum(CHANNEL, data[F[k]], `${F[k]} (${k}) of ${inst.code}`)
  const level = (pair: readonly [string, string]): Level =>
    levelOf(optNum(CHANNEL, data[pair[0]], `${pair[0]} of ${inst.code}`), optNum(CHANNEL, data[pair[1]], `${pair[1]} of ${inst.code}`))
  const bids = F.bids.map(level)
  const asks = F.asks.map(level)
  const preClose = num(CHANNEL, data[F.preClose], `f60 (previous close) of ${inst.code}`)
  const price = opt('last')
  const [open, high, low, volume] = [opt('open'), opt('high'), opt('low'), opt('volume')]
  // Suspended: "-" for the price. Otherwise traded when the line carries the session's trades.
  const { halted, traded, last } = sessionOf({ open: open ?? 0, high: high ?? 0, low: low ?? 0, volume: volume ?? 0, preClose, last: price ?? 0, suspended: price === null })
  const auction = isAuctionBook({ bids, asks }, traded)
  const problem = bookProblem({ bids, asks }, auction)
  if (problem) throw malformed(CHANNEL, `${inst.code} book: ${problem}`)
  if (traded && high !== null && low !== null && (high < low || last > high || last < low)) throw malformed(CHANNEL, `${inst.code}: last ${last} outside [${low}, ${high}]`)
  const seconds = num(CHANNEL, data[F.time], `f86 (time) of ${inst.code}`)
  const t = beijing(seconds * 1000)
  const time = `${t.date} ${t.time}`
  const money = (k: Scalar, per: number) => {
    const v = opt(k)
    return v === null ? null : round(v / per, 2)
  }
  const [limitUp, limitDown] = [opt('limitUp'), opt('limitDown')]
  if (traded && limitUp !== null && limitDown !== null && (last > limitUp || last < limitDown)) {
    throw malformed(CHANNEL, `${inst.code}: last ${last} outside the limits [${limitDown}, ${limitUp}]`)
  }
  const snapshot: Snapshot = {
    code: inst.code,
    name: securityName(String(data[F.name] ?? '')),
    time,
    security_type: securityType(inst),
    status: lineStatus({ halted, traded, date: t.date }, auction, now),
    currency: 'CNY',
    last,
    change: opt('change') ?? 0,
    change_pct: opt('changePct') ?? 0,
    open: traded ? open : null,
    high: traded ? high : null,
    low: traded ? low : null,
    pre_close: preClose,
    avg_price: traded ? opt('avgPrice') : null,
    volume: volume ?? 0,
    amount: money('amount', 1e4),
    turnover: opt('turnover'),
    bids,
    asks,
    order_imbalance: orderImbalance(bids, asks),
    pe_ttm: opt('peTtm'),
    pe_dynamic: opt('peDynamic'),
    pe_static: opt('peStatic'),
    pb: opt('pb'),
    float_market_cap: money('floatCap', 1e8),
    total_market_cap: money('totalCap', 1e8),
    float_shares: opt('floatShares'),
    total_shares: opt('totalShares'),
    limit_up: limitUp,
    limit_down: limitDown,
    volume_ratio: opt('volumeRatio'),
    amplitude: opt('amplitude'),
    rise_speed: traded ? speed : null,
    outer_volume: opt('outer'),
    inner_volume: opt('inner'),
  }
  return { book: { code: inst.code, time, last, preClose, bids, asks, halted, traded }, snapshot }
}

/** f22 of `ulist.np/get` for one secid; null when the row lacks it. */
export function parseSpeed(text: string, secid: string): number | null {
  const data = readData(text)
  const diff = data && Array.isArray(data.diff) ? (data.diff as unknown[]) : data && isObject(data.diff) ? Object.values(data.diff) : []
  const [market, code] = secid.split('.')
  const row = diff.find((r): r is JsonObject => isObject(r) && String(r.f12) === code && String(r.f13) === market)
  return row ? optNum(CHANNEL, row.f22, `f22 of ${secid}`) : null
}

/** The stock/get view of one sh/sz/bj instrument at `now` (with the rise speed when its request succeeds). */
export async function fetchStockGet(ctx: ChannelContext, inst: Instrument, now: number, withSpeed = false): Promise<StockGet> {
  if (!['sh', 'sz', 'bj'].includes(inst.prefix)) throw unsupported(CHANNEL, `stock/get is used for sh/sz/bj codes here, not ${inst.code}`)
  const [secid] = secids(inst)
  const speed = withSpeed
    ? fetchLivePage(ctx, CHANNEL, `${SPEED_URL}?fltt=2&invt=2&fields=f12,f13,f22&secids=${secid}`, {}, inst.code)
        .then((text) => parseSpeed(text, secid))
        // The speed is one field of many: without it the snapshot says null rather than failing.
        .catch((e) => {
          if (e instanceof ChannelError) return null
          throw e
        })
    : Promise.resolve(null)
  const [text, f22] = await Promise.all([fetchLivePage(ctx, CHANNEL, stockGetUrl(secid), {}, inst.code), speed])
  return parseStockGet(text, inst, now, f22)
}

/**
 * Eastmoney `push2 …/api/qt/stock/get` (upstreams.md §1.4, field ids §1.6): one instrument's
 * quote with the five-level book, limits, valuation and share capital, in the stock/get
 * namespace (which differs from the list namespace of ulist.np/clist). Values as with `fltt=2`
 * (prices as decimals, volume in lots for sh/sz/bj, amounts and market caps in yuan). After the
 * close (nights, weekends, holidays) the last session's line with its closing book and `f292` 5
 * (fixture stock-get-sh600000-…-155951; 2 during trading). A suspended instrument prints `"-"` for
 * the session's prices and volumes, and an empty book level is `"-"`. In the opening auction
 * (**assumed**, no capture: as Tencent's line) `f43` is the indicative price, open/high/low `"-"`,
 * volume 0, bid1 = ask1 = the indicative price with the matched volume and the unmatched volume on
 * level 2 with a `"-"` price. Unknown secid: `data: null`.
 */
import { roundTo } from '../market/limits'
import { hasTraded } from '../market/quote'
import type { LiveQuote, MarketModel } from '../market/types'
import { bySecid, splitSecid } from './codes'
import { volumeUnits } from './eastmoney-fields'
import { envelope, type Value } from './push2-envelope'
import { pctOf, round } from './format'
import { quoteExtras, referenceClose } from './quote-extras'
import { jsonResponse } from './respond'
import { exchangeInstant } from './time'

export const STOCK_GET_PATH = '/api/qt/stock/get'

/** Bid levels 1..5 and ask levels 1..5 as (price id, volume id): bid1 is f19/f20, ask1 f39/f40. */
const BID_IDS = [[19, 20], [17, 18], [15, 16], [13, 14], [11, 12]] as const
const ASK_IDS = [[39, 40], [37, 38], [35, 36], [33, 34], [31, 32]] as const

/** Every stock/get field the emulator models, for one quote. */
function stockGetFields(q: LiveQuote, market: MarketModel, now: number): Record<string, Value> {
  const inst = q.instrument
  const d = inst.decimals
  const b = q.bar
  const traded = hasTraded(q)
  const off = !traded
  const pre = referenceClose(q)
  // In the auction the indicative price stands where the last price is.
  const price = traded ? b.close : q.auction?.price ?? pre
  const x = quoteExtras(market, q, now)
  const v = x.valuation
  const dash = (n: number | null): Value => (off || n === null ? '-' : n)
  const ratio = (n: number | null): Value => (n === null ? '-' : round(n, 2))
  const lots = (shares: number) => volumeUnits(inst, shares)
  const f: Record<string, Value> = {}
  /** Prints one side of the book; returns its total lots. */
  const printSide = (side: LiveQuote['book']['bids'], ids: typeof BID_IDS | typeof ASK_IDS) => {
    let total = 0
    ids.forEach(([pid, vid], k) => {
      const [p, vol] = side[k] ?? [0, 0]
      f[`f${pid}`] = p > 0 ? p : '-'
      f[`f${vid}`] = vol > 0 ? lots(vol) : '-'
      if (vol > 0) total += lots(vol)
    })
    return total
  }
  const bidLots = printSide(q.book.bids, BID_IDS)
  const askLots = printSide(q.book.asks, ASK_IDS)
  const { market: mkt, code } = splitSecid(inst.secid)
  Object.assign(f, {
    f43: q.auction ? q.auction.price : dash(b.close),
    f44: dash(b.high),
    f45: dash(b.low),
    f46: dash(b.open),
    f47: q.auction ? 0 : dash(lots(b.volume)),
    f48: q.auction ? 0 : dash(round(b.amount, 2)),
    f49: x.outer,
    f50: x.volumeRatio === null ? '-' : round(x.volumeRatio, 2),
    f51: x.limits ? x.limits[1] : '-',
    f52: x.limits ? x.limits[0] : '-',
    f57: code,
    f58: inst.name,
    f59: d,
    f60: pre,
    f71: dash(b.volume > 0 ? roundTo(b.amount / b.volume, d) : null),
    f84: inst.totalShares ?? '-',
    f85: inst.floatShares ?? '-',
    f86: Math.floor(exchangeInstant(inst, q.date, q.time) / 1000),
    f107: mkt,
    f116: inst.totalShares === null ? '-' : round(inst.totalShares * price, 2),
    f117: inst.floatShares === null ? '-' : round(inst.floatShares * price, 2),
    f161: x.inner,
    f162: ratio(v.peDynamic),
    f163: ratio(v.peStatic),
    f164: ratio(v.peTtm),
    f167: ratio(v.pb),
    f168: dash(b.turnover === null ? null : round(b.turnover, 2)),
    f169: q.auction ? round(price - pre, d) : dash(round(b.close - pre, d)),
    f170: q.auction ? round(pctOf(price - pre, pre), 2) : dash(round(pctOf(b.close - pre, pre), 2)),
    f171: dash(round(pctOf(b.high - b.low, pre), 2)),
    f191: bidLots + askLots === 0 ? '-' : round(((bidLots - askLots) / (bidLots + askLots)) * 100, 2),
    f192: bidLots - askLots,
    // 2 in trading, 5 after the close (captures); other states' value is not known.
    f292: q.state === 'trading' ? 2 : q.state === 'closed' ? 5 : '-',
  })
  return f
}

/** Answers one stock/get request with exactly the requested `fields` (`"-"` for ids not modelled). */
export function handleStockGet(params: URLSearchParams, market: MarketModel, now: number): Response {
  const inst = bySecid(market, params.get('secid') ?? '')
  if (!inst) return jsonResponse(envelope(0, null, false))
  const all = stockGetFields(market.live(inst, now, 'eastmoney'), market, now)
  const ids = (params.get('fields') ?? '').split(',').map((s) => s.trim()).filter((s) => /^f\d+$/.test(s))
  const data: Record<string, Value> = {}
  for (const id of ids.length ? ids : Object.keys(all)) data[id] = all[id] ?? '-'
  return jsonResponse(envelope(0, data, false))
}

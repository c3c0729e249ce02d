/**
 * Tencent `qt.gtimg.cn` quote records: the `~`-separated field arrays for A-shares (85 fields),
 * HK (74) and US (85), positions per src/channels/README.md and upstreams.md §1.1. Positions the
 * README does not name carry plausible derived values or the empty filler the real feed shows.
 */
import { hasTraded } from '../market/quote'
import type { LiveQuote } from '../market/types'
import { tencentVolumeUnit } from './codes'
import { fixed, pctOf } from './format'
import { NO_EXTRAS, type QuoteExtras } from './quote-extras'

const A_SHARE_FLAG: Record<string, string> = { sh: '1', sz: '51', bj: '62' }

/**
 * The session's numbers as the record shows them. Without a trade (re-stamped morning line,
 * auction, suspension) open, high, low, volume and amount are 0; the last price is the previous
 * close, or in the auction the indicative matched price (fixture qt-sz002241-auction-…).
 */
function sessionOf(q: LiveQuote) {
  const b = q.bar
  const pre = b.preClose
  if (hasTraded(q)) return { pre, last: b.close, open: b.open, high: b.high, low: b.low, volume: b.volume, amount: b.amount, turnover: b.turnover }
  return { pre, last: q.auction?.price ?? pre, open: 0, high: 0, low: 0, volume: 0, amount: 0, turnover: b.turnover === null ? null : 0 }
}

/** Field 40: `S` for a suspended stock (fixture qt-sz002731-suspended-…), empty otherwise. */
const statusFlag = (q: LiveQuote) => (q.state === 'suspended' ? 'S' : '')

const ratioField = (x: number | null) => (x === null ? '' : fixed(x, 2))

/** Five bid and five ask levels as `price~volume` pairs, volume divided by `per` (100: lots). */
function bookFields(q: LiveQuote, decimals: number, per: number): string[] {
  const out: string[] = []
  for (const side of [q.book.bids, q.book.asks]) {
    for (let k = 0; k < 5; k++) {
      const level = side[k]
      out.push(fixed(level?.[0] ?? 0, decimals), String(Math.round((level?.[1] ?? 0) / per)))
    }
  }
  return out
}

/** The A-share / ETF / index / bond record: 85 fields, volume in lots, amount (37) in 10k CNY. */
export function aShareFields(q: LiveQuote, extras: QuoteExtras): string[] {
  const i = q.instrument
  const d = i.decimals
  const p = (n: number) => fixed(n, d)
  const s = sessionOf(q)
  // Lots, or shares for a STAR stock (tencentVolumeUnit); the book stays in lots.
  const unit = tencentVolumeUnit(i)
  const lots = Math.round(s.volume / unit)
  const isStock = i.kind === 'stock'
  const v = extras.valuation
  const cap = (shares: number | null) => (shares === null ? '' : fixed((shares * s.last) / 1e8, 2))
  const book = bookFields(q, d, 100)
  const bidLots = q.book.bids.reduce((n, [, vol]) => n + Math.round(vol / 100), 0)
  const askLots = q.book.asks.reduce((n, [, vol]) => n + Math.round(vol / 100), 0)
  const type = i.kind === 'index' ? 'ZS' : i.kind === 'etf' ? 'ETF' : i.kind === 'bond' ? 'ZQ' : i.board === 'star' ? 'GP-A-KCB' : i.board === 'chinext' ? 'GP-A-CYB' : 'GP-A'
  const f: string[] = new Array(85).fill('')
  f[0] = A_SHARE_FLAG[i.prefix] ?? '1'
  f[1] = i.name
  f[2] = i.symbol
  f[3] = p(s.last)
  f[4] = p(s.pre)
  f[5] = p(s.open)
  f[6] = String(lots)
  // The extras count lots (Eastmoney's f49/f161 share them).
  f[7] = String(extras.outer * (100 / unit))
  f[8] = String(extras.inner * (100 / unit))
  f.splice(9, 20, ...book)
  f[30] = q.date.replaceAll('-', '') + q.time.replaceAll(':', '')
  f[31] = p(s.last - s.pre)
  f[32] = fixed(pctOf(s.last - s.pre, s.pre), 2)
  f[33] = p(s.high)
  f[34] = p(s.low)
  f[35] = `${p(s.last)}/${lots}/${Math.round(s.amount)}`
  f[36] = String(lots)
  f[37] = String(Math.round(s.amount / 1e4))
  f[38] = s.turnover === null ? '' : fixed(s.turnover, 2)
  f[39] = isStock ? ratioField(v.peTtm) : ''
  f[40] = statusFlag(q)
  f[41] = p(s.high)
  f[42] = p(s.low)
  f[43] = fixed(pctOf(s.high - s.low, s.pre), 2)
  f[44] = cap(i.floatShares)
  f[45] = cap(i.totalShares)
  f[46] = isStock ? ratioField(v.pb) : ''
  f[47] = extras.limits ? p(extras.limits[1]) : ''
  f[48] = extras.limits ? p(extras.limits[0]) : ''
  f[49] = extras.volumeRatio === null ? '0.00' : fixed(extras.volumeRatio, 2)
  f[50] = String(bidLots - askLots)
  f[51] = p(s.volume ? s.amount / s.volume : s.last)
  f[52] = isStock ? ratioField(v.peDynamic) : ''
  f[53] = isStock ? ratioField(v.peStatic) : ''
  f[57] = fixed(s.amount / 1e4, 3)
  f[58] = '0.0000'
  f[59] = '0'
  f[61] = type
  f[67] = p(Math.max(s.last, s.pre) * 1.2)
  f[68] = p(Math.min(s.last || s.pre, s.pre) * 0.8)
  f[72] = i.floatShares === null ? '' : String(i.floatShares)
  f[73] = i.totalShares === null ? '' : String(i.totalShares)
  f[76] = f[72]
  f[82] = 'CNY'
  f[83] = '0'
  // A suspended line carries `AE` here (the 2026 capture); the letters' meaning is not documented.
  f[84] = q.state === 'suspended' ? 'AE' : '___D__F__N'
  return f
}

/** The HK record (easyquotation's layout): 74 fields, volume in shares, amount (37) in HKD, turnover at 59. */
export function hkFields(q: LiveQuote): string[] {
  const i = q.instrument
  const p = (n: number) => fixed(n, 3)
  const s = sessionOf(q)
  const f: string[] = new Array(74).fill('0')
  f[0] = '100'
  f[1] = i.name
  f[2] = i.symbol
  f[3] = p(s.last)
  f[4] = p(s.pre)
  f[5] = p(s.open)
  f[6] = fixed(s.volume, 1)
  f.splice(9, 20, ...bookFields(q, 3, 1))
  f[29] = fixed(s.volume, 1)
  f[30] = `${q.date.replaceAll('-', '/')} ${q.time}`
  f[31] = p(s.last - s.pre)
  f[32] = fixed(pctOf(s.last - s.pre, s.pre), 2)
  f[33] = p(s.high)
  f[34] = p(s.low)
  f[35] = p(s.last)
  f[36] = fixed(s.volume, 1)
  f[37] = fixed(s.amount, 3)
  f[43] = fixed(pctOf(s.high - s.low, s.pre), 2)
  f[44] = i.floatShares === null ? '0' : fixed((i.floatShares * s.last) / 1e8, 2)
  f[45] = i.totalShares === null ? '0' : fixed((i.totalShares * s.last) / 1e8, 2)
  f[48] = p(Math.max(s.last, s.pre) * 1.2)
  f[49] = p(Math.min(s.last || s.pre, s.pre) * 0.8)
  f[59] = s.turnover === null ? '0' : fixed(s.turnover, 2)
  f[60] = '100.00'
  f[69] = i.floatShares === null ? '0' : String(i.floatShares)
  f[70] = i.totalShares === null ? '0' : String(i.totalShares)
  f[73] = p(s.volume ? s.amount / s.volume : s.last)
  return f
}

/**
 * The US record: the A-share layout for fields 0–45 with flag `200`, the listed code in 2
 * (`AAPL.OQ`, `.DJI`), time `YYYY-MM-DD HH:MM:SS` US Eastern, volume in shares, amount in USD, no turnover.
 */
export function usFields(q: LiveQuote, listedCode: string): string[] {
  const i = q.instrument
  const p = (n: number) => fixed(n, 3)
  const s = sessionOf(q)
  const f = aShareFields(q, NO_EXTRAS)
  f[0] = '200'
  f[2] = listedCode
  for (const [k, n] of [[3, s.last], [4, s.pre], [5, s.open], [33, s.high], [34, s.low], [41, s.high], [42, s.low]] as const) f[k] = p(n)
  f[6] = String(Math.round(s.volume))
  f[7] = String(Math.round(s.volume * 0.5))
  f[8] = String(Math.round(s.volume) - Math.round(s.volume * 0.5))
  f.splice(9, 20, ...bookFields(q, 3, 1))
  f[30] = `${q.date} ${q.time}`
  f[31] = p(s.last - s.pre)
  f[35] = `${p(s.last)}/${Math.round(s.volume)}/${Math.round(s.amount)}`
  f[36] = String(Math.round(s.volume))
  f[37] = String(Math.round(s.amount))
  f[38] = ''
  f[47] = ''
  f[48] = ''
  f[61] = i.kind === 'us-index' ? 'ZS' : 'GP'
  f[82] = 'USD'
  return f
}

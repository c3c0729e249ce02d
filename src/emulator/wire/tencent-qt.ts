/**
 * Tencent `qt.gtimg.cn` quote records: the `~`-separated field arrays for A-shares (88 fields),
 * HK (78) and US (71), positions per src/channels/README.md, upstreams.md §1.1 and the captured
 * lines (test/fixtures/tencent/SOURCE.md). A position whose value the market model cannot compute
 * carries the form the real host writes there (its sentinel, or `0` / `0.00`).
 */
import { hasTraded } from '../market/quote'
import type { LiveQuote } from '../market/types'
import { tencentVolumeUnit } from './codes'
import { fixed, pctOf } from './format'
import type { QuoteExtras, YearRange } from './quote-extras'

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

/** The A-share / ETF / index / bond record: 88 fields (87 for Shenzhen and indexes), volume in lots, amount (37) in 10k CNY. */
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
  const f: string[] = new Array(88).fill('')
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
  // Shenzhen lines leave 84 empty (the 000003, 001216, 002103, 002241 captures).
  f[84] = q.state === 'suspended' ? 'AE' : i.prefix === 'sh' ? '___D__F__N' : ''
  // 85 (a price) and 86 (a signed integer) are not documented; `0.00` and `0` are what an index,
  // an auction and a suspended line carry there. Shanghai stock and fund lines end with one more,
  // empty field (88); Shenzhen lines and indexes end at 86 (87: the 001216, 002241 and SSE
  // Composite captures).
  f[85] = fixed(0, d)
  f[86] = '0'
  return i.prefix === 'sh' && i.kind !== 'index' ? f : f.slice(0, 87)
}

/** Only the best bid and ask, as `price~0`, the other levels `0~0`: HK and US lines carry no depth (the 2025–2026 captures). */
function topOfBook(q: LiveQuote, price: (n: number) => string, withVolume: boolean): string[] {
  const out: string[] = new Array(20).fill('0')
  const bid = q.book.bids[0]
  const ask = q.book.asks[0]
  if (bid) out[0] = price(bid[0])
  if (ask) out[10] = price(ask[0])
  if (withVolume && bid) out[1] = String(Math.round(bid[1]))
  if (withVolume && ask) out[11] = String(Math.round(ask[1]))
  return out
}

const cap4 = (shares: number | null, last: number, places: number) => (shares === null ? fixed(0, places) : fixed((shares * last) / 1e8, places))

/**
 * The HK record: 78 fields (hk09988, hk01024, r_hk09660 of 2025–2026), volume in shares with one
 * decimal, amount (37) in HKD, caps (44 HK shares, 45 total) in 100 million HKD at 4 decimals, the
 * English name at 46, turnover at 59 against the HK shares (70), total shares at 69, board lot at
 * 60, the average price at 73. Ratios the model has no figure for are `0.00`.
 */
export function hkFields(q: LiveQuote, year: YearRange): string[] {
  const i = q.instrument
  const p = (n: number) => fixed(n, 3)
  const s = sessionOf(q)
  const f: string[] = new Array(78).fill('0')
  f[0] = '100'
  f[1] = i.name
  f[2] = i.symbol
  f[3] = p(s.last)
  f[4] = p(s.pre)
  f[5] = p(s.open)
  f[6] = fixed(s.volume, 1)
  f.splice(9, 20, ...topOfBook(q, p, false))
  f[29] = fixed(s.volume, 1)
  f[30] = `${q.date.replaceAll('-', '/')} ${q.time}`
  f[31] = p(s.last - s.pre)
  f[32] = fixed(pctOf(s.last - s.pre, s.pre), 2)
  f[33] = p(s.high)
  f[34] = p(s.low)
  f[35] = p(s.last)
  f[36] = fixed(s.volume, 1)
  f[37] = fixed(s.amount, 3)
  f[39] = '0.00'
  f[40] = ''
  f[43] = fixed(pctOf(s.high - s.low, s.pre), 2)
  f[44] = cap4(i.floatShares, s.last, 4)
  f[45] = cap4(i.totalShares, s.last, 4)
  f[46] = englishName(i.symbol)
  f[47] = '0.00'
  f[48] = p(year.high)
  f[49] = p(year.low)
  for (const k of [50, 51, 57, 58, 61, 62, 64, 65, 66, 67, 68, 71, 74]) f[k] = '0.00'
  f[59] = s.turnover === null ? '0.00' : fixed(s.turnover, 2)
  f[60] = '100'
  f[63] = 'GP'
  f[69] = fixed(i.totalShares ?? 0, 2)
  f[70] = fixed(i.floatShares ?? 0, 2)
  f[72] = '0.000'
  f[73] = p(s.volume ? s.amount / s.volume : s.last)
  f[75] = 'HKD'
  f[76] = '1'
  f[77] = '50'
  return f
}

/** Field 46: the English short name; the model keeps none, so the upper-case code stands in (same class: text). */
const englishName = (symbol: string) => `HK${symbol}`

/**
 * The US record: 71 fields (usAAPL of 2026-04-17), flag `200`, the listed code in 2 (`AAPL.OQ`,
 * `.DJI`), prices at 2 decimals, time `YYYY-MM-DD HH:MM:SS` US Eastern, `USD` at 35, volume (6, 36)
 * in shares, amount (37) in USD, turnover % at 38, caps (44, 45, 53) in 100 million USD at 5
 * decimals, shares at 62 (total) and 63 (float), the average price at 67. Ratios the model has no
 * figure for are `0.00`. An index line (`.DJI`, `.IXIC`, `.INX`) leaves the share, cap and ratio
 * fields empty and quotes its best bid and ask without volumes (usDJI, usIXIC, usINX of 2026-07-08).
 */
export function usFields(q: LiveQuote, listedCode: string, year: YearRange): string[] {
  const i = q.instrument
  const p = (n: number) => fixed(n, 2)
  const s = sessionOf(q)
  const f: string[] = new Array(71).fill('0')
  f[0] = '200'
  f[1] = i.name
  f[2] = listedCode
  f[3] = p(s.last)
  f[4] = p(s.pre)
  f[5] = p(s.open)
  f[6] = String(Math.round(s.volume))
  // Index lines quote a best bid and ask without volumes (usDJI of 2026-07-08: 52748.21~0).
  f.splice(9, 20, ...topOfBook(q, p, i.kind !== 'us-index'))
  f[29] = ''
  f[30] = `${q.date} ${q.time}`
  f[31] = p(s.last - s.pre)
  f[32] = fixed(pctOf(s.last - s.pre, s.pre), 2)
  f[33] = p(s.high)
  f[34] = p(s.low)
  f[35] = 'USD'
  f[36] = String(Math.round(s.volume))
  f[37] = String(Math.round(s.amount))
  f[38] = i.floatShares ? fixed(pctOf(s.volume, i.floatShares), 2) : '0.00'
  f[39] = '0.00'
  f[40] = ''
  f[41] = '0.00'
  f[42] = ''
  f[43] = fixed(pctOf(s.high - s.low, s.pre), 2)
  f[44] = cap4(i.floatShares, s.last, 5)
  f[45] = cap4(i.totalShares, s.last, 5)
  f[46] = i.symbol
  f[47] = '0.00'
  f[48] = p(year.high)
  f[49] = p(year.low)
  f[50] = '0'
  for (const k of [51, 52, 54, 55, 57, 58, 59, 60, 61, 64, 65, 66]) f[k] = '0.00'
  f[53] = f[45]
  f[56] = i.kind === 'us-index' ? 'ZS' : 'GP'
  f[62] = String(i.totalShares ?? 0)
  f[63] = String(i.floatShares ?? 0)
  f[67] = p(s.volume ? s.amount / s.volume : s.last)
  f[68] = ''
  f[69] = ''
  f[70] = ''
  // An index line leaves the share, cap and per-share fields empty (usDJI, usIXIC, usINX of 2026-07-08).
  if (i.kind === 'us-index') for (const k of US_INDEX_EMPTY) f[k] = ''
  return f
}

/** Fields a US index line sends empty: turnover, ratios, caps and share counts. */
const US_INDEX_EMPTY = [38, 39, 40, 41, 42, 44, 45, 47, 51, 52, 53, 57, 58, 62, 63, 65, 66]

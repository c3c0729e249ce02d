/**
 * One A-share stock's full Tencent quote line (`qt.gtimg.cn/q=sh600519`, upstreams.md §1.1.1):
 * the five-level book (fields 9–28, volume in lots) and the profile fields the snapshot serves —
 * valuation (39 PE TTM, 52 dynamic, 53 static, 46 PB), market caps in 100 million CNY (44, 45),
 * limits (47, 48), volume ratio (49), amplitude (43), outer/inner volume (7, 8), shares (72, 73),
 * currency (82). Field 39's meaning is unsettled upstream; we read it as PE TTM **(ours)**.
 * A STAR stock's line counts volume, outer and inner in shares (converted to lots here); whether
 * its book levels are shares too no capture settles, so they are read as lots.
 */
import type { Instrument } from '../../domain/instrument'
import { lineStatus } from '../../domain/market-phase'
import { bookProblem, BOOK_LEVELS, isAuctionBook, levelOf, type Level, type OrderBook } from '../../domain/orderbook'
import { orderImbalance, securityType, type Snapshot } from '../../domain/snapshot'
import { empty, malformed, unsupported } from '../errors'
import { fetchFeedLines } from '../live-lines'
import { QT_FEED } from './qt-feed'
import type { ChannelContext, FeedLine } from '../types'
import { num, optNum, sessionOf } from '../validate'
import { isAShare, quoteCode, volumeInShares } from './codes'
import { quoteLines } from './quotes'
import { securityName } from '../names'

const CHANNEL = 'tencent'

/** Positions in the `~`-separated A-share record. */
const FULL = {
  name: 1, code: 2, last: 3, preClose: 4, open: 5, volume: 6, outer: 7, inner: 8, book: 9, time: 30,
  change: 31, changePct: 32, high: 33, low: 34, amount: 37, turnover: 38, peTtm: 39, status: 40, amplitude: 43,
  floatCap: 44, totalCap: 45, pb: 46, limitUp: 47, limitDown: 48, volumeRatio: 49, avgPrice: 51,
  peDynamic: 52, peStatic: 53, floatShares: 72, totalShares: 73, currency: 82,
} as const

/** Records shorter than this cannot carry the share capital. */
const MIN_FIELDS = FULL.totalShares + 1

const TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/

export interface FullQuote {
  book: OrderBook
  snapshot: Snapshot
}

/** The book's fields: 9..18 bid price/lots pairs, 19..28 ask pairs; a `0.00` price is no price. */
function levels(f: string[], from: number, what: string): Level[] {
  const out: Level[] = []
  for (let k = 0; k < BOOK_LEVELS; k++) {
    const at = from + 2 * k
    out.push(levelOf(num(CHANNEL, f[at], `${what}${k + 1} price`), num(CHANNEL, f[at + 1], `${what}${k + 1} volume`)))
  }
  return out
}

/**
 * Parses a decoded answer for `inst` at `now` (the clock decides whether a line is in session:
 * src/domain/market-phase.ts); `empty` when Tencent does not know it or the code does not trade at
 * all (status `D`, `U`, `C`), `malformed` when it does not add up. Suspended: field 40 `S`. A line
 * without a trade (re-stamped before the open, the auction) is not halted: its open, high, low and
 * average price are null, and in the auction `last` is the indicative price (field 3).
 */
export function parseFullQuote(text: string, inst: Instrument, now: number): FullQuote {
  return fullQuoteOf(quoteLines(text), inst, now)
}

/** A line as read, and what its status at another instant depends on. */
interface ReadLine {
  code: string
  quote: FullQuote
  line: { halted: boolean; traded: boolean; date: string }
  auction: boolean
}

/**
 * What each pooled line was read as: every call within the line's cadence gets the same line
 * object (src/channels/live-lines.ts) and reads it once; only the status is worked out again, as it
 * depends on the instant. Nothing downstream changes a full quote.
 */
const readLines = new WeakMap<FeedLine, ReadLine>()

/** {@link parseFullQuote} of an answer already cut into lines. */
export function fullQuoteOf(lines: readonly FeedLine[], inst: Instrument, now: number): FullQuote {
  const want = quoteCode(inst)
  const line = lines.find((l) => l.name.toLowerCase() === want)
  if (!line) throw empty(CHANNEL, `no quote record for ${inst.code}`)
  let read = readLines.get(line)
  if (!read || read.code !== inst.code) readLines.set(line, (read = readFullLine(line.payload, inst, now)))
  const status = lineStatus(read.line, read.auction, now)
  const { quote } = read
  return status === quote.snapshot.status ? quote : { ...quote, snapshot: { ...quote.snapshot, status } }
}

function readFullLine(payload: string, inst: Instrument, now: number): ReadLine {
  const f = payload.split('~')
  if (INACTIVE.has(f[FULL.status])) throw empty(CHANNEL, `${inst.code} does not trade (status ${f[FULL.status]})`)
  if (f.length < MIN_FIELDS) throw malformed(CHANNEL, `${inst.code}: ${f.length} fields, need ${MIN_FIELDS}`)
  if (f[FULL.code] !== inst.symbol) throw malformed(CHANNEL, `record of ${f[FULL.code]} answers ${inst.code}`)
  const ts = TIME.exec(f[FULL.time])
  if (!ts) throw malformed(CHANNEL, `bad time ${JSON.stringify(f[FULL.time])} for ${inst.code}`)
  const n = (k: keyof typeof FULL) => num(CHANNEL, f[FULL[k]], `${k} of ${inst.code}`)
  const opt = (k: keyof typeof FULL) => optNum(CHANNEL, f[FULL[k]], `${k} of ${inst.code}`)
  const preClose = n('preClose')
  const open = n('open')
  const high = n('high')
  const low = n('low')
  // Volumes in lots; a STAR stock's line counts shares (volumeInShares).
  const perLot = volumeInShares(inst) ? 100 : 1
  const lots = (x: number | null) => (x === null || perLot === 1 ? x : Math.round((x / perLot) * 100) / 100)
  const volume = lots(n('volume'))!
  const { halted, traded, last } = sessionOf({ open, high, low, volume, preClose, last: n('last'), suspended: f[FULL.status] === 'S' })
  const bids = levels(f, FULL.book, 'bid')
  const asks = levels(f, FULL.book + 2 * BOOK_LEVELS, 'ask')
  const auction = isAuctionBook({ bids, asks }, traded)
  const problem = bookProblem({ bids, asks }, auction)
  if (problem) throw malformed(CHANNEL, `${inst.code} book: ${problem}`)
  if (traded && (high < low || last > high || last < low)) throw malformed(CHANNEL, `${inst.code}: last ${last} outside [${low}, ${high}]`)
  const date = `${ts[1]}-${ts[2]}-${ts[3]}`
  const time = `${date} ${ts[4]}:${ts[5]}:${ts[6]}`
  // Without a trade the line's change is the indicative price's in the auction, else none.
  const moved = traded || auction
  const snapshot: Snapshot = {
    code: inst.code,
    name: securityName(f[FULL.name]),
    time,
    security_type: securityType(inst),
    status: lineStatus({ halted, traded, date }, auction, now),
    currency: f[FULL.currency] || 'CNY',
    last,
    change: moved ? n('change') : 0,
    change_pct: moved ? n('changePct') : 0,
    open: traded ? open : null,
    high: traded ? high : null,
    low: traded ? low : null,
    pre_close: preClose,
    avg_price: traded ? opt('avgPrice') : null,
    volume,
    amount: opt('amount'),
    turnover: opt('turnover'),
    bids,
    asks,
    order_imbalance: orderImbalance(bids, asks),
    pe_ttm: opt('peTtm'),
    pe_dynamic: opt('peDynamic'),
    pe_static: opt('peStatic'),
    pb: opt('pb'),
    float_market_cap: opt('floatCap'),
    total_market_cap: opt('totalCap'),
    float_shares: opt('floatShares'),
    total_shares: opt('totalShares'),
    limit_up: opt('limitUp'),
    limit_down: opt('limitDown'),
    volume_ratio: opt('volumeRatio'),
    amplitude: opt('amplitude'),
    // Tencent's line has no 涨速.
    rise_speed: null,
    outer_volume: lots(opt('outer')),
    inner_volume: lots(opt('inner')),
  }
  if (snapshot.limit_up !== null && snapshot.limit_down !== null && traded && (last > snapshot.limit_up || last < snapshot.limit_down)) {
    throw malformed(CHANNEL, `${inst.code}: last ${last} outside the limits [${snapshot.limit_down}, ${snapshot.limit_up}]`)
  }
  const quote = { book: { code: inst.code, time, last, preClose, bids, asks, halted, traded }, snapshot }
  return { code: inst.code, quote, line: { halted, traded, date }, auction }
}

/** Status letters of codes that do not trade at all (delisted, never listed, retired): Tencent quotes them, but not as listed stocks. */
const INACTIVE = new Set(['D', 'U', 'C'])

/** The full quote line of one A-share instrument, read at `now`. */
export async function fetchFullQuote(ctx: ChannelContext, inst: Instrument, now: number): Promise<FullQuote> {
  const code = quoteCode(inst)
  if (!code || !isAShare(inst)) throw unsupported(CHANNEL, `the full quote line is for sh/sz/bj codes, not ${inst.code}`)
  return fullQuoteOf(await fetchFeedLines(ctx, QT_FEED, [code]), inst, now)
}

/**
 * How a trading day unfolds on each quote host, for one kind of instrument: when the host
 * re-stamps its line to the new day, the opening call auction, the first trade, the lunch break
 * and the time the line's last update carries. Sources (test/fixtures/{tencent,sina,push2}/SOURCE.md):
 *
 * - Between the close and the host's morning reset, and on every non-session day, a host shows the
 *   last session's final line (captured on all three hosts the same evening, and on Tencent on a
 *   holiday). Its time of last update: Tencent about 16:14–16:15, Sina 15:00:0x, Eastmoney f86
 *   between 15:34 and 15:59.
 * - Tencent re-stamps lines without a trade to 09:00:00 of the new day; Sina lines carry the new
 *   date from 09:00 on. Eastmoney's stock/get: **assumed** to keep the last session until the
 *   auction starts at 09:15 (one uncaptured sample suggests an earlier reset).
 * - The list views (Eastmoney's list namespace: ulist.np, clist, slist; Tencent's rank list; THS's
 *   hot list): no capture between the night and the open; **assumed** to keep the last session
 *   until the opening match (09:25), showing neither a re-stamped line nor the auction.
 * - The opening call auction runs 09:15–09:25 for stocks, ETFs and bonds (captured on Tencent and
 *   Sina); the opening match at 09:25 is the day's first trade, for indexes too (an index is
 *   computed from the matched prices). Futures and forex, and HK and US shares, are modelled with
 *   neither a reset window nor an auction: the last session until the open.
 * - At the lunch break the lines keep the morning's last values with a time just after the
 *   morning close (Sina `11:30:00`/`11:30:03`, a Tencent index `11:30:00`).
 */
import type { InstrumentKind } from '../../domain/instrument'
import { hhmm, sessionFor } from './sessions'

/** The views whose quote lines the emulator renders: three hosts' single-quote lines, and the list views. */
export type QuoteHost = 'tencent' | 'sina' | 'eastmoney' | 'list'

/** Kinds that take part in the opening call auction. */
const AUCTION_KINDS: ReadonlySet<InstrumentKind> = new Set(['stock', 'etf', 'bond'])
/** Kinds whose day opens with the 09:25 match (the auction kinds, and indexes computed from them). */
const MATCH_KINDS: ReadonlySet<InstrumentKind> = new Set(['stock', 'etf', 'bond', 'index', 'sector'])

const AUCTION_START = 9 * 60 + 15
const MATCH = 9 * 60 + 25
const NINE = 9 * 60

/** Time of the last update of a finished session, per host (A-share lines). */
const FINAL_STAMP: Record<QuoteHost, string> = { tencent: '16:14:58', sina: '15:00:03', eastmoney: '15:34:03', list: '15:34:00' }

/** One kind's day on one host, in minutes of the exchange day. */
export interface DayTimeline {
  /** From this minute of a session day the host shows that day (before it, the last session). */
  reset: number
  /** The opening call auction [start, end), or null. */
  auction: readonly [number, number] | null
  /** The first trade of the day (the opening match, or the continuous open). */
  firstTrade: number
  /** The morning close and the afternoon open, or null without a lunch break. */
  lunch: readonly [number, number] | null
  /** The close of the session. */
  close: number
  /** `HH:MM:SS` the line carries once the session is over and the host has finished with it. */
  finalStamp: string
  /** `HH:MM:SS` the line carries in the lunch break. */
  lunchStamp: string | null
  /** `HH:MM:SS` of a re-stamped line without a trade (Tencent's 09:00:00), or null for the clock time. */
  resetStamp: string | null
}

const cache = new Map<string, DayTimeline>()

/** The day of `kind` on `host`. */
export function dayTimeline(kind: InstrumentKind, host: QuoteHost): DayTimeline {
  const key = `${kind}|${host}`
  let t = cache.get(key)
  if (!t) cache.set(key, (t = build(kind, host)))
  return t
}

function build(kind: InstrumentKind, host: QuoteHost): DayTimeline {
  const s = sessionFor(kind)
  const lunch = s.halves.length > 1 ? ([s.halves[0][1], s.halves[1][0]] as const) : null
  const lunchStamp = lunch && `${hhmm(lunch[0])}:00`
  if (!MATCH_KINDS.has(kind)) {
    return { reset: s.open, auction: null, firstTrade: s.open, lunch, close: s.close, finalStamp: `${hhmm(s.close)}:00`, lunchStamp, resetStamp: null }
  }
  const auction = AUCTION_KINDS.has(kind) ? ([AUCTION_START, MATCH] as const) : null
  // Eastmoney's stock/get shows the last session until it has something of the new day to show; the lists until the first trade.
  const reset = host === 'list' ? MATCH : host === 'eastmoney' ? (auction ? AUCTION_START : MATCH) : NINE
  return { reset, auction, firstTrade: MATCH, lunch, close: s.close, finalStamp: FINAL_STAMP[host], lunchStamp, resetStamp: host === 'tencent' ? '09:00:00' : null }
}

/** Whether the day's first trade has happened by exchange minute `minute` (its bar exists from then on). */

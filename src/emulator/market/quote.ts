/**
 * The real-time view: what each quote host shows of an instrument at a clock instant (live,
 * the last session's final line, the re-stamped morning line, the opening auction, a suspension)
 * and a plausible five-level book.
 */
import { dateOf, isSession, monthOfDay, sessionDayOnOrBefore } from './calendars'
import { dayTimeline, type DayTimeline, type QuoteHost } from './day-timeline'
import { barBefore, findBar, monthBars, rawBar } from './history'
import { openingMatch, partialBar } from './intraday'
import { limitOn, limitPrices, roundTo } from './limits'
import { hash, SALT } from './random'
import { exchangeTime, sessionFor, type ExchangeTime } from './sessions'
import type { AuctionView, Book, EmuInstrument, LiveQuote, RawBar } from './types'
import { profileOf } from './universe'

const LEVELS = 5

/** True when the line shows a session that has traded (its bar is a real bar, its book a real book). */
export const hasTraded = (q: LiveQuote) => q.state === 'trading' || q.state === 'closed'

/** The quote of `inst` on `host` at `now` (see LiveQuote and day-timeline.ts). */
export function liveQuote(inst: EmuInstrument, now: number, host: QuoteHost = 'list'): LiveQuote {
  const p = profileOf(inst)
  const s = sessionFor(inst.kind)
  const t = dayTimeline(inst.kind, host)
  const clock = exchangeTime(s.clock, now)
  // The session day the host shows: today from its reset on, else the last session day.
  const day = isSession(p.calendar, clock.day) && clock.minute >= t.reset ? clock.day : sessionDayOnOrBefore(p.calendar, clock.day - 1)
  const found = findBar(inst, day)
  if (!found) return withoutBar(inst, day, clock, t)
  const { block, i } = found
  const date = dateOf(day)
  const quote = (state: LiveQuote['state'], time: string, bar: RawBar, b: Book, auction: AuctionView | null = null): LiveQuote => ({ instrument: inst, date, time, state, bar, book: b, auction })
  if (day < clock.day || clock.minute >= t.close) {
    const bar = rawBar(block, i)
    return quote('closed', day < clock.day ? t.finalStamp : earlier(clock.time, t.finalStamp), bar, book(inst, bar, day, t.close))
  }
  if (clock.minute >= t.firstTrade) {
    const lunch = t.lunch !== null && clock.minute >= t.lunch[0] && clock.minute < t.lunch[1]
    const minute = lunch ? t.lunch![0] : clock.minute
    const bar = partialBar(inst, block, i, minute, t.firstTrade < s.open)
    return quote('trading', lunch ? t.lunchStamp! : clock.time, bar, book(inst, bar, day, minute))
  }
  const flat = flatBar(date, block.pre[i], inst)
  if (t.auction && clock.minute >= t.auction[0]) {
    const a = auctionAt(inst, block, i, clock.minute, t.auction)
    return quote('auction', clock.time, flat, auctionBook(a), a)
  }
  return quote('preopen', t.resetStamp ?? clock.time, flat, emptyBook())
}

/** The earlier of two `HH:MM:SS` times. */
const earlier = (a: string, b: string) => (a < b ? a : b)

/** A bar of a session without a trade: flat at the reference price, no volume. */
function flatBar(date: string, ref: number, inst: EmuInstrument): RawBar {
  return { date, open: ref, high: ref, low: ref, close: ref, preClose: ref, volume: 0, amount: 0, turnover: inst.floatShares ? 0 : null }
}

/**
 * A session day without a bar: after a contract's last day, its last session; a day the
 * instrument does not trade, a suspension at its last close; before its first session, its
 * listing reference price.
 */
function withoutBar(inst: EmuInstrument, day: number, clock: ExchangeTime, t: DayTimeline): LiveQuote {
  const p = profileOf(inst)
  const prev = barBefore(inst, day)
  if (prev && day > p.lastDay) {
    const bar = rawBar(prev.block, prev.i)
    return { instrument: inst, date: bar.date, time: t.finalStamp, state: 'closed', bar, book: book(inst, bar, prev.block.day[prev.i], t.close), auction: null }
  }
  const date = day > 0 ? dateOf(day) : clock.date
  const time = day < clock.day ? t.finalStamp : earlier(clock.time, t.finalStamp)
  const ref = prev ? prev.block.close[prev.i] : listingReference(inst)
  return { instrument: inst, date, time, state: prev ? 'suspended' : 'unlisted', bar: flatBar(date, ref, inst), book: emptyBook(), auction: null }
}

/** Before an instrument's first bar: its listing reference price (the first bar's previous close). */
function listingReference(inst: EmuInstrument): number {
  const block = monthBars(inst, monthOfDay(profileOf(inst).firstDay))
  return block && block.n > 0 ? block.pre[0] : 0
}

/**
 * The auction at exchange minute `minute`: the indicative price is the day's open; the matched
 * volume builds up to the opening match over the ten minutes; a deterministic remainder stays
 * unmatched on one side.
 */
function auctionAt(inst: EmuInstrument, block: Parameters<typeof partialBar>[1], i: number, minute: number, [a, b]: readonly [number, number]): AuctionView {
  const p = profileOf(inst)
  const match = openingMatch(inst, block, i)
  const lots = match.volume / p.lot
  const progress = Math.min(1, (minute - a + 1) / (b - a))
  const matched = lots > 0 ? Math.max(1, Math.round(lots * (0.3 + 0.7 * progress))) * p.lot : 0
  const h = hash(p.seed, SALT.auction, block.day[i], minute)
  const unmatched = matched > 0 ? Math.max(1, Math.round(lots * ((h % 60) / 100))) * p.lot : 0
  return { price: block.open[i], matched, unmatched, side: (h >>> 8) % 2 === 0 ? 'bid' : 'ask' }
}

/** The auction's book as the hosts print it: bid1 = ask1 = the indicative price with the matched volume, the rest on level 2 without a price. */
function auctionBook(a: AuctionView): Book {
  const b = emptyBook()
  if (a.matched === 0) return b
  b.bids[0] = [a.price, a.matched]
  b.asks[0] = [a.price, a.matched]
  ;(a.side === 'bid' ? b.bids : b.asks)[1] = [0, a.unmatched]
  return b
}

const emptyBook = (): Book => ({ bids: emptyLevels(), asks: emptyLevels() })
const emptyLevels = (): Array<[number, number]> => Array.from({ length: LEVELS }, () => [0, 0] as [number, number])

/**
 * Five bid and ask levels around the last price at exchange minute `minute` of `day`: bids
 * strictly below it, asks at or above it, all inside the day's limits (levels past a limit are
 * [0, 0]: at limit-up no asks, at limit-down no bids).
 */
function book(inst: EmuInstrument, bar: RawBar, day: number, minute: number): Book {
  const empty = emptyLevels
  if (bar.close <= 0) return { bids: empty(), asks: empty() }
  const p = profileOf(inst)
  const dec = inst.decimals
  const tick = 10 ** -dec
  const last = bar.close
  const limit = limitOn(inst, day)
  const [dn, up] = limit === null ? [tick, Infinity] : limitPrices(bar.preClose, limit, dec)
  const h = (k: number) => hash(p.seed, SALT.book, day * 2000 + minute, k)
  // Step between levels: one tick, or a few for high-priced instruments quoted in fine ticks.
  const step = tick * Math.max(1, Math.round((last * 0.0002) / tick))
  const size = (k: number) => (p.volumeMode === 'none' ? 0 : (1 + (h(k) % 400)) * p.lot * (p.lot === 1 ? 10 : 1))
  const bids = empty()
  const asks = empty()
  const firstAsk = h(99) % 2 === 0 ? last : last + step
  for (let k = 0; k < LEVELS; k++) {
    const bid = roundTo(last - step * (k + 1), dec)
    if (bid >= dn && bid > 0 && last < up + tick / 2) bids[k] = [bid, size(k)]
    const ask = roundTo(firstAsk + step * k, dec)
    if (ask <= up && last < up) asks[k] = [ask, size(k + LEVELS)]
  }
  if (last <= dn) bids.forEach((_, k) => (bids[k] = [0, 0]))
  return { bids, asks }
}

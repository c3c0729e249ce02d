/**
 * The real-time view: the trading state at a clock instant and a plausible five-level book.
 */
import { monthOfDay } from './calendars'
import { barBefore, findBar, monthBars, rawBar } from './history'
import { partialBar } from './intraday'
import { limitOn, limitPrices, roundTo } from './limits'
import { hash, SALT } from './random'
import { exchangeTime, hhmm, phase, sessionFor } from './sessions'
import type { Book, EmuInstrument, LiveQuote, RawBar } from './types'
import { profileOf } from './universe'

const LEVELS = 5

/** The quote of `inst` at `now` (see LiveQuote). */
export function liveQuote(inst: EmuInstrument, now: number): LiveQuote {
  const s = sessionFor(inst.kind)
  const clock = exchangeTime(s.clock, now)
  const closeTime = hhmm(s.close) + ':00'
  const today = findBar(inst, clock.day)
  if (today) {
    const ph = phase(s, clock.day, clock)
    if (ph !== 'before') {
      const open = ph === 'open'
      const bar = open ? partialBar(inst, today.block, today.i, clock.minute) : rawBar(today.block, today.i)
      return { instrument: inst, date: clock.date, time: open ? clock.time : closeTime, bar, book: book(inst, bar, false, clock.day, clock.minute), halted: false }
    }
  }
  // Not open (yet) today: the last completed session.
  const prev = barBefore(inst, clock.day)
  const bar = prev ? rawBar(prev.block, prev.i) : listingReference(inst, clock.date)
  return { instrument: inst, date: prev ? bar.date : clock.date, time: closeTime, bar, book: book(inst, bar, true, clock.day, clock.minute), halted: true }
}

/** Before an instrument's first bar: a flat bar at its listing reference price, no volume. */
function listingReference(inst: EmuInstrument, date: string): RawBar {
  const p = profileOf(inst)
  const block = monthBars(inst, monthOfDay(p.firstDay))
  const ref = block && block.n > 0 ? block.pre[0] : 0
  return { date, open: ref, high: ref, low: ref, close: ref, preClose: ref, volume: 0, amount: 0, turnover: inst.floatShares ? 0 : null }
}

/**
 * Five bid and ask levels around the last price: bids strictly below it, asks at or above it,
 * all inside the day's limits (levels past a limit are [0, 0]: at limit-up no asks, at
 * limit-down no bids). A halted instrument has an empty book.
 */
export function book(inst: EmuInstrument, bar: RawBar, halted: boolean, day: number, minute: number): Book {
  const empty = (): Array<[number, number]> => Array.from({ length: LEVELS }, () => [0, 0] as [number, number])
  if (halted || bar.close <= 0) return { bids: empty(), asks: empty() }
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

/**
 * The MarketModel the wire layer talks to: the universe plus the price, action and intraday
 * generators, with the clock rules (what has closed by `now`, the minute window) applied here.
 */
import { dayNumber, fromDayNumber } from '../../domain/dates'
import { isMainContract } from '../../domain/futures'
import { actionsOf, hfqFactor, qfqFactor } from './actions'
import { firstContract, mainContractOn, openInterest } from './futures'
import { monthDays, monthOfDay, sessionDayOnOrBefore } from './calendars'
import { monthBars, rawBar } from './history'
import { dayMinuteBars, MINUTE_LENGTHS, partialBar } from './intraday'
import { dayTimeline, type QuoteHost } from './day-timeline'
import { liveQuote } from './quote'
import { exchangeTime, phase, sessionFor } from './sessions'
import type { EmuInstrument, LiveQuote, MarketModel, RawBar } from './types'
import { profileOf, universe } from './universe'

/**
 * A main continuous contract's bars in [from, to]: each session day's bars come from that day's
 * main contract (futures.ts), so the series is the main contracts' own bars spliced at each roll.
 */
function spliced(inst: EmuInstrument, from: string, to: string, now: number, barsOf: (c: EmuInstrument, from: string, to: string) => RawBar[]): RawBar[] {
  const clock = exchangeTime(sessionFor(inst.kind).clock, now)
  const first = Math.max(dayNumber(from), profileOf(inst).firstDay)
  const last = Math.min(dayNumber(to), clock.day)
  const out: RawBar[] = []
  let run: { c: EmuInstrument; from: number; to: number } | undefined
  const flush = () => {
    if (run) for (const b of barsOf(run.c, fromDayNumber(run.from), fromDayNumber(run.to))) out.push(b)
  }
  for (let m = monthOfDay(Math.min(first, last)), end = monthOfDay(last); first <= last && m <= end; m++) {
    for (const d of monthDays('cn', m)) {
      if (d < first || d > last) continue
      const c = mainContractOn(inst, d)
      if (run && c === run.c) run.to = d
      else {
        flush()
        run = c && { c, from: d, to: d }
      }
    }
  }
  flush()
  return out
}

/** Daily bars in [from, to] as seen at `now`. */
function dailyBars(inst: EmuInstrument, from: string, to: string, now: number): RawBar[] {
  if (isMainContract(inst)) return spliced(inst, from, to, now, (c, f, t) => dailyBars(c, f, t, now))
  const p = profileOf(inst)
  const s = sessionFor(inst.kind)
  const clock = exchangeTime(s.clock, now)
  // Today's bar exists from the day's first trade (the 09:25 opening match for A-share kinds).
  const firstTrade = dayTimeline(inst.kind, 'list').firstTrade
  const first = Math.max(dayNumber(from), p.firstDay)
  const last = Math.min(dayNumber(to), clock.day, p.lastDay)
  const out: RawBar[] = []
  if (first > last) return out
  for (let m = monthOfDay(first), end = monthOfDay(last); m <= end; m++) {
    const block = monthBars(inst, m)
    if (!block) continue
    for (let i = 0; i < block.n; i++) {
      const d = block.day[i]
      if (d < first || d > last) continue
      const ph = phase(s, d, clock, firstTrade)
      if (ph === 'closed') out.push(rawBar(block, i))
      else if (ph === 'open') out.push(partialBar(inst, block, i, clock.minute, firstTrade < s.open))
    }
  }
  return out
}

/** First date of the minute window at `now`. */
function minuteWindowStart(inst: EmuInstrument, now: number): string {
  const p = profileOf(inst)
  const clock = exchangeTime(sessionFor(inst.kind).clock, now)
  if (p.calendar === 'cn') {
    // A-share kinds (and futures): from the first day of the previous calendar month.
    const y = +clock.date.slice(0, 4)
    const m = +clock.date.slice(5, 7)
    return m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`
  }
  // HK, US, forex: the last five sessions, today included when it is a session day.
  let d = clock.day
  for (let k = 0; k < 5; k++) {
    d = sessionDayOnOrBefore(p.calendar, k === 0 ? d : d - 1)
  }
  return fromDayNumber(d)
}

/** Minute bars in [from, to] (date part), inside the window, ended by `now`. */
function minuteBars(inst: EmuInstrument, minutes: number, from: string, to: string, now: number): RawBar[] {
  if (!MINUTE_LENGTHS.includes(minutes)) return []
  if (isMainContract(inst)) {
    const start = minuteWindowStart(inst, now)
    return spliced(inst, from > start ? from : start, to, now, (c, f, t) => minuteBars(c, minutes, f, t, now))
  }
  const p = profileOf(inst)
  const clock = exchangeTime(sessionFor(inst.kind).clock, now)
  const first = Math.max(dayNumber(from), dayNumber(minuteWindowStart(inst, now)), p.firstDay)
  const last = Math.min(dayNumber(to), clock.day, p.lastDay)
  const out: RawBar[] = []
  for (let m = monthOfDay(Math.min(first, last)), end = monthOfDay(last); first <= last && m <= end; m++) {
    for (const d of monthDays(p.calendar, m)) {
      if (d < first || d > last) continue
      const bars = dayMinuteBars(inst, d, minutes, d < clock.day ? Infinity : clock.minute)
      for (const b of bars) out.push(b)
    }
  }
  return out
}

/** The live quote; a main continuous contract's is its main contract's of today, under its own name. */
function live(inst: EmuInstrument, now: number, host?: QuoteHost): LiveQuote {
  if (!isMainContract(inst)) return liveQuote(inst, now, host)
  // Before any contract trades: the first contract's listing reference (flat, no volume, unlisted).
  const c = mainContractOn(inst, exchangeTime(sessionFor(inst.kind).clock, now).day) ?? firstContract(inst)!
  return { ...liveQuote(c, now, host), instrument: inst }
}

/** The model. Nothing is built until the first call. */
export function createMarket(): MarketModel {
  return {
    instruments: () => universe().list,
    byCode: (code) => universe().byCode.get(code),
    actions: actionsOf,
    dailyBars,
    minuteBars,
    minuteWindowStart,
    qfqFactor,
    hfqFactor,
    live,
    openInterest: (inst, date) => openInterest(inst, dayNumber(date)),
    mainContract: (inst, date) => mainContractOn(inst, dayNumber(date)),
  }
}

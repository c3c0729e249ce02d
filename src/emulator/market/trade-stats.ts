/**
 * Intraday statistics quote screens show next to the price, computed from the model so every
 * upstream view agrees: volume ratio (量比), buy- and sell-initiated volume (外盘 / 内盘) and the
 * 5-minute rise speed (涨速).
 */
import { addDays } from '../../domain/dates'
import { Lru } from './lru'
import { hash, hashString } from './random'
import { sessionFor } from './sessions'
import { hasTraded } from './quote'
import type { LiveQuote, MarketModel } from './types'

const SPEED_MINUTES = 5

/** Trading minutes elapsed at exchange minute `minute` (whole session after the close). */
function elapsedMinutes(q: LiveQuote, minute: number): number {
  const s = sessionFor(q.instrument.kind)
  let n = 0
  for (const [a, b] of s.halves) n += Math.max(0, Math.min(b, minute) - a)
  return n
}

const minuteOf = (time: string) => +time.slice(0, 2) * 60 + +time.slice(3, 5)

/**
 * 量比: volume per elapsed minute today over the average volume per minute of the previous five
 * sessions. Null before the session's first trade, for a suspension, or without history.
 */
export function volumeRatio(market: MarketModel, q: LiveQuote, now: number): number | null {
  if (!hasTraded(q)) return null
  const elapsed = elapsedMinutes(q, minuteOf(q.time))
  if (elapsed <= 0) return null
  const perMinute = pastPerMinute(market, q, now)
  return perMinute > 0 ? q.bar.volume / elapsed / perMinute : null
}

/** Average volume per minute of the five sessions before the quote's date, by code and date (they are closed). */
const pastCache = new Lru<string, number>(8192)

function pastPerMinute(market: MarketModel, q: LiveQuote, now: number): number {
  const key = `${q.instrument.code}|${q.date}`
  let v = pastCache.get(key)
  if (v === undefined) {
    const past = market.dailyBars(q.instrument, addDays(q.date, -20), addDays(q.date, -1), now).slice(-5)
    v = past.length === 0 ? 0 : past.reduce((n, b) => n + b.volume, 0) / past.length / sessionFor(q.instrument.kind).minutes
    pastCache.set(key, v)
  }
  return v
}

/** 外盘 and 内盘 in lots: a deterministic 45–54% of the day's lots were buy-initiated. */
export function outerInner(q: LiveQuote): { outer: number; inner: number } {
  const lots = hasTraded(q) ? Math.round(q.bar.volume / 100) : 0
  const outer = Math.round(lots * (0.45 + (hash(hashString(q.instrument.code), 0x0d1e, Number(q.date.replaceAll('-', ''))) % 10) / 100))
  return { outer, inner: lots - outer }
}

/** 涨速: percent change of the last price against the close five minutes earlier (0 without a trade, or just opened). */
export function riseSpeed(market: MarketModel, q: LiveQuote, now: number): number {
  if (!hasTraded(q)) return 0
  const bars = market.minuteBars(q.instrument, 1, q.date, q.date, now)
  if (bars.length === 0) return 0
  const base = bars.length > SPEED_MINUTES ? bars[bars.length - 1 - SPEED_MINUTES].close : q.bar.open
  return base > 0 ? ((q.bar.close - base) / base) * 100 : 0
}

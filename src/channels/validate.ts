import type { Bar, Quote } from '../domain/bar'
import { malformed } from './errors'

const DATE_RE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$/

/**
 * Rejects bars that do not add up, so wrong data never leaves a channel: unparsable or negative
 * numbers, high below low, open or close outside [low, high], dates not strictly ascending.
 * Returns the bars unchanged when they pass.
 */
export function checkBars(channel: string, bars: Bar[]): Bar[] {
  let prev = ''
  for (const b of bars) {
    if (!DATE_RE.test(b.date)) throw malformed(channel, `bad bar date '${b.date}'`)
    if (b.date <= prev) throw malformed(channel, `bar dates not ascending at ${b.date}`)
    prev = b.date
    for (const k of ['open', 'close', 'high', 'low', 'volume'] as const) {
      if (!Number.isFinite(b[k]) || b[k] < 0) throw malformed(channel, `bad ${k} '${b[k]}' at ${b.date}`)
    }
    for (const k of ['amount', 'turnover'] as const) {
      const v = b[k]
      if (v !== null && (!Number.isFinite(v) || v < 0)) throw malformed(channel, `bad ${k} '${v}' at ${b.date}`)
    }
    if (b.high < b.low) throw malformed(channel, `high ${b.high} < low ${b.low} at ${b.date}`)
    // A tiny tolerance: upstreams round each price independently.
    const eps = Math.max(b.high, 1) * 1e-6
    if (b.open > b.high + eps || b.open < b.low - eps || b.close > b.high + eps || b.close < b.low - eps) {
      throw malformed(channel, `open/close outside [low, high] at ${b.date}`)
    }
  }
  return bars
}

/** Same rules for a real-time quote; a quote without a trade in its session may carry zeros for its prices. */
export function checkQuote(channel: string, q: Quote): Quote {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(q.date)) throw malformed(channel, `bad quote date '${q.date}' for ${q.code}`)
  for (const k of ['last', 'open', 'high', 'low', 'preClose', 'volume'] as const) {
    if (!Number.isFinite(q[k]) || q[k] < 0) throw malformed(channel, `bad ${k} '${q[k]}' for ${q.code}`)
  }
  if (q.traded) {
    if (q.high < q.low) throw malformed(channel, `high < low for ${q.code}`)
    const eps = Math.max(q.high, 1) * 1e-6
    if (q.last > q.high + eps || q.last < q.low - eps) throw malformed(channel, `last outside [low, high] for ${q.code}`)
  }
  return q
}

/**
 * A quote line's session from its prices and the host's suspension flag: it has traded when it
 * is not suspended and carries volume, or an open, high and low (forex and some indexes quote no
 * volume). A line without a trade (re-stamped before the open, in the auction, suspended) may
 * print its last price as 0; the last price is then the previous close. Suspension comes from the
 * flag only: a line with no volume before the open is not halted.
 */
export function sessionOf(p: { open: number; high: number; low: number; volume: number; last: number; preClose: number; suspended: boolean }): { halted: boolean; traded: boolean; last: number } {
  const traded = !p.suspended && (p.volume > 0 || (p.open > 0 && p.high > 0 && p.low > 0))
  return { halted: p.suspended, traded, last: !traded && p.last === 0 ? p.preClose : p.last }
}

/** Parses an upstream number; `"-"`, empty and non-numeric text are rejected with the field name. */
export function num(channel: string, raw: unknown, field: string): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN
  if (!Number.isFinite(n)) throw malformed(channel, `${field} is not a number: ${JSON.stringify(raw)}`)
  return n
}

/** Like {@link num} but `"-"`, empty and missing mean "not given" (null). */
export function optNum(channel: string, raw: unknown, field: string): number | null {
  if (raw === undefined || raw === null || raw === '' || raw === '-') return null
  return num(channel, raw, field)
}

/**
 * The daily qfq bars a technical row is computed over (/v1/technical when its row is not stepped
 * from a stored state, stepped-row.ts; the batch's symbols outside the table): an A-share stock's
 * whole stored history (adjusted exactly as /v1/kline-full does) joined to the channel's live bar,
 * or, for everything else and for stocks without a usable history, the channel's 1,212 day bars
 * with the live bar laid over them (the series /v1/quote serves).
 */
import type { Bar, Quote } from '../../domain/bar'
import type { Instrument } from '../../domain/instrument'
import type { QuoteResult, Services, StoreRequest } from '../../services/types'
import type { Attempt } from '../../channels/failover'
import { dateNum } from '../../store/history'
import { storedQfq } from '../../store/stored-qfq'
import type { History } from '../../store/shapes'

/** The most day bars a channel serves (/v1/kline: count ≤ 1212). */
const CHANNEL_MAX_BARS = 1212

/** Recent channel bars fetched beside a stored history: enough to check that the two agree. */
export const RECENT_FOR_HISTORY = 10

/** A stored qfq close and the channel's may differ by the upstream's rounding of its factor. */
export const AGREE_WITHIN = 0.011

export type TechnicalBars =
  | { ok: true; bars: Bar[]; quote: Quote; channel: string; history: 'store' | 'channel' }
  | { ok: false; attempts: Attempt[] }

/**
 * Joins a stored history to recent channel bars (oldest first, the last one live): the stored raw
 * bars before the live bar, plus any channel bars after the stored ones (a history a day behind),
 * forward-adjusted to the live bar's date with the stored actions (an ex-date today scales every
 * stored bar). Undefined when the two do not agree on the days both hold, or do not overlap: then
 * the stored actions are incomplete or the history too old, and the channel's series is used.
 */
export function joinHistory(h: History, recent: readonly Bar[]): Bar[] | undefined {
  const live = recent.at(-1)
  if (!live) return undefined
  const liveNum = dateNum(live.date)
  let n = h.t.length
  while (n > 0 && h.t[n - 1] >= liveNum) n--
  if (n === 0) return undefined
  const storedLast = h.t[n - 1]
  const newer = recent.filter((b) => dateNum(b.date) > storedLast)
  if (newer.length === recent.length) return undefined // no day in common: cannot check the join
  const out = storedQfq(h, n, newer)
  const byDate = new Map(out.slice(-recent.length).map((b) => [b.date, b.close]))
  for (const b of recent) {
    const stored = byDate.get(b.date)
    if (stored !== undefined && Math.abs(stored - b.close) > AGREE_WITHIN) return undefined
  }
  return [...out, ...newer]
}

/**
 * The bars and quote for `inst`, as described at the top of this file. `recent`: a stock's last
 * {@link RECENT_FOR_HISTORY} channel bars with its quote, when the caller has them already.
 */
export async function technicalBars(services: Services, c: StoreRequest, inst: Instrument, recent?: QuoteResult): Promise<TechnicalBars> {
  if (inst.kind === 'stock') {
    const [h, tail] = await Promise.all([services.store.history(c, inst.code).catch(() => undefined), recent ?? services.market.quoteSeries(inst, RECENT_FOR_HISTORY, 'channel')])
    if (!tail.ok) return tail
    const joined = h && joinHistory(h, tail.bars)
    if (joined) return { ok: true, bars: joined, quote: tail.quote, channel: tail.channel, history: 'store' }
  }
  const r = await services.market.quoteSeries(inst, CHANNEL_MAX_BARS, 'channel')
  if (!r.ok) return r
  return { ok: true, bars: r.bars, quote: r.quote, channel: r.channel, history: 'channel' }
}

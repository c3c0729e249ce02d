import { changePct } from '../domain/change-distribution'
import type { Quote } from '../domain/bar'
import type { Instrument } from '../domain/instrument'
import type { MarketViews } from './types'

/** A price's latest session: its close (or live price), change against the session before, and amount. */
export interface SessionFigures {
  last: number
  change: number | null
  change_pct: number | null
  amount: number | null
}

/**
 * The figures of an instrument's latest session as every view shows them. A line that has traded
 * in its session gives them itself. A line without a trade (re-stamped for the new day before the
 * 09:25 match, or suspended: last = the previous close, no change, no amount) gives none, so they
 * come from the last two daily bars, the same bars /v1/quote shows. Null when those cannot be had.
 */
export async function sessionFigures(market: MarketViews, instrument: Instrument, q: Quote): Promise<SessionFigures | null> {
  if (q.traded && q.preClose > 0) return { last: q.last, change: Number((q.last - q.preClose).toFixed(2)), change_pct: changePct(q.last, q.preClose), amount: q.amount }
  // The bars alone: the line is in hand, and asking for it again per row would cost a request each.
  const r = await market.recentBars(instrument, 2)
  if (!r.ok || r.value.length < 2) return null
  const [before, bar] = r.value.slice(-2)
  return { last: bar.close, change: Number((bar.close - before.close).toFixed(2)), change_pct: changePct(bar.close, before.close), amount: bar.amount }
}

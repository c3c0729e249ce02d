/**
 * A stored history's bars forward-adjusted (qfq) with its own actions, as /v1/kline-full adjusts
 * them: what /v1/technical and /v1/chip join to a channel's live bar, and the past bars /v1/quote
 * and the day K-line take from the store (src/services/stored-bars.ts).
 */
import type { Bar } from '../domain/bar'
import { factors, roundPrice } from '../domain/adjust'
import { dateNum, numDate } from './history'
import type { History } from './shapes'

/**
 * The stored bars with index below `n` (at most the last `count` of them), forward-adjusted as of
 * the last of `newer` (channel bars after them, whose prices are real in qfq; an ex-date among
 * them scales every stored bar) or, without any, as of the history's last bar (the basis
 * /v1/kline-full uses, also for a window that ends earlier). Prices as /v1/kline-full rounds
 * them; the turnover rate as stored (null where the store has none).
 */
export function storedQfq(h: History, n: number, newer: readonly Bar[] = [], count = n): Bar[] {
  const from = Math.max(0, n - count)
  // Raw closes of the stored bars plus the channel's newer ones, which replace any stored from bar n on.
  const t = newer.length ? [...h.t.slice(0, n), ...newer.map((b) => dateNum(b.date))] : h.t
  const c = newer.length ? [...h.c.slice(0, n), ...newer.map((b) => b.close)] : h.c
  const f = factors({ t, c, act: h.act }, 'qfq', from, n)
  const out: Bar[] = new Array(n - from)
  for (let i = from; i < n; i++) {
    const k = f[i - from]
    out[i - from] = {
      date: numDate(h.t[i]), open: roundPrice(h.o[i] * k), high: roundPrice(h.h[i] * k), low: roundPrice(h.l[i] * k), close: roundPrice(h.c[i] * k),
      volume: h.vol[i], amount: h.amt[i], turnover: h.tr[i] ?? null,
    }
  }
  return out
}

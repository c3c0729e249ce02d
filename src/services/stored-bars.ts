/**
 * Past daily bars of an A-share stock from the store's own history (R2 `history/<code>.json`,
 * src/store/history.ts) instead of an upstream request: what /v1/quote and the day K-line lay
 * their live line over (docs/architecture.md, "Polite at scale"). Bars before today do not change
 * within a day, and the store already holds them for every stock, so a symbol's first call of the
 * day costs an R2 read, not one of the host's budgeted requests. That was most of what the upstreams
 * saw at scale: the cold past bars of thousands of symbols (docs/performance.md, "Many users").
 *
 * The stored bars are forward-adjusted (qfq) with the stored actions, as /v1/kline-full adjusts
 * them, and served only when they join the live line exactly:
 * - the last stored bar before the line's date is the trading day before it (the store is current);
 * - its adjusted close equals the line's previous close (within the upstream's rounding of its
 *   factor), which is the exchange's reference price: on an ex-date whose action the store does not
 *   hold yet (the after-close job merges it that evening) the two differ, and the channel's bars
 *   are used instead.
 * Anything else (no history, an older one, a suspension) leaves the call to the channel's bars.
 */
import type { Bar, Quote } from '../domain/bar'
import { factors, roundPrice } from '../domain/adjust'
import type { Instrument } from '../domain/instrument'
import { previousTradingDay } from '../domain/trading-calendar'
import { checkHistory, dateNum, numDate } from '../store/history'
import { historyKey } from '../store/keys'
import type { History } from '../store/shapes'
import type { RecentBarsCache } from '../channels/recent-bars'

/** A stored qfq close and the line's previous close may differ by the upstream's rounding of its factor. */
const STORED_CLOSE_TOLERANCE = 0.011

/** The name past bars from the store are kept under in the recent-bars cache. */
const STORE = 'store'

/** Where the histories are: the deployment's R2 bucket, set by the request pipeline. */
export class StoredBars {
  private bucket: R2Bucket | undefined

  constructor(private readonly recent: RecentBarsCache) {}

  /** The bucket histories are read from (each request's `env.STORE`; the same object every time). */
  attach(bucket: R2Bucket | undefined): void {
    this.bucket = bucket
  }

  /**
   * The last `window` stored bars of a stock (oldest first, qfq as of the history's last bar), kept
   * with the channels' past bars for ten minutes of the day; resolves undefined when the store has
   * no history of it or cannot be read, and is undefined itself for an instrument the store does not
   * keep (the caller then asks a channel, without waiting for the store).
   */
  tail(instrument: Instrument, window: number, now: number): Promise<Bar[] | undefined> | undefined {
    const bucket = this.bucket
    if (!bucket || !isStoredStock(instrument)) return undefined
    // +1: a call after the evening job holds today's bar too, which the live line replaces.
    return this.recent.get(STORE, instrument.code, window + 1, now, () => readTail(bucket, instrument.code, window + 1)).then(
      (bars) => (bars.length ? bars : undefined),
      (e) => {
        console.error(`stored bars of ${instrument.code} unreadable`, e)
        return undefined
      }
    )
  }
}

/** A-share stocks: the only instruments the store keeps histories of. */
const isStoredStock = (i: Instrument) => i.kind === 'stock' && (i.prefix === 'sh' || i.prefix === 'sz' || i.prefix === 'bj')

/** The last `count` bars of a stored history, forward-adjusted as of its last bar; [] without one. */
async function readTail(bucket: R2Bucket, code: string, count: number): Promise<Bar[]> {
  const obj = await bucket.get(historyKey(code))
  if (!obj) return []
  return adjustedTail(checkHistory(await obj.json()), count)
}

/** The last `count` bars of `h`, qfq as of its last bar, prices rounded as /v1/kline-full's. */
export function adjustedTail(h: History, count: number): Bar[] {
  const n = h.t.length
  const from = Math.max(0, n - count)
  const f = factors({ t: h.t, c: h.c, act: h.act }, 'qfq', from, n)
  const out: Bar[] = []
  for (let i = from; i < n; i++) {
    const k = f[i - from]
    out.push({
      date: numDate(h.t[i]), open: roundPrice(h.o[i] * k), high: roundPrice(h.h[i] * k), low: roundPrice(h.l[i] * k), close: roundPrice(h.c[i] * k),
      volume: h.vol[i], amount: h.amt[i], turnover: h.tr[i] ?? null,
    })
  }
  return out
}

/**
 * The newest `count` stored bars before the line's day when they join the line (see the top of
 * this file), else undefined.
 */
export function joinStored(tail: readonly Bar[], quote: Quote, count: number): Bar[] | undefined {
  const lineDay = dateNum(quote.date)
  let n = tail.length
  while (n > 0 && dateNum(tail[n - 1].date) >= lineDay) n--
  const last = tail[n - 1]
  if (!last || last.date !== previousTradingDay(quote.date)) return undefined
  if (!(quote.preClose > 0) || Math.abs(last.close - quote.preClose) > STORED_CLOSE_TOLERANCE) return undefined
  return tail.slice(Math.max(0, n - count), n)
}

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
import type { Instrument } from '../domain/instrument'
import { previousTradingDay } from '../domain/trading-calendar'
import { checkHistory, dateNum } from '../store/history'
import { historyKey } from '../store/keys'
import { storedQfq } from '../store/stored-qfq'
import { barsWindowOf, type RecentBarsCache } from '../channels/recent-bars'

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
   * The stored bars a call asking `count` may take (the last {@link barsWindowOf} of them, qfq as of
   * the history's last bar), kept with the channels' past bars for ten minutes of the day; resolves
   * undefined when the store has no history of it or cannot be read, and is undefined itself for an
   * instrument the store does not keep (the caller then asks a channel, without waiting for the store).
   */
  tail(instrument: Instrument, count: number, now: number): Promise<Bar[] | undefined> | undefined {
    const bucket = this.bucket
    // Kind `stock` is an A-share stock (Hong Kong and US ones are `hk`, `us`): all the store keeps.
    if (!bucket || instrument.kind !== 'stock') return undefined
    // +1: a call after the evening job holds today's bar too, which the live line replaces.
    const window = barsWindowOf(count) + 1
    return this.recent.get(STORE, instrument.code, window, now, () => readTail(bucket, instrument.code, window)).then(
      (bars) => (bars.length ? bars : undefined),
      (e) => {
        console.error(`stored bars of ${instrument.code} unreadable`, e)
        return undefined
      }
    )
  }
}

/**
 * The last `count` bars of a stored history, forward-adjusted as of its last bar; [] without one.
 * Read straight from R2, not through the parsed-histories cache (src/store/history-cache.ts): that
 * keeps 16 whole histories for /v1/kline-full and /v1/chip, which thousands of quoted symbols would
 * churn; here only the tail is kept, with the channels' past bars.
 */
async function readTail(bucket: R2Bucket, code: string, count: number): Promise<Bar[]> {
  const obj = await bucket.get(historyKey(code))
  if (!obj) return []
  const h = checkHistory(await obj.json())
  return storedQfq(h, h.t.length, [], count)
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

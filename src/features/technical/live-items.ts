/**
 * Today's live technical rows of A-share stocks (src/features/technical/live-outcome.ts), kept in this
 * isolate for one quote window (`FRESHNESS_MS.liveRow`, 3 s: one exchange snapshot) and shared by
 * every caller of /v1/technical-batch, as the market-level answers are (the freshness classes of
 * src/services/shared-answers.ts): a stock's live row is the same for everyone, and a quote asked
 * again within the window is almost always the same quote. A batch asks the quote channels only for
 * the stocks without a fresh row, so callers asking for the same stocks within a window cost one
 * round of quotes and one step each, not one per call. Each row keeps the time of its quote
 * (`as_of`), so nothing older is passed off as newer.
 *
 * Kept: the stepped rows (with their item bytes), the stocks not traded today (their row is the
 * previous session's, from the table), and the rows computed from the whole history (an ex-date).
 * Not kept: a stock without a quote (the next call asks again).
 *
 * Concurrent misses share one request: a call that finds another already asking for a stock's
 * quote waits for that call's result instead of asking again, so a burst of callers at the start of
 * a window costs the upstream one round of quotes, as the market cache's misses do.
 */
import { Flight } from '../../domain/shared-flight'
import { FRESHNESS_MS } from '../../services/shared-answers'
import { cacheKind } from '../../runtime/isolate-caches'

/**
 * A row is kept as its item's bytes for the canonical code (src/features/technical/item-bytes.ts), not
 * as an object: 1,000 rows of 52 numbers kept for seconds would be 50,000 small objects for the
 * garbage collector to carry; bytes live outside its heap.
 */
export type LiveItem = { kind: 'row'; bytes: Uint8Array; /** The session of the row the bytes hold. */ date: string; asOf?: string } | { kind: 'previous' }

interface Kept {
  /** Service clock (ms) when the quote was asked for. */
  at: number
  /** The table (previous session) the row was stepped from. */
  table: string
  item: LiveItem
}

/** What the call that asked for a stock's quote found, for the calls that waited on it. */
export type LiveResult = LiveItem | { kind: 'full' } | { kind: 'error'; error: string }

/**
 * How long a call waits for another call's result for a stock (real time) before computing it
 * itself: past the channels' timeouts, short of the request deadline. Past it the other call is
 * taken as gone (src/domain/shared-flight.ts, rule 2).
 */
const JOIN_MS = 10_000

/** How a call that asks for quotes hands each stock's result to the calls waiting on it. */
export interface Asking {
  settle(code: string, result: LiveResult): void
  /** Settles every code not settled yet (a call that failed half way must not leave others waiting). */
  settleRest(result: LiveResult): void
}

/** The live rows of one `Services` ({@link LIVE_ITEMS}), and the calls asking for quotes now. */
export class LiveItems {
  private readonly kept = new Map<string, Kept>()
  private sweptAt = 0
  /** Stocks whose quote a call is asking for now, with the result it will hand the calls that wait. */
  private readonly inFlight = new Map<string, { table: string; result: Flight<LiveResult> }>()
  /** Off only for `npm run bench`'s cold rows: every call asks for its own quotes, sharing nothing. */
  private sharing = true

  /** The live item of `code` if one was made from a quote asked for within the window before `now`, from `table`'s states. */
  fresh(code: string, now: number, table: string): LiveItem | undefined {
    const k = this.sharing ? this.kept.get(code) : undefined
    return k && k.table === table && now >= k.at && now - k.at < FRESHNESS_MS.liveRow ? k.item : undefined
  }

  /**
   * Keeps `item` for `code`, made from a quote asked for at `at`. Expired items are dropped once a
   * window, so what is kept is at most the stocks asked for in the last few seconds (bounded by the
   * market: only stocks with a quote are kept).
   */
  keep(code: string, at: number, table: string, item: LiveItem): void {
    if (at - this.sweptAt >= FRESHNESS_MS.liveRow || at < this.sweptAt) {
      for (const [c, k] of this.kept) if (!(at >= k.at && at - k.at < FRESHNESS_MS.liveRow)) this.kept.delete(c)
      this.sweptAt = at
    }
    this.kept.set(code, { at, table, item })
  }

  /**
   * The result another call is about to have for `code` (stepped from `table`'s states), if one is
   * asking for its quote now, as a promise of the calling request; `full` (compute it yourself) if
   * that call does not answer within {@link JOIN_MS}.
   */
  pending(code: string, table: string): Promise<LiveResult> | undefined {
    const p = this.sharing ? this.inFlight.get(code) : undefined
    if (!p || p.table !== table) return undefined
    return p.result.joinWithin(JOIN_MS).then((joined) => joined?.value ?? { kind: 'full' })
  }

  /** Marks `codes` as being asked for by this call: other calls wait for its results (see {@link LiveItems.pending}). */
  askingFor(codes: readonly string[], table: string): Asking {
    const open = new Map<string, { entry: { table: string; result: Flight<LiveResult> }; resolve: (r: LiveResult) => void }>()
    for (const code of codes) {
      if (open.has(code)) continue
      let resolve!: (r: LiveResult) => void
      const entry = { table, result: new Flight(new Promise<LiveResult>((r) => (resolve = r))) }
      open.set(code, { entry, resolve })
      this.inFlight.set(code, entry)
    }
    const settle = (code: string, r: LiveResult) => {
      const mine = open.get(code)
      if (!mine) return
      open.delete(code)
      if (this.inFlight.get(code) === mine.entry) this.inFlight.delete(code)
      mine.resolve(r)
    }
    return { settle, settleRest: (r) => [...open.keys()].forEach((code) => settle(code, r)) }
  }

  /** Forgets every kept item (`Services.reset()`, tests, the bench's cold rows); calls still asking settle as usual. */
  clear(): void {
    this.kept.clear()
    this.sweptAt = 0
  }

  /**
   * Whether calls share kept items and pending requests (on, always, in the service). `npm run bench`
   * turns it off to measure what a call costs when it has nothing to share with another.
   */
  share(on: boolean): void {
    this.sharing = on
  }

  /** How many items are kept (tests). */
  get size(): number {
    return this.kept.size
  }
}

/** Today's live technical rows of this isolate, in `services.caches`. */
export const LIVE_ITEMS = cacheKind('live technical rows', () => new LiveItems(), (l) => l.clear())

/**
 * Today's live technical rows of A-share stocks (src/features/technical/live-outcome.ts), kept in this
 * isolate for one quote window (`FRESHNESS_MS.liveRow`, 3 s: one exchange snapshot) and shared by
 * every caller of /v1/technical-batch, as the market-level answers are (DESIGN §12, freshness): a
 * stock's live row is the same for everyone, and a quote asked again within the window is almost
 * always the same quote. A batch asks the quote channels only for the stocks without a fresh row,
 * so callers asking for the same stocks within a window cost one round of quotes and one step each,
 * not one per call. Each row keeps the time of its quote (`as_of`), so nothing older is passed off
 * as newer.
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
import { registerIsolateCache } from '../../runtime/isolate-caches'

/**
 * A row is kept as its item's bytes for the canonical code (src/features/technical/item-bytes.ts), not
 * as an object: 1,000 rows of 52 numbers kept for seconds would be 50,000 small objects for the
 * garbage collector to carry; bytes live outside its heap.
 */
export type LiveItem = { kind: 'row'; bytes: Uint8Array; asOf?: string } | { kind: 'previous' }

interface Kept {
  /** Service clock (ms) when the quote was asked for. */
  at: number
  /** The table (previous session) the row was stepped from. */
  table: string
  item: LiveItem
}

const kept = new Map<string, Kept>()
let sweptAt = 0
/** Off only for `npm run bench`'s cold rows: every call asks for its own quotes, sharing nothing. */
let sharing = true

/** The live item of `code` if one was made from a quote asked for within the window before `now`, from `table`'s states. */
export function freshLiveItem(code: string, now: number, table: string): LiveItem | undefined {
  const k = sharing ? kept.get(code) : undefined
  return k && k.table === table && now >= k.at && now - k.at < FRESHNESS_MS.liveRow ? k.item : undefined
}

/**
 * Keeps `item` for `code`, made from a quote asked for at `at`. Expired items are dropped once a
 * window, so what is kept is at most the stocks asked for in the last few seconds (bounded by the
 * market: only stocks with a quote are kept).
 */
export function keepLiveItem(code: string, at: number, table: string, item: LiveItem): void {
  if (at - sweptAt >= FRESHNESS_MS.liveRow || at < sweptAt) {
    for (const [c, k] of kept) if (!(at >= k.at && at - k.at < FRESHNESS_MS.liveRow)) kept.delete(c)
    sweptAt = at
  }
  kept.set(code, { at, table, item })
}

/** What the call that asked for a stock's quote found, for the calls that waited on it. */
export type LiveResult = LiveItem | { kind: 'full' } | { kind: 'error'; error: string }

/**
 * How long a call waits for another call's result for a stock (real time) before computing it
 * itself: past the channels' timeouts, short of the request deadline. Past it the other call is
 * taken as gone (src/domain/shared-flight.ts, rule 2).
 */
const JOIN_MS = 10_000

const pending = new Map<string, { table: string; result: Flight<LiveResult> }>()

/**
 * The result another call is about to have for `code` (stepped from `table`'s states), if one is
 * asking for its quote now, as a promise of the calling request; `full` (compute it yourself) if
 * that call does not answer within {@link JOIN_MS}.
 */
export function pendingLiveItem(code: string, table: string): Promise<LiveResult> | undefined {
  const p = sharing ? pending.get(code) : undefined
  if (!p || p.table !== table) return undefined
  return p.result.joinWithin(JOIN_MS).then((joined) => joined?.value ?? { kind: 'full' })
}

/** How a call that asks for quotes hands each stock's result to the calls waiting on it. */
export interface Asking {
  settle(code: string, result: LiveResult): void
  /** Settles every code not settled yet (a call that failed half way must not leave others waiting). */
  settleRest(result: LiveResult): void
}

/** Marks `codes` as being asked for by this call: other calls wait for its results (see {@link pendingLiveItem}). */
export function askingFor(codes: readonly string[], table: string): Asking {
  const open = new Map<string, { entry: { table: string; result: Flight<LiveResult> }; resolve: (r: LiveResult) => void }>()
  for (const code of codes) {
    if (open.has(code)) continue
    let resolve!: (r: LiveResult) => void
    const entry = { table, result: new Flight(new Promise<LiveResult>((r) => (resolve = r))) }
    open.set(code, { entry, resolve })
    pending.set(code, entry)
  }
  const settle = (code: string, r: LiveResult) => {
    const mine = open.get(code)
    if (!mine) return
    open.delete(code)
    if (pending.get(code) === mine.entry) pending.delete(code)
    mine.resolve(r)
  }
  return { settle, settleRest: (r) => [...open.keys()].forEach((code) => settle(code, r)) }
}

/** Forgets every kept item (tests, and the bench's cold rows); calls still asking settle as usual. */
export function clearLiveItems(): void {
  kept.clear()
  sweptAt = 0
}
registerIsolateCache('live technical rows', clearLiveItems)

/**
 * Whether calls share kept items and pending requests (on, always, in the service). `npm run bench`
 * turns it off to measure what a call costs when it has nothing to share with another.
 */
export function shareLiveItems(on: boolean): void {
  sharing = on
}

/** How many items are kept (tests). */
export const liveItemsKept = (): number => kept.size

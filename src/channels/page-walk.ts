/**
 * The rest of a paged walk (pages 2..N of a whole-market list) inside a time budget.
 *
 * Why: the A-share market is some 56 list pages on Eastmoney. Two at a time that is 28 rounds: at
 * a normal 0.1–0.2 s a page, a few seconds; with the upstream answering each page after 2 s it is a
 * minute, far past the request deadline, and the next channel (Tencent's rank list) never gets its
 * turn (a slow upstream is a normal day, not an outage). So the pages' own pace sets the
 * width: the walk takes the fewest pages in flight that finish within the budget (at most
 * {@link WalkBudget.maxConcurrency}: Workers allow six connections at once), and as soon as even
 * that cannot, it stops with a `timeout`, leaving the rest of the request to the next channel.
 */
import { ChannelError } from './errors'

/** How long a walk may take and how wide it may go. */
export interface WalkBudget {
  /** The whole walk, first page included, in milliseconds. */
  budgetMs: number
  /** Pages in flight when the upstream is quick (kind to the upstream). */
  minConcurrency: number
  /** Pages in flight at most (Workers allow six outbound connections at once). */
  maxConcurrency: number
}

/**
 * Whole-market walks: 10 s leaves a third of the 15 s request deadline to the next channel, and
 * fits the emulator's cold walk on a loaded 2-core machine.
 */
export const WHOLE_MARKET_WALK: WalkBudget = { budgetMs: 10_000, minConcurrency: 2, maxConcurrency: 5 }

/** The pages in flight that finish `pages` more pages of `pageMs` each within `leftMs`, or undefined when none can. */
export function walkConcurrency(pages: number, pageMs: number, leftMs: number, budget: WalkBudget): number | undefined {
  if (pages <= 0) return budget.minConcurrency
  for (let c = budget.minConcurrency; c <= budget.maxConcurrency; c++) {
    if (Math.ceil(pages / c) * pageMs <= leftMs) return c
  }
  return undefined
}

/** How often a walk looks at the pages in flight (milliseconds). */
const WATCH_MS = 100
/**
 * Pages that must have come back before the walk judges the pace: one page may be slow for its own
 * reasons (the emulator, which runs in this process, computes its first pages of a new instant on
 * this machine's CPU), and a walk given up too soon costs the next channel its whole walk.
 */
const MIN_EVIDENCE = 2

/**
 * Fetches `items` (the pages after the first) with `fetchPage`, results in their order, within
 * `budget` counted from `startedAt` (when the first page was asked for).
 *
 * The pace is what the pages after the first take (the first pays one-off costs: a new connection
 * upstream, a cold emulator): the median of those back, once {@link MIN_EVIDENCE} are. After every
 * page, and every {@link WATCH_MS} while pages are out, the walk works out the width that ends in
 * time at that pace and widens to it; when no width up to the maximum can, it stops with a
 * `timeout` of `channel` at once rather than when the budget runs out, so that the next channel
 * has the time. Past the budget it stops whatever the pace. The first failure of a page stops the
 * walk too, and is what it rejects with.
 */
export function walkRest<T, R>(
  channel: string,
  items: readonly T[],
  startedAt: number,
  fetchPage: (item: T) => Promise<R>,
  budget: WalkBudget = WHOLE_MARKET_WALK,
  clock: () => number = Date.now
): Promise<R[]> {
  const out = new Array<R>(items.length)
  if (items.length === 0) return Promise.resolve(out)
  const deadline = startedAt + budget.budgetMs
  /** Pages out: index → when asked for. */
  const asked = new Map<number, number>()
  const took: number[] = []
  let next = 0
  let done = 0
  return new Promise<R[]>((resolve, reject) => {
    let over = false
    const watch = setInterval(() => steer(), WATCH_MS)
    const end = (err?: unknown) => {
      if (over) return
      over = true
      clearInterval(watch)
      if (err === undefined) resolve(out)
      else reject(err)
    }
    /** The median time of the pages that came back, once there are enough of them to judge by. */
    const pace = (): number | undefined => (took.length >= MIN_EVIDENCE ? [...took].sort((a, b) => a - b)[took.length >> 1] : undefined)
    const launch = (i: number) => {
      asked.set(i, clock())
      fetchPage(items[i]).then(
        (r) => {
          took.push(clock() - asked.get(i)!)
          asked.delete(i)
          out[i] = r
          if (++done === items.length) end()
          else steer()
        },
        (e) => end(e)
      )
    }
    /** Widens to the width that ends in time, or stops the walk when none can. */
    function steer(): void {
      if (over) return
      const now = clock()
      if (now > deadline) return end(new ChannelError('timeout', channel, `the ${items.length + 1}-page walk did not finish within ${budget.budgetMs} ms`))
      const p = pace()
      // What the pages out still need at this pace (at most one page each), then rounds of the pages not asked for yet.
      let outstanding = 0
      if (p !== undefined) for (const at of asked.values()) outstanding = Math.max(outstanding, p - (now - at))
      const width = p === undefined ? budget.minConcurrency : walkConcurrency(items.length - next, p, deadline - now - outstanding, budget)
      if (width === undefined) {
        return end(new ChannelError('timeout', channel, `list pages take ${Math.round(p!)} ms: the ${items.length + 1}-page walk would not finish within ${budget.budgetMs} ms`))
      }
      while (next < items.length && asked.size < width) launch(next++)
    }
    steer()
  })
}

/**
 * Job work shares its isolate with requests, and workerd runs one piece of JavaScript at a time.
 * A request that arrives is accepted only when the event loop polls for I/O, and the loop polls
 * only once no event is ready. A job whose awaits all resolve inside the process (the emulator's
 * upstreams, local R2) keeps an event ready for seconds, so nothing else is served meanwhile (and
 * wrangler dev's proxy, finding its idle connections closed under it, answered "Your worker
 * restarted mid-request"). In production an upstream answer comes from the network, but the
 * parsing and computing after it still runs for as long as it takes. So job loops give the loop
 * a turn between pieces of work of a few tens of milliseconds: a timer fires only after a poll.
 *
 * The clock does not move while a Worker computes (it advances on I/O only), so the pieces are
 * counted, not timed.
 */
import type { ChannelContext } from '../channels/types'

/** Resolves after the event loop has had a turn (polled for I/O and served what was waiting). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * A lane for job work that runs side by side (a chunk's stocks, six at a time): `inLane(fn)` runs
 * `fn` once the pieces queued before it have run and a turn of the event loop has passed since
 * the last one, and resolves to what `fn` returns (awaited). Only `fn`'s synchronous part holds
 * the lane, not what it starts: an upstream fetch or an R2 write is in flight meanwhile while the
 * next piece runs. Pieces that wait on their own turns instead resume together after the same poll
 * and run back to back: six stocks' pieces in one stretch.
 *
 * One lane per invocation, never one per isolate: workerd cancels the timers of a request that has
 * answered, so a lane whose last turn belonged to a finished request would never open again (the
 * next backfill chunk hung on it).
 */
export function workLane(): <T>(fn: () => T) => Promise<Awaited<T>> {
  let open: Promise<void> = Promise.resolve()
  return <T>(fn: () => T) => {
    // Boxed, so that the lane does not wait for a promise `fn` returns to settle.
    const started = open.then(() => ({ result: fn() }))
    open = started.then(nextTurn, nextTurn)
    return started.then((s) => s.result as Awaited<T>)
  }
}


/**
 * A pacer for a loop of job work: call it after each piece with the piece's cost (1 by default);
 * once the costs since the last turn reach `budget`, it returns {@link nextTurn}'s promise to
 * await, and otherwise undefined (nothing to wait for).
 */
export function pacer(budget: number): (cost?: number) => Promise<void> | undefined {
  let spent = 0
  return (cost = 1) => {
    spent += cost
    if (spent < budget) return undefined
    spent = 0
    return nextTurn()
  }
}

/**
 * `ctx` whose upstream calls start after a turn of the event loop and whose answers come after
 * another, before the job parses them: job code that walks hundreds of upstream pages lets
 * requests in between them (under the emulator every answer is computed in-process when the call
 * starts, like the rest of the job). Not through a job lane ({@link workLane}): a call's timeout
 * runs from its start, and a call queued behind a chunk's other pieces timed out waiting.
 */
export function pacedContext(ctx: ChannelContext): ChannelContext {
  return {
    ...ctx,
    fetch: async (input, init) => {
      await nextTurn()
      const res = await ctx.fetch(input, init)
      await nextTurn()
      return res
    },
  }
}

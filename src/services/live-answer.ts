import type { Attempt, FailoverResult } from '../channels/failover'
import type { ChannelContext, ChannelName } from '../channels/types'
import type { MarketDeps } from './market-deps'

/** A live answer: the failover's result, with `stale` when it was served from kept answers. */
export type LiveResult<T, C extends ChannelName = ChannelName> =
  | (Extract<FailoverResult<T, C>, { ok: true }> & { stale?: true })
  | Extract<FailoverResult<T, C>, { ok: false }>

/** Failures after which kept answers are served: our budget for the host is spent, or the host bans us. */
const HELD_BACK: ReadonlySet<Attempt['kind']> = new Set(['over_budget', 'banned'])

/** True when some channel was held back by the budget or a ban (so a fresh answer was not refused by the data). */
const heldBack = (attempts: readonly Attempt[]): boolean => attempts.some((a) => HELD_BACK.has(a.kind))

/**
 * A live answer (quote lines, books, snapshots) through the failover, and past the budget the
 * freshest answer kept: when no channel answered and some were held back by the request budget or
 * a ban, each channel of `chain` is asked again in order with a context that sends nothing
 * (`keptOnly`, src/channels/live-lines.ts), and the first kept answer is served with `stale`. Its
 * own time stamp says how old it is; the route's `as_of` carries it.
 */
export async function fetchLive<T, C extends ChannelName>(
  deps: Pick<MarketDeps, 'failover' | 'channelContext'>,
  key: string,
  chain: readonly C[],
  call: (channel: C, ctx: ChannelContext) => Promise<T>
): Promise<LiveResult<T, C>> {
  const r = await deps.failover.run(key, chain, (channel) => call(channel, deps.channelContext))
  if (r.ok || !heldBack(r.attempts)) return r
  const kept: ChannelContext = { ...deps.channelContext, keptOnly: true }
  for (const channel of chain) {
    try {
      return { ok: true, value: await call(channel, kept), channel, attempts: r.attempts, stale: true }
    } catch {
      // Nothing kept on this channel: the next may have it.
    }
  }
  return r
}

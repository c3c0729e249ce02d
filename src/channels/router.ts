import { CircuitBreaker, type BreakerOptions, type BreakerState } from './circuit-breaker'
import { ChannelError, type ChannelFailureKind } from './errors'
import type { ChannelName } from './types'

/** One channel that was tried and failed, for the `ok:false` explanation. */
export interface Attempt {
  channel: ChannelName
  kind: ChannelFailureKind | 'skipped'
  message: string
}

export type RouteResult<T, C extends ChannelName = ChannelName> =
  | { ok: true; value: T; channel: C; attempts: Attempt[] }
  | { ok: false; attempts: Attempt[] }

export interface RouterOptions {
  breaker: BreakerOptions
  /** How long a failover sticks: the last good channel is tried first for this long. */
  stickyMs: number
  now: () => number
}

export const DEFAULT_ROUTER_OPTIONS: Omit<RouterOptions, 'now'> = {
  breaker: { threshold: 3, cooldownMs: 30_000 },
  stickyMs: 5 * 60_000,
}

/**
 * Tries channels in order until one answers. Skips a channel whose circuit is open, moves on
 * after any typed failure, and remembers the last good channel per route key so that a failover
 * sticks for a while instead of hammering a broken upstream on every call. "Empty" and
 * "unsupported" answers say nothing about a channel's health and do not trip its breaker.
 */
export class ChannelRouter {
  private readonly breakers = new Map<ChannelName, CircuitBreaker>()
  private readonly lastGood = new Map<string, { channel: ChannelName; at: number }>()

  constructor(private readonly opts: RouterOptions) {}

  breaker(channel: ChannelName): CircuitBreaker {
    let b = this.breakers.get(channel)
    if (!b) this.breakers.set(channel, (b = new CircuitBreaker(this.opts.breaker, this.opts.now)))
    return b
  }

  /** Circuit state of every channel seen so far. */
  states(): Partial<Record<ChannelName, BreakerState>> {
    return Object.fromEntries([...this.breakers].map(([n, b]) => [n, b.state()]))
  }

  /** True unless every channel among `channels` has an open circuit. */
  anyAvailable(channels: readonly ChannelName[]): boolean {
    return channels.some((c) => this.breaker(c).state() !== 'open')
  }

  /** Forgets breaker and failover state (tests, and the emulator's reset). */
  reset(): void {
    this.breakers.clear()
    this.lastGood.clear()
  }

  /** The order to try for `key`: the last good channel first while it is fresh. */
  order<C extends ChannelName>(key: string, chain: readonly C[]): C[] {
    const good = this.lastGood.get(key)
    const first = chain.find((c) => c === good?.channel)
    if (!good || this.opts.now() - good.at > this.opts.stickyMs || first === undefined) return [...chain]
    return [first, ...chain.filter((c) => c !== first)]
  }

  async run<T, C extends ChannelName = ChannelName>(key: string, chain: readonly C[], call: (channel: C) => Promise<T>): Promise<RouteResult<T, C>> {
    const attempts: Attempt[] = []
    const ordered = this.order(key, chain)
    let tried = 0
    for (const channel of ordered) {
      if (!this.breaker(channel).allow()) {
        attempts.push({ channel, kind: 'skipped', message: 'circuit open' })
        continue
      }
      tried++
      const r = await this.attempt(key, channel, call, attempts)
      if (r) return r
    }
    // With every circuit open, asking is better than refusing: try them all in order.
    if (tried === 0) {
      for (const channel of ordered) {
        const r = await this.attempt(key, channel, call, attempts)
        if (r) return r
      }
      return { ok: false, attempts }
    }
    // Every channel asked failed or had nothing while others sat behind open circuits: probe the one
    // that opened first rather than fail for the rest of its cooldown (an upstream back from an
    // outage would otherwise wait out every breaker while the one left says "empty").
    const skipped = ordered.filter((c) => attempts.some((a) => a.channel === c && a.kind === 'skipped'))
    const probe = skipped.sort((a, b) => (this.breaker(a).openedSince ?? 0) - (this.breaker(b).openedSince ?? 0)).find((c) => this.breaker(c).probe())
    if (probe !== undefined) {
      const r = await this.attempt(key, probe, call, attempts)
      if (r) return r
    }
    return { ok: false, attempts }
  }

  private async attempt<T, C extends ChannelName>(
    key: string,
    channel: C,
    call: (channel: C) => Promise<T>,
    attempts: Attempt[]
  ): Promise<RouteResult<T, C> | null> {
    const b = this.breaker(channel)
    try {
      const value = await call(channel)
      b.success()
      this.lastGood.set(key, { channel, at: this.opts.now() })
      return { ok: true, value, channel, attempts }
    } catch (e) {
      const kind: ChannelFailureKind = e instanceof ChannelError ? e.kind : 'malformed'
      // Our own budget says nothing of the host's health either.
      if (kind === 'empty' || kind === 'unsupported' || kind === 'over_budget') b.neutral()
      else b.failure()
      attempts.push({ channel, kind, message: e instanceof Error ? e.message : String(e) })
      return null
    }
  }
}

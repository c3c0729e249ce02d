import { CircuitBreaker, DEFAULT_BAN_BACKOFF, type BackoffView, type BreakerOptions, type BreakerState } from './circuit-breaker'
import { ChannelError, plainWords, type ChannelFailureKind } from './errors'
import type { ChannelName } from './types'

/** One channel that was tried and failed, for the `ok:false` explanation. */
export interface Attempt {
  channel: ChannelName
  kind: ChannelFailureKind | 'skipped'
  message: string
}

export type FailoverResult<T, C extends ChannelName = ChannelName> =
  | { ok: true; value: T; channel: C; attempts: Attempt[] }
  | { ok: false; attempts: Attempt[] }

export interface FailoverOptions {
  breaker: BreakerOptions
  /** How long a failover sticks: the last good channel is tried first for this long. */
  stickyMs: number
  now: () => number
}

export const DEFAULT_FAILOVER_OPTIONS: Omit<FailoverOptions, 'now'> = {
  breaker: { threshold: 3, cooldownMs: 30_000, ban: DEFAULT_BAN_BACKOFF },
  stickyMs: 5 * 60_000,
}

/** Why a banned channel was skipped: the rest of its backoff step, or its probe already out. */
const backingOff = (leftMs: number): string => (leftMs > 0 ? `backing off for another ${Math.ceil(leftMs / 1000)} s` : 'backing off, its probe is out')

/** One family key the failover has run, with the channels it may ask, in the table's order. */
export interface SeenFamily {
  key: string
  chain: readonly ChannelName[]
}

/**
 * Tries channels in order until one answers. Skips a channel whose circuit is open, moves on
 * after any typed failure, and remembers the last good channel per family key so that a failover
 * sticks for a while instead of hammering a broken upstream on every call. "Empty" and
 * "unsupported" answers say nothing about a channel's health and do not trip its breaker. A
 * `banned` failure opens the breaker at once with a backoff (src/channels/circuit-breaker.ts), and
 * a banned channel is left out of every shortcut that would ask an open circuit anyway: its host
 * sees one probe per backoff step, and a call it was skipped for lists it as `banned`.
 */
export class Failover {
  private readonly breakers = new Map<ChannelName, CircuitBreaker>()
  private readonly lastGood = new Map<string, { channel: ChannelName; at: number }>()
  /** Every family key run, with its chain (the last one given): what /v1/status's families are read from. */
  private readonly seen = new Map<string, readonly ChannelName[]>()

  constructor(private readonly opts: FailoverOptions) {}

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

  /** The ban backoff of `channel`, or null when it is not banned (or never seen). */
  backoff(channel: ChannelName): BackoffView | null {
    return this.breakers.get(channel)?.banned() ?? null
  }

  /** Every family key run so far, with its chain. */
  routes(): SeenFamily[] {
    return [...this.seen].map(([key, chain]) => ({ key, chain }))
  }

  /** The channel a call of `key` would ask first now: the first of {@link order} whose circuit is not open, or null. */
  serving(key: string, chain: readonly ChannelName[]): ChannelName | null {
    return this.order(key, chain).find((c) => this.breaker(c).state() !== 'open') ?? null
  }

  /** Forgets breaker and failover state (tests, and the emulator's reset). */
  reset(): void {
    this.breakers.clear()
    this.lastGood.clear()
    this.seen.clear()
  }

  /** The order to try for `key`: the last good channel first while it is fresh. */
  order<C extends ChannelName>(key: string, chain: readonly C[]): C[] {
    const good = this.lastGood.get(key)
    const first = chain.find((c) => c === good?.channel)
    if (!good || this.opts.now() - good.at > this.opts.stickyMs || first === undefined) return [...chain]
    return [first, ...chain.filter((c) => c !== first)]
  }

  async run<T, C extends ChannelName = ChannelName>(key: string, chain: readonly C[], call: (channel: C) => Promise<T>): Promise<FailoverResult<T, C>> {
    const attempts: Attempt[] = []
    if (this.seen.get(key) !== chain) this.seen.set(key, chain)
    const ordered = this.order(key, chain)
    let tried = 0
    for (const channel of ordered) {
      const b = this.breaker(channel)
      if (!b.allow()) {
        const ban = b.banned()
        attempts.push(ban ? { channel, kind: 'banned', message: `${channel}: banned: ${backingOff(ban.until - this.opts.now())}` } : { channel, kind: 'skipped', message: 'circuit open' })
        continue
      }
      tried++
      const r = await this.attempt(key, channel, call, attempts)
      if (r) return r
    }
    // With every circuit open, asking is better than refusing: try them all in order (a banned one
    // excepted: it is asked once a step, by allow()).
    if (tried === 0) {
      for (const channel of ordered) {
        if (this.breaker(channel).banned()) continue
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
  ): Promise<FailoverResult<T, C> | null> {
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
      else if (kind === 'banned') b.ban()
      else b.failure()
      // A ChannelError's message is plain words already; anything else thrown (a parser's own error
      // may quote the input, as JSON.parse's does) is described the same way.
      const message = e instanceof ChannelError ? e.message : `${channel}: malformed: ${plainWords(e instanceof Error ? e.message : String(e))}`
      attempts.push({ channel, kind, message })
      return null
    }
  }
}

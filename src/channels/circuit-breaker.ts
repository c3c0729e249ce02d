/** Breaker settings: open after `threshold` consecutive failures, for `cooldownMs`. */
export interface BreakerOptions {
  threshold: number
  cooldownMs: number
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/** The least time between two probes of one open circuit (see {@link CircuitBreaker.probe}). */
const PROBE_INTERVAL_MS = 1_000

/**
 * A per-channel circuit breaker. After `threshold` consecutive failures the circuit opens and
 * the router skips the channel; once `cooldownMs` has passed one trial call is let through
 * (half-open): success closes the circuit, failure opens it for another cooldown.
 */
export class CircuitBreaker {
  private failures = 0
  private openedAt: number | null = null
  /** When the half-open trial call was let through; null when none is out. */
  private trialSince: number | null = null
  /** When the last probe of the open circuit went out (see {@link probe}). */
  private lastProbe: number | null = null

  constructor(
    private readonly opts: BreakerOptions,
    private readonly now: () => number
  ) {}

  state(): BreakerState {
    if (this.openedAt === null) return 'closed'
    return this.now() - this.openedAt >= this.opts.cooldownMs ? 'half-open' : 'open'
  }

  /**
   * True when a call may go to the channel now (claims the single half-open trial). A trial that
   * has not reported back within a cooldown is taken as abandoned (its request ended before the
   * call settled, e.g. cut off by the request deadline), so the channel is not skipped for ever.
   */
  allow(): boolean {
    const s = this.state()
    if (s === 'closed') return true
    if (s === 'open') return false
    if (this.trialSince !== null && this.now() - this.trialSince < this.opts.cooldownMs) return false
    this.trialSince = this.now()
    return true
  }

  /** When the circuit opened (the last failure while open), or null when closed. */
  get openedSince(): number | null {
    return this.openedAt
  }

  /**
   * A probe of an open circuit, for a call that has no other channel left: at most one every
   * {@link PROBE_INTERVAL_MS}, so a channel that is really down costs one extra attempt a second,
   * not one per call, while one that came back is found at once instead of after the cooldown.
   */
  probe(): boolean {
    const now = this.now()
    if (this.openedAt === null || (this.lastProbe !== null && now - this.lastProbe < PROBE_INTERVAL_MS && now >= this.lastProbe)) return false
    this.lastProbe = now
    return true
  }

  success(): void {
    this.failures = 0
    this.openedAt = null
    this.trialSince = null
  }

  failure(): void {
    this.trialSince = null
    this.failures++
    if (this.openedAt !== null || this.failures >= this.opts.threshold) this.openedAt = this.now()
  }

  /** Ends a call that proved nothing about the channel's health (e.g. an unknown symbol). */
  neutral(): void {
    if (this.trialSince !== null) this.success()
  }
}

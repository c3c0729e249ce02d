/** Breaker settings: open after `threshold` consecutive failures, for `cooldownMs`. */
export interface BreakerOptions {
  threshold: number
  cooldownMs: number
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/**
 * A per-channel circuit breaker. After `threshold` consecutive failures the circuit opens and
 * the router skips the channel; once `cooldownMs` has passed one trial call is let through
 * (half-open): success closes the circuit, failure opens it for another cooldown.
 */
export class CircuitBreaker {
  private failures = 0
  private openedAt: number | null = null
  private trialInFlight = false

  constructor(
    private readonly opts: BreakerOptions,
    private readonly now: () => number
  ) {}

  state(): BreakerState {
    if (this.openedAt === null) return 'closed'
    return this.now() - this.openedAt >= this.opts.cooldownMs ? 'half-open' : 'open'
  }

  /** True when a call may go to the channel now (claims the single half-open trial). */
  allow(): boolean {
    const s = this.state()
    if (s === 'closed') return true
    if (s === 'open' || this.trialInFlight) return false
    this.trialInFlight = true
    return true
  }

  success(): void {
    this.failures = 0
    this.openedAt = null
    this.trialInFlight = false
  }

  failure(): void {
    this.trialInFlight = false
    this.failures++
    if (this.openedAt !== null || this.failures >= this.opts.threshold) this.openedAt = this.now()
  }

  /** Ends a call that proved nothing about the channel's health (e.g. an unknown symbol). */
  neutral(): void {
    if (this.trialInFlight) {
      this.trialInFlight = false
      this.success()
    }
  }
}

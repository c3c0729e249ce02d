/**
 * Backoff after a ban (src/channels/ban.ts): the first step lasts `baseMs`, each failed probe
 * doubles it up to `capMs`, and every step is stretched or shrunk by a random factor within
 * ±`jitter` (0.2: ±20 %), so that isolates banned together do not probe together.
 */
export interface BanBackoff {
  baseMs: number
  capMs: number
  jitter: number
}

/** 30 s doubling to 30 min, ±20 %: the steps are 30 s, 1, 2, 4, 8, 16 min, then 30 min. */
export const DEFAULT_BAN_BACKOFF: BanBackoff = { baseMs: 30_000, capMs: 30 * 60_000, jitter: 0.2 }

/** Breaker settings: open after `threshold` consecutive failures, for `cooldownMs`; `ban`, how a ban backs off. */
export interface BreakerOptions {
  threshold: number
  cooldownMs: number
  /** {@link DEFAULT_BAN_BACKOFF} when absent. */
  ban?: BanBackoff
}

export type BreakerState = 'closed' | 'open' | 'half-open'

/** A ban's backoff as /v1/status shows it: the step (1 = the first) and when it ends. */
export interface BackoffView {
  step: number
  until: number
}

/** The least time between two probes of one open circuit (see {@link CircuitBreaker.probe}). */
const PROBE_INTERVAL_MS = 1_000

/**
 * A per-channel circuit breaker. After `threshold` consecutive failures the circuit opens and
 * the failover skips the channel; once `cooldownMs` has passed one trial call is let through
 * (half-open): success closes the circuit, failure opens it for another cooldown.
 *
 * A ban ({@link ban}) opens it at once and backs off instead: the circuit stays open for the step
 * ({@link BanBackoff}), then lets exactly one probe through; a failed probe starts the next, doubled
 * step, a successful one closes the circuit and forgets the steps. While it backs off, neither the
 * failover's {@link probe} shortcut nor the cooldown's trial applies, so the host sees at most one
 * request of ours per step; and the outcome of a call sent before the ban (still in flight when it
 * came) counts for nothing.
 */
export class CircuitBreaker {
  private failures = 0
  private openedAt: number | null = null
  /** When the half-open trial call (or a ban's probe) was let through; null when none is out. */
  private trialSince: number | null = null
  /** When the last probe of the open circuit went out (see {@link probe}). */
  private lastProbe: number | null = null
  /** The ban's backoff step (1 = the first), 0 when not banned. */
  private banStep = 0
  /** When the current ban step ends. */
  private banUntil = 0
  private readonly backoff: BanBackoff

  constructor(
    private readonly opts: BreakerOptions,
    private readonly now: () => number,
    private readonly random: () => number = Math.random
  ) {
    this.backoff = opts.ban ?? DEFAULT_BAN_BACKOFF
  }

  state(): BreakerState {
    if (this.banStep > 0) return this.now() < this.banUntil ? 'open' : 'half-open'
    if (this.openedAt === null) return 'closed'
    return this.now() - this.openedAt >= this.opts.cooldownMs ? 'half-open' : 'open'
  }

  /** The ban's backoff, or null when the channel is not banned. */
  banned(): BackoffView | null {
    return this.banStep > 0 ? { step: this.banStep, until: this.banUntil } : null
  }

  /** When the cooldown of an ordinary (not ban) open circuit ends, or null when there is none. */
  cooldownUntil(): number | null {
    return this.banStep === 0 && this.openedAt !== null ? this.openedAt + this.opts.cooldownMs : null
  }

  /**
   * True when a call may go to the channel now (claims the single half-open trial). A trial that
   * has not reported back within a cooldown is taken as abandoned (its request ended before the
   * call settled, e.g. cut off by the request deadline), so the channel is not skipped for ever.
   * A ban's probe abandoned so (no answer within a base step) counts as a failed probe.
   */
  allow(): boolean {
    if (this.banStep > 0) return this.allowProbe()
    const s = this.state()
    if (s === 'closed') return true
    if (s === 'open') return false
    if (this.trialSince !== null && this.now() - this.trialSince < this.opts.cooldownMs) return false
    this.trialSince = this.now()
    return true
  }

  private allowProbe(): boolean {
    const now = this.now()
    if (now < this.banUntil) return false
    if (this.trialSince !== null) {
      if (now - this.trialSince < this.backoff.baseMs) return false
      this.nextStep()
      return false
    }
    this.trialSince = now
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
   * Never while a ban backs off: that probe is {@link allow}'s, one per step.
   */
  probe(): boolean {
    const now = this.now()
    if (this.banStep > 0) return false
    if (this.openedAt === null || (this.lastProbe !== null && now - this.lastProbe < PROBE_INTERVAL_MS && now >= this.lastProbe)) return false
    this.lastProbe = now
    return true
  }

  success(): void {
    if (this.straggler()) return
    this.failures = 0
    this.openedAt = null
    this.trialSince = null
    this.banStep = 0
    this.banUntil = 0
  }

  failure(): void {
    if (this.banStep > 0) {
      // A ban's probe that failed another way (a timeout, a 502) is a failed probe all the same.
      if (!this.straggler()) this.nextStep()
      return
    }
    this.trialSince = null
    this.failures++
    if (this.openedAt !== null || this.failures >= this.opts.threshold) this.openedAt = this.now()
  }

  /** The host refuses us: open at once, for the first step, or the next one after a failed probe. */
  ban(): void {
    if (this.straggler()) return
    this.nextStep()
  }

  /** Ends a call that proved nothing about the channel's health (e.g. an unknown symbol). */
  neutral(): void {
    if (this.trialSince !== null) this.success()
  }

  /**
   * True for the outcome of a call sent before the ban while the step runs and no probe is out: it
   * tells nothing new (it neither lifts the ban nor doubles the step).
   */
  private straggler(): boolean {
    return this.banStep > 0 && this.trialSince === null && this.now() < this.banUntil
  }

  /** Starts the next backoff step now (the first when not banned). */
  private nextStep(): void {
    const now = this.now()
    const { baseMs, capMs, jitter } = this.backoff
    this.banStep++
    const length = Math.min(baseMs * 2 ** (this.banStep - 1), capMs)
    const factor = 1 + jitter * (2 * this.random() - 1)
    this.banUntil = now + Math.round(length * factor)
    this.openedAt = now
    this.trialSince = null
    this.failures = 0
  }
}

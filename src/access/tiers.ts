import { KEYED_CAPS, type CallerCaps } from '../domain/kline-rules'
/**
 * The tiers table: one place that the admission middleware, `/openapi.json` and the tables of README.md and docs/access.md read.
 * Anonymous callers are served as `free`.
 */
export const TIERS = ['free', 'trial', 'standard', 'pro', 'unlimited'] as const
export type Tier = (typeof TIERS)[number]

export interface TierLimits {
  /** Calls per minute (anonymous: scripts; see ANONYMOUS for browsers and proof-of-work). */
  perMinute: number
  /** market-kline calls a day (0 = not allowed). */
  heavyPerDay: number
  /** Symbols per technical-batch call (0 = not allowed). */
  technicalBatchSymbols: number
}

export const TIER_LIMITS: Record<Tier, TierLimits> = {
  free: { perMinute: 2, heavyPerDay: 0, technicalBatchSymbols: 0 },
  trial: { perMinute: 30, heavyPerDay: 0, technicalBatchSymbols: 0 },
  standard: { perMinute: 120, heavyPerDay: 0, technicalBatchSymbols: 0 },
  pro: { perMinute: 300, heavyPerDay: 200, technicalBatchSymbols: 500 },
  unlimited: { perMinute: 600, heavyPerDay: 1000, technicalBatchSymbols: 1000 },
}

/**
 * Push quotes (`GET /v1/stream`, docs/access.md "Streams"): open connections per key across the
 * service, and symbols per connection. Anonymous callers (`free`) get none. A stream's opening is
 * one counted call; while open it records one usage unit per started minute (the first is the
 * opening call's), outside the minute limit: polling the same symbols at the stream's 3 s freshness
 * would take at least 20 calls a minute.
 */
export interface StreamLimits {
  connections: number
  symbols: number
}

export const STREAM_LIMITS: Record<Tier, StreamLimits> = {
  free: { connections: 0, symbols: 0 },
  trial: { connections: 1, symbols: 20 },
  standard: { connections: 2, symbols: 50 },
  pro: { connections: 5, symbols: 200 },
  unlimited: { connections: 20, symbols: 500 },
}

/** Anonymous allowances (docs/access.md): 2 calls a minute for scripts, 5 for browsers, 60 with proof-of-work. */
export const ANONYMOUS = {
  perMinuteScript: 2,
  perMinuteBrowser: 5,
  perMinuteWithPow: 60,
  symbolsPerCall: 5,
  barsPerCall: 250,
  rowsPerDay: 100_000,
} as const

/** Rank for comparisons: a caller may use an endpoint when rank(tier) >= rank(minimum). */
export const tierRank = (t: Tier): number => TIERS.indexOf(t)

/** What an endpoint requires and costs; routes declare one of these and the docs show it. */
export interface AccessPolicy {
  /**
   * Who may call: `open`, anyone (anonymous callers are served as tier `free`: the published
   * contract's "free group"); `keyed`, only a caller with a key (its "pro group").
   */
  group: 'open' | 'keyed'
  minTier: Tier
  /** Tiers refused even though they rank above minTier's predecessor (kline-full refuses trial). */
  excludeTiers?: Tier[]
  /** Usage units per call (market-kline 500); technical-batch is billed per symbol instead. */
  cost: number
  heavy?: boolean
  /** Counted against limits and usage (health is not). */
  counted: boolean
}

/** The caps for a caller's tier: anonymous (`free`) callers are capped, key holders are not. */
export function callerCaps(tier: Tier): CallerCaps {
  return tier === 'free'
    ? { maxSymbols: ANONYMOUS.symbolsPerCall, maxCount: ANONYMOUS.barsPerCall, who: 'an anonymous call (use an API key for more)' }
    : KEYED_CAPS
}

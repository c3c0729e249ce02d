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
  group: 'free' | 'pro'
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

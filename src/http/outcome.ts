/**
 * One vocabulary for answers without data: the `code` of every `ok:false` envelope (listed in
 * /openapi.json through {@link FailureCodeSchema}), and the one way a route turns what its channels
 * answered into that code and its `error` text.
 */
import { z } from '@hono/zod-openapi'
import type { Attempt } from '../channels/failover'

/** Every `code` an `ok:false` envelope can carry. None of them is counted. */
const FAILURE_CODES = [
  /** Every channel answered, and none had data for the request. */
  'NO_DATA',
  /**
   * At least one channel failed (timeout, HTTP error, malformed answer, a ban or a channel backing
   * off after one: `banned`, src/channels/ban.ts) and none served.
   */
  'UPSTREAM_UNAVAILABLE',
  /** The store-backed endpoints while the history is being built (with `progress`). */
  'BUILDING',
  /** A scheduled job has not built the data yet (industry-chain). */
  'NOT_BUILT',
  /** trade-calendar: the exchanges have not published that year. */
  'NOT_PUBLISHED',
  /** screen: no stock meets the expression. */
  'NO_MATCH',
  /** screen: a factor the expression names is not in the table of that day. */
  'FACTOR_UNAVAILABLE',
  /** The request deadline passed (HTTP 504). */
  'DEADLINE_EXCEEDED',
] as const

export type FailureCode = (typeof FAILURE_CODES)[number]

export const FailureCodeSchema = z.enum(FAILURE_CODES)

/** The two codes an upstream failure can end in. */
export type UpstreamFailureCode = Extract<FailureCode, 'NO_DATA' | 'UPSTREAM_UNAVAILABLE'>

/** True when every channel asked answered that it has nothing, or does not serve the request (not that it failed). */
export const allSaidNothing = (attempts: readonly Attempt[]): boolean => attempts.length > 0 && attempts.every((a) => a.kind === 'empty' || a.kind === 'unsupported')

/**
 * What each channel answered, in one line: `eastmoney: http: HTTP 502; tencent: timeout: no answer
 * within 4000 ms; sina: banned: backing off for another 21 s`.
 */
export function describeAttempts(attempts: readonly Attempt[]): string {
  if (attempts.length === 0) return 'no channel serves this request'
  return attempts.map((a) => `${a.channel}: ${a.kind === 'skipped' ? a.message : a.message.replace(`${a.channel}: `, '')}`).join('; ')
}

/**
 * The `code` and `error` of an answer after every channel failed: NO_DATA when all said
 * "nothing", else UPSTREAM_UNAVAILABLE; `error` names `subject` (a code, a table) when given.
 */
export function upstreamFailure(attempts: readonly Attempt[], subject?: string): { code: UpstreamFailureCode; error: string } {
  const why = describeAttempts(attempts)
  return { code: allSaidNothing(attempts) ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE', error: subject ? `${subject}: ${why}` : why }
}

/**
 * The fields of a live answer served from what the service kept, past the request budget or during
 * a ban (src/services/live-answer.ts): `stale`, and a notice saying why no fresh answer was asked for.
 */
export function keptAnswerFields(attempts: readonly Attempt[]): { stale: true; notice: string } {
  return { stale: true, notice: `stale: no fresh answer could be asked for (${describeAttempts(attempts)}); this is the last one fetched, as of as_of` }
}

/** The whole `ok:false` body of a route after every channel failed, with the route's empty `data`. */
export function upstreamFailureBody<T>(attempts: readonly Attempt[], subject: string | undefined, empty: T) {
  return { ok: false as const, source: 'none', data: empty, ...upstreamFailure(attempts, subject) }
}

import type { Attempt } from '../channels/router'
import { describeAttempts } from './series-response'

/**
 * The `ok:false` body of a market-level endpoint whose upstreams failed: `NO_DATA` when every
 * channel answered "nothing", else `UPSTREAM_UNAVAILABLE`; `error` says what each one answered.
 */
export function failureBody<T>(what: string, attempts: Attempt[], empty: T) {
  const allEmpty = attempts.length > 0 && attempts.every((a) => a.kind === 'empty')
  return {
    ok: false as const,
    source: 'none',
    data: empty,
    code: allEmpty ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE',
    error: `${what}: ${describeAttempts(attempts)}`,
  }
}

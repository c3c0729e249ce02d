import type { Context } from 'hono'
import type { Tier } from '../access/tiers'
import type { AppEnv } from './context'

/** The fields every data endpoint answers with (SPEC: Response envelope). */
export interface Envelope<T> {
  ok: boolean
  endpoint: string
  tier: Tier
  elapsed_ms: number
  source: string
  data: T
  [extra: string]: unknown
}

/**
 * Builds the envelope for a data endpoint. Extra fields (`as_of`, `error`, counters) follow the
 * standard ones. `elapsed_ms` is measured from the start of the request pipeline.
 */
export function envelope<T>(
  c: Context<AppEnv>,
  endpoint: string,
  body: { ok: boolean; source: string; data: T } & Record<string, unknown>
): Envelope<T> {
  const { ok, source, data, ...extra } = body
  return {
    ok,
    endpoint,
    tier: c.get('tier'),
    elapsed_ms: Math.max(0, Math.round(performance.now() - c.get('startedAt'))),
    source,
    data,
    ...extra,
  }
}

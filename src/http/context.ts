import type { MiddlewareHandler } from 'hono'
import type { Tier } from '../access/tiers'
import type { Services } from '../services/types'

export type CallerKind = 'browser' | 'script'

/** Per-request values every later stage reads. */
interface RequestVars {
  requestId: string
  startedAt: number
  clientIp: string
  callerKind: CallerKind
  tier: Tier
  /** SHA-256 of the caller's API key; absent for anonymous callers. */
  keyHash?: string
  /** The key's buyout-pack cap, when it has one. */
  packUnits?: number | null
  /** Channels, clock and labels of this deployment (see src/services/index.ts). */
  services: Services
  /** The anonymous cache key of this request, once computed. */
  anonKey?: string
  /** An anonymous answer found in isolate memory before admission (see anonMemoryHit). */
  anonHit?: CachedAnswer
  /** A store read started during admission: the object under `key`, or null (see Prefetch). */
  prefetched?: { key: string; object: Promise<R2ObjectBody | null> }
  /** The form of the answer a tabular route was asked for (src/http/csv-answer.ts); unset elsewhere. */
  answerFormat?: 'json' | 'csv'
}

/**
 * An answer as this isolate keeps it: parsed once for what admission needs (ok, rows), and split
 * around its `elapsed_ms` value, so serving it again is two string joins instead of a JSON parse
 * and stringify of the whole answer.
 */
export interface CachedAnswer {
  ok: boolean
  /** Rows it counts against the anonymous daily cap. */
  rows: number
  /** The answer's text up to and including `"elapsed_ms":`. */
  head: string
  /** The rest after the elapsed value, with `"cached":true` before the closing brace. */
  tail: string
}

/** The part of an answer that billing cares about, attached to it by src/http/answer.ts. */
export interface Outcome {
  ok: boolean
  /** Data rows returned (bars, calendar rows, stocks); anonymous callers have a daily row cap. */
  rows: number
  /** Usage units actually used when they differ from the policy's cost (technical-batch: symbols returned). */
  units?: number
}

export type AppEnv = { Bindings: Env; Variables: RequestVars }

/**
 * Browsers announce themselves through Fetch Metadata (`Sec-Fetch-Mode`) or an `Origin` header;
 * scripts, SDKs and agents send neither. The distinction sets the anonymous allowance (5 vs 2).
 */
function callerKindOf(headers: Headers): CallerKind {
  return headers.get('sec-fetch-mode') || headers.get('origin') ? 'browser' : 'script'
}

/** Stage 1 of the pipeline: start time, client IP, caller kind, default tier. */
export const requestContext = (services: Services): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set('services', services)
  services.storedBars.attach(c.env.STORE)
  c.set('startedAt', performance.now())
  c.set('clientIp', c.req.header('cf-connecting-ip') ?? '127.0.0.1')
  c.set('callerKind', callerKindOf(c.req.raw.headers))
  c.set('tier', 'free')
  await next()
  // Under the emulator every answer says its data is simulated (the envelope says it too).
  if (services.simulated) markSimulated(c)
}

/** The header that marks an answer built from the emulator's simulated market. */
const SIMULATED_HEADER = 'X-Data-Simulated'

function markSimulated(c: Parameters<MiddlewareHandler<AppEnv>>[0]): void {
  try {
    c.res.headers.set(SIMULATED_HEADER, 'true')
  } catch {
    // A response with immutable headers (a fetched asset): copy it to mark it.
    c.res = new Response(c.res.body, c.res)
    c.res.headers.set(SIMULATED_HEADER, 'true')
  }
}

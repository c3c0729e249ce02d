import type { Context } from 'hono'
import type { Attempt } from '../channels/router'
import type { ChannelName } from '../channels/types'
import { beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import type { Services } from '../services'
import { referenceCached } from '../store/reference-cache'
import { describeAttempts } from './series-response'

/** What a reference route got: the value and who served it when, or why nothing came. */
export type ReferenceResult<T> =
  | { ok: true; value: T; source: string; as_of: string }
  | { ok: false; source: string; code: 'NO_DATA' | 'UPSTREAM_UNAVAILABLE'; error: string }

/** `YYYY-MM-DD HH:MM:SS`, Beijing time. */
export const beijingStamp = (ms: number) => {
  const b = beijing(ms)
  return `${b.date} ${b.time}`
}

/**
 * One reference answer through the service-wide cache: on a miss, the channels of `chain` in turn
 * (the router's failover and breakers), and the first answer is kept for every caller. `key` must
 * name everything the answer depends on (resolved dates included). Failures are not cached.
 */
export async function fetchReference<T>(
  c: Context<AppEnv>,
  services: Services,
  key: string,
  chain: readonly ChannelName[],
  call: (channel: ChannelName) => Promise<T>
): Promise<ReferenceResult<T>> {
  const now = services.now()
  let failed: Attempt[] = []
  const got = await referenceCached<{ channel: ChannelName; value: T } | null>(c.env.CACHE, key, now, async () => {
    const r = await services.router.run(key.split('?')[0], chain, call)
    if (!r.ok) {
      failed = r.attempts
      return { value: null, keep: false }
    }
    return { value: { channel: r.channel, value: r.value }, keep: true }
  })
  if (got.value) return { ok: true, value: got.value.value, source: services.sourcePrefix + got.value.channel, as_of: beijingStamp(got.at) }
  const allEmpty = failed.length > 0 && failed.every((a) => a.kind === 'empty')
  return { ok: false, source: 'none', code: allEmpty ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE', error: describeAttempts(failed) }
}

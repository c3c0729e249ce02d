import type { BreakerState, BackoffView } from '../channels/circuit-breaker'
import { HEALTH_MINUTES, HOSTS, type HostCounts } from '../channels/host-health'
import { klinePlans, quoteChannels } from '../channels/channel-tables'
import type { ChannelName } from '../channels/types'
import { isoInstant } from '../domain/instant'

/** What a host's breaker lets through now: everything, nothing until `backoff_until`, or one probe. */
type HostState = 'serving' | 'backing_off' | 'probing'

/** One upstream host as GET /v1/status shows it (src/routes/status.ts). */
interface HostStatus {
  channel: ChannelName
  state: HostState
  backoff_until: string | null
  backoff_step: number | null
  last_success: string | null
  requests_this_minute: number
  budget_per_minute: number | null
  /** Filled by the route from the family's budget object (src/routes/status.ts); null here. */
  budget_used_this_minute: number | null
  error_rate: { minutes: number; requests: number; failures: number }
}

/** Which channel a data family (a failover key) is served from now. */
interface FamilyStatus {
  key: string
  chain: ChannelName[]
  channel: ChannelName | null
}

export interface UpstreamStatus {
  as_of: string
  hosts: HostStatus[]
  families: FamilyStatus[]
}

/** What the status is read from: the failover's breakers and order, and the isolate's host counters. */
export interface StatusSources {
  breaker(channel: ChannelName): { state(): BreakerState; banned(): BackoffView | null; cooldownUntil(): number | null }
  routes(): Array<{ key: string; chain: readonly ChannelName[] }>
  serving(key: string, chain: readonly ChannelName[]): ChannelName | null
  counts(channel: ChannelName): HostCounts
  /** The family's request budget per minute for the whole service, null when it has none. */
  budget(channel: ChannelName): number | null
  now: number
}

/**
 * The families listed even before a call has run them (the failover's keys for /v1/quote and
 * /v1/kline, src/services/quote-series.ts and bars.ts), in the channel table's order.
 */
const FAMILIES: ReadonlyArray<{ key: string; chain: readonly ChannelName[] }> = [
  { key: 'quote:cn', chain: quoteChannels('stock') },
  { key: 'quote:hk', chain: quoteChannels('hk') },
  { key: 'quote:us', chain: quoteChannels('us') },
  ...(['cn', 'hk', 'us'] as const).flatMap((group) => {
    const kind = group === 'cn' ? 'stock' : group
    return [
      { key: `kline:${group}:day`, chain: klinePlans(kind, 'day').map((p) => p.channel) },
      { key: `kline:${group}:minute`, chain: klinePlans(kind, 'm5').map((p) => p.channel) },
    ]
  }),
]

function hostStatus(src: StatusSources, channel: ChannelName): HostStatus {
  const b = src.breaker(channel)
  const ban = b.banned()
  const s = b.state()
  const state: HostState = s === 'closed' ? 'serving' : s === 'open' ? 'backing_off' : 'probing'
  const until = state === 'backing_off' ? (ban ? ban.until : b.cooldownUntil()) : null
  const c = src.counts(channel)
  return {
    channel,
    state,
    backoff_until: until === null ? null : isoInstant(until),
    backoff_step: ban ? ban.step : null,
    last_success: c.lastSuccess === null ? null : isoInstant(c.lastSuccess),
    requests_this_minute: c.requestsThisMinute,
    budget_per_minute: src.budget(channel),
    budget_used_this_minute: null,
    error_rate: { minutes: HEALTH_MINUTES, requests: c.requests, failures: c.failures },
  }
}

/**
 * The state of every upstream host (breaker, ban backoff, this isolate's traffic) and the channel
 * each data family is served from now: the listed {@link FAMILIES}, then every other failover key
 * seen, by key. Everything is this isolate's view (src/channels/host-health.ts).
 */
export function upstreamStatus(src: StatusSources): UpstreamStatus {
  const seen = new Map(src.routes().map((r) => [r.key, r.chain]))
  const keys = [...FAMILIES.map((f) => f.key), ...[...seen.keys()].filter((k) => !FAMILIES.some((f) => f.key === k)).sort()]
  const families = keys.map((key) => {
    const chain = seen.get(key) ?? FAMILIES.find((f) => f.key === key)!.chain
    return { key, chain: [...chain], channel: src.serving(key, chain) }
  })
  return { as_of: isoInstant(src.now), hosts: HOSTS.map((h) => hostStatus(src, h)), families }
}

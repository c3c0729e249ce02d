/**
 * Typed channel failures. The router moves to the next channel on any of them; the kind is
 * reported so a user (and the circuit breaker) can tell a slow upstream from a broken parser.
 * `banned` is a host refusing us for our volume (src/channels/ban.ts): its breaker opens at once
 * and backs off (src/channels/circuit-breaker.ts).
 */
/** `over_budget`: the service's own request budget for the host is spent this minute (src/channels/budget/host-budget.ts); nothing was sent. */
export type ChannelFailureKind = 'timeout' | 'http' | 'malformed' | 'empty' | 'unsupported' | 'network' | 'over_budget' | 'banned'

export class ChannelError extends Error {
  constructor(
    readonly kind: ChannelFailureKind,
    readonly channel: string,
    message: string,
    /** The upstream's HTTP status, for `http` failures (and `banned` ones answered with a status). */
    readonly status?: number
  ) {
    super(`${channel}: ${kind}: ${message}`)
    this.name = 'ChannelError'
  }
}

export const timeout = (channel: string, ms: number) => new ChannelError('timeout', channel, `no answer within ${ms} ms`)
export const httpError = (channel: string, status: number) => new ChannelError('http', channel, `HTTP ${status}`, status)
export const malformed = (channel: string, why: string) => new ChannelError('malformed', channel, why)
export const empty = (channel: string, why = 'no data') => new ChannelError('empty', channel, why)
export const unsupported = (channel: string, why: string) => new ChannelError('unsupported', channel, why)
export const network = (channel: string, why: string) => new ChannelError('network', channel, why)
/** The host refuses us (a ban status, a captcha page where data was expected): see src/channels/ban.ts. */
export const banned = (channel: string, why: string, status?: number) => new ChannelError('banned', channel, why, status)

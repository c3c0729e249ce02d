import type { ChannelName } from '../domain/channel-name'

/** Every upstream host family, in the order /v1/status lists them. */
export const HOSTS: readonly ChannelName[] = ['eastmoney', 'tencent', 'sina', 'ths', 'hkex']

/** How many one-minute buckets are kept: the error rate covers the last this many minutes. */
export const HEALTH_MINUTES = 5
const MINUTE_MS = 60_000

const INDEX = new Map<string, number>(HOSTS.map((h, i) => [h, i]))

/** What /v1/status shows of one host's traffic. */
export interface HostCounts {
  /** Requests sent in the last {@link HEALTH_MINUTES} minutes, this one included. */
  requests: number
  /** Of them, those that failed at the wire: timeout, network, non-2xx status, ban page. */
  failures: number
  /** Requests sent in the current minute (of the clock, not the last 60 s). */
  requestsThisMinute: number
  /** When the host last answered 200 with something other than a ban page, or null. */
  lastSuccess: number | null
}

/**
 * The upstream traffic of this isolate, per host: requests and wire failures in one-minute buckets
 * over the last {@link HEALTH_MINUTES} minutes, and the last success. Every isolate keeps its own
 * (Workers run many; none sees another's), and a new isolate starts from nothing: what /v1/status
 * shows is one isolate's view. `fetchText` (src/channels/http.ts) reports every request it sends.
 *
 * Fixed typed arrays indexed by host and minute: a report is an index computation and an increment,
 * with no allocation, as the keyed /v1/quote's CPU budget wants.
 */
export class HostHealth {
  /** The minute (epoch ms / 60 000) each bucket holds; -1 when empty. */
  private readonly minuteOf = new Float64Array(HOSTS.length * HEALTH_MINUTES).fill(-1)
  private readonly requests = new Uint32Array(HOSTS.length * HEALTH_MINUTES)
  private readonly failures = new Uint32Array(HOSTS.length * HEALTH_MINUTES)
  /** Epoch ms of the last success per host; 0 when none. */
  private readonly lastOk = new Float64Array(HOSTS.length)

  constructor(private readonly now: () => number) {}

  /** The bucket of `host` for the minute of `at`, emptied first when it held an older minute. */
  private bucket(host: number, at: number): number {
    const minute = Math.floor(at / MINUTE_MS)
    const i = host * HEALTH_MINUTES + (minute % HEALTH_MINUTES)
    if (this.minuteOf[i] !== minute) {
      this.minuteOf[i] = minute
      this.requests[i] = 0
      this.failures[i] = 0
    }
    return i
  }

  /** A request to `channel`'s host is going out (an unknown name is ignored). */
  request(channel: string): void {
    const h = INDEX.get(channel)
    if (h !== undefined) this.requests[this.bucket(h, this.now())]++
  }

  /** The request answered: 200 with a body that is not a ban page. */
  success(channel: string): void {
    const h = INDEX.get(channel)
    if (h !== undefined) this.lastOk[h] = this.now()
  }

  /** The request failed at the wire (timeout, network, status, ban page). */
  failure(channel: string): void {
    const h = INDEX.get(channel)
    if (h !== undefined) this.failures[this.bucket(h, this.now())]++
  }

  /** The counts of `channel` now. */
  counts(channel: ChannelName): HostCounts {
    const h = INDEX.get(channel)!
    const current = Math.floor(this.now() / MINUTE_MS)
    let requests = 0
    let failures = 0
    let requestsThisMinute = 0
    for (let k = 0; k < HEALTH_MINUTES; k++) {
      const i = h * HEALTH_MINUTES + k
      const minute = this.minuteOf[i]
      // Buckets of the last HEALTH_MINUTES minutes only (a clock moved back leaves later ones out too).
      if (minute < 0 || minute > current || current - minute >= HEALTH_MINUTES) continue
      requests += this.requests[i]
      failures += this.failures[i]
      if (minute === current) requestsThisMinute = this.requests[i]
    }
    return { requests, failures, requestsThisMinute, lastSuccess: this.lastOk[h] || null }
  }

  /** Forgets everything (the emulator's reset). */
  clear(): void {
    this.minuteOf.fill(-1)
    this.requests.fill(0)
    this.failures.fill(0)
    this.lastOk.fill(0)
  }
}

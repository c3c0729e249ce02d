import type { Bar, Quote } from '../domain/bar'
import type { ChannelName, SeriesChannelName } from '../domain/channel-name'
import type { Instrument } from '../domain/instrument'
import type { HostHealth } from './host-health'

export type { ChannelName, SeriesChannelName }

/** What a channel needs from the outside world; injected so tests and the emulator can stand in. */
export interface ChannelContext {
  /** The upstream fetch: global `fetch` in production, the emulator's router under the emulator. */
  fetch: typeof fetch
  /** Per-request timeout in milliseconds. */
  timeoutMs: number
  /** Where `fetchText` counts each request and its outcome (/v1/status); absent, nothing is counted. */
  health?: HostHealth
}

/** Periods a channel serves natively; longer ones (season, year, m120) are aggregated by the service. */
export type NativePeriod = 'day' | 'week' | 'month' | 'season' | 'year' | 'm1' | 'm5' | 'm15' | 'm30' | 'm60'

export interface KlineRequest {
  instrument: Instrument
  period: NativePeriod
  /** Most recent `count` bars (within start/end when given). */
  count: number
  /** Inclusive `YYYY-MM-DD` bounds; only for day and minute periods. */
  start?: string
  end?: string
}

/**
 * One upstream family. Each method throws a {@link ChannelError} on failure and never returns
 * partial or unchecked data. Day and longer bars are forward-adjusted (qfq); minute bars are raw.
 * Bars come back oldest first.
 */
export interface Channel {
  readonly name: SeriesChannelName
  /** Real-time quotes for several instruments; instruments the upstream does not know are absent from the map. */
  quotes(instruments: Instrument[], ctx: ChannelContext): Promise<Map<string, Quote>>
  kline(req: KlineRequest, ctx: ChannelContext): Promise<Bar[]>
}

import type { LineCache } from './line-cache'
import type { Bar, Quote } from '../domain/bar'
import type { ChannelName, SeriesChannelName } from '../domain/channel-name'
import type { Instrument } from '../domain/instrument'
import type { HostBudgets } from './budget/host-budget'
import type { HostHealth } from './host-health'

export type { ChannelName, SeriesChannelName }

/** What a channel needs from the outside world; injected so tests and the emulator can stand in. */
export interface ChannelContext {
  /** The upstream fetch: global `fetch` in production, the emulator's request router under the emulator. */
  fetch: typeof fetch
  /** Per-request timeout in milliseconds. */
  timeoutMs: number
  /** The isolate's shared live lines (src/channels/live-lines.ts); without it every call asks the host. */
  lines?: SharedLines
  /** The upstream request budgets (src/channels/budget/host-budget.ts); without them, none. */
  budgets?: HostBudgets
  /** The service's clock (budget minutes, line ages); real time without it. */
  now?: () => number
  /** Where `fetchText` counts each request and its outcome (/v1/status); absent, nothing is counted. */
  health?: HostHealth
  /**
   * Ask no host: answer from the lines and pages the pool keeps, whatever their age (up to a limit,
   * src/channels/live-lines.ts). Set by src/services/live-answer.ts once the budget is spent or the
   * host bans us, so the answer is served stale with its own time stamp; every other request fails
   * as `over_budget` without being sent.
   */
  keptOnly?: boolean
}

/** One multi-code quote feed: how to ask a host for several codes and how its answer is cut per code. */
export interface LineFeed {
  channel: ChannelName
  /** What precedes each code's statement in the answer: `v_` (Tencent), `var hq_str_` (Sina). */
  prefix: string
  /** The request for these codes. */
  url: (codes: readonly string[]) => string
  headers?: Readonly<Record<string, string>>
  encoding: 'utf-8' | 'gbk'
  /** Codes per request the host accepts. */
  batch: number
  /** How long a line of `code` is shared at `now` (service clock, ms). */
  cadenceMs: (code: string, now: number) => number
  /**
   * A feed that is not JavaScript statements (Eastmoney's JSON `ulist.np`): how its answer is cut
   * into one payload per code, and how payloads are put back into an answer its parser reads.
   * Without them, `<prefix><name>="<payload>";` statements.
   */
  format?: {
    split: (text: string) => Array<[name: string, payload: string]>
    join: (lines: ReadonlyArray<{ name: string; payload: string }>) => string
  }
}

/** How a live answer is asked for: the host's text encoding and any headers it needs. */
export interface LiveRequestOptions {
  encoding?: 'utf-8' | 'gbk'
  headers?: Record<string, string>
}

/**
 * One code's statement of a line feed (`v_sh600519="…";` is name `sh600519` and the payload between
 * the quotes). A pooled line is the same object for every call within its cadence, so a parser may
 * keep what it read from it (src/channels/tencent/quotes.ts).
 */
export interface FeedLine {
  readonly name: string
  readonly payload: string
}

/** Live answers shared within the source's cadence: src/channels/live-lines.ts. */
export interface SharedLines {
  /** Statements of a feed's codes as one answer text. */
  text(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<string>
  /** The same statements as lines, in the order asked; codes the host sent nothing for are left out. */
  lines(ctx: ChannelContext, feed: LineFeed, codes: readonly string[]): Promise<FeedLine[]>
  /** A single-code live answer (Eastmoney's `stock/get`), shared by URL for the cadence of `code`. */
  page(ctx: ChannelContext, channel: ChannelName, url: string, options: LiveRequestOptions, code: string): Promise<string>
  /** Forgets every line, as if each cadence had passed (the emulator's tests). */
  clear(): void
  /** Forgets this isolate's lines alone, as a new isolate starts; the location's shared lines stay. */
  forgetOwn(): void
  /** Where lines are shared with the location's other isolates (src/channels/line-cache.ts); undefined: nowhere. */
  shared: LineCache | undefined
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

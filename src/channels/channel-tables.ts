import type { InstrumentKind } from '../domain/instrument'
import type { Period } from '../domain/period'
import type { NativePeriod, SeriesChannelName } from './types'

/**
 * How one channel serves a requested period: fetch `fetch` bars and, when `aggregate` is set,
 * combine them into the requested period (season/year from months, m120 from m60).
 */
export interface ChannelPlan {
  channel: SeriesChannelName
  fetch: NativePeriod
  aggregate?: 'season' | 'year' | 'm120'
}

type KindGroup = 'cn' | 'sector' | 'hk' | 'us' | 'us-index' | 'future' | 'forex'

const GROUP_OF: Record<InstrumentKind, KindGroup> = {
  stock: 'cn', index: 'cn', etf: 'cn', bond: 'cn',
  sector: 'sector', hk: 'hk', us: 'us', 'us-index': 'us-index', future: 'future', forex: 'forex',
}

/** The family key the failover remembers its last good channel under. */
export const kindGroup = (kind: InstrumentKind): KindGroup => GROUP_OF[kind]

const native = (channel: SeriesChannelName, fetch: NativePeriod): ChannelPlan => ({ channel, fetch })
const MINUTES = ['m1', 'm5', 'm15', 'm30', 'm60'] as const

/** Channel order per kind group and period, as data. Absent = no channel serves it. */
const KLINE_TABLE: Record<KindGroup, Partial<Record<Period, ChannelPlan[]>>> = {
  cn: {
    day: [native('eastmoney', 'day'), native('tencent', 'day'), native('sina', 'day')],
    week: [native('eastmoney', 'week'), native('tencent', 'week')],
    month: [native('eastmoney', 'month'), native('tencent', 'month')],
    season: [native('eastmoney', 'season'), { channel: 'tencent', fetch: 'month', aggregate: 'season' }],
    year: [native('eastmoney', 'year'), { channel: 'tencent', fetch: 'month', aggregate: 'year' }],
    ...Object.fromEntries(MINUTES.map((m) => [m, [native('eastmoney', m), native('tencent', m), native('sina', m)]])),
    m120: (['eastmoney', 'tencent', 'sina'] as const).map((c) => ({ channel: c, fetch: 'm60', aggregate: 'm120' })),
  },
  sector: {
    ...Object.fromEntries((['day', 'week', 'month', 'season', 'year', ...MINUTES] as const).map((p) => [p, [native('eastmoney', p)]])),
    m120: [{ channel: 'eastmoney', fetch: 'm60', aggregate: 'm120' }],
  },
  hk: {
    day: [native('eastmoney', 'day'), native('tencent', 'day')],
    week: [native('eastmoney', 'week'), native('tencent', 'week')],
    month: [native('eastmoney', 'month'), native('tencent', 'month')],
    season: [native('eastmoney', 'season'), { channel: 'tencent', fetch: 'month', aggregate: 'season' }],
    year: [native('eastmoney', 'year'), { channel: 'tencent', fetch: 'month', aggregate: 'year' }],
    ...Object.fromEntries(MINUTES.map((m) => [m, [native('eastmoney', m)]])),
    m120: [{ channel: 'eastmoney', fetch: 'm60', aggregate: 'm120' }],
  },
  us: {},
  'us-index': { day: [native('eastmoney', 'day'), native('tencent', 'day')] },
  // Sina's getDailyKLine serves day bars only (contracts and main continuous contracts alike).
  future: { day: [native('eastmoney', 'day'), native('sina', 'day')], week: [native('eastmoney', 'week')], month: [native('eastmoney', 'month')] },
  forex: { day: [native('eastmoney', 'day')], week: [native('eastmoney', 'week')], month: [native('eastmoney', 'month')] },
}
KLINE_TABLE.us = KLINE_TABLE.hk

/** Channels that serve a quote (real-time price plus recent daily bars) per kind group. */
const QUOTE_TABLE: Record<KindGroup, SeriesChannelName[]> = {
  cn: ['tencent', 'eastmoney', 'sina'],
  sector: ['eastmoney'],
  hk: ['eastmoney', 'tencent'],
  us: ['eastmoney', 'tencent'],
  'us-index': ['eastmoney', 'tencent'],
  future: ['eastmoney', 'sina'],
  forex: ['eastmoney'],
}

export function klinePlans(kind: InstrumentKind, period: Period): ChannelPlan[] {
  return KLINE_TABLE[GROUP_OF[kind]][period] ?? []
}

export function quoteChannels(kind: InstrumentKind): SeriesChannelName[] {
  return QUOTE_TABLE[GROUP_OF[kind]]
}

/**
 * The hidden parameters of each simulated instrument: price level and trend, volatility, how it
 * trades. The wire layer never sees these; the price, volume and action generators read them.
 */
import { dayNumber } from '../../domain/dates'
import { HISTORY_START } from '../../data/holidays'
import type { CalendarKind } from './calendars'
import { hashString } from './random'

/** How daily volume is generated. */
type VolumeMode =
  /** floatShares × a turnover rate (stocks, ETFs, bonds, HK, US). */
  | 'float'
  /** A level typical of the index (sum over members); amount = volume × amountPx. */
  | 'index'
  /** Futures contracts, most liquid a few months before delivery. */
  | 'contracts'
  /** Forex: no volume, no amount. */
  | 'none'

export interface Profile {
  seed: number
  calendar: CalendarKind
  /** Day number of the first bar: the listing date, or the start of the history if later. */
  firstDay: number
  /** Day number of the last bar (futures: last trading day); Infinity otherwise. */
  lastDay: number
  /** ln(price) at the start of the history and late 2026; the walk reverts to the line between. */
  logStart: number
  logEnd: number
  /** Monthly volatility of the anchor walk, and the daily volatility inside a month. */
  sigma: number
  daily: number
  /** Loading on the market's common monthly shock, and its seed. */
  beta: number
  market: number
  /** Monthly mean reversion towards the trend line. */
  kappa: number
  /** Lowest raw price the walk may reach (keeps rounding well inside the limits). */
  floor: number
  /** Chance per day of a 涨停/跌停 day (limited instruments only). */
  limitProb: number
  /** Chance per week of a one-day suspension (stocks only). */
  suspendProb: number
  volumeMode: VolumeMode
  /** 'float': typical turnover %; 'index' / 'contracts': typical daily volume. */
  volBase: number
  /** 'index': amount per share traded. */
  amountPx: number
  /** Volume granularity (100 for A-share kinds and HK). */
  lot: number
  /** Futures: month index of delivery (liquidity peaks shortly before it). */
  delivery: number
  /** Stocks: chance of a cash dividend per year, and whether bonus shares are ever issued. */
  payer: number
  bonusGroup: boolean
}

const HISTORY_DAY = dayNumber(HISTORY_START)

/** Parameters every profile shares unless overridden. */
export function baseProfile(code: string, calendar: CalendarKind, listDate: string, over: Partial<Profile>): Profile {
  const daily = over.daily ?? (over.sigma ?? 0.08) / Math.sqrt(21) * 1.1
  return {
    seed: hashString(code),
    calendar,
    firstDay: Math.max(dayNumber(listDate), HISTORY_DAY),
    lastDay: Infinity,
    logStart: Math.log(10),
    logEnd: Math.log(10),
    sigma: 0.08,
    beta: 0.5,
    market: hashString('market:' + calendar),
    kappa: 0.06,
    floor: 1,
    limitProb: 0,
    suspendProb: 0,
    volumeMode: 'float',
    volBase: 1,
    amountPx: 0,
    lot: 100,
    delivery: 0,
    payer: 0,
    bonusGroup: false,
    ...over,
    daily,
  }
}

/**
 * Eastmoney Guba's popularity rank (人气榜) as the simulated market has it: one ranking per
 * Beijing date of the A-share list (stocks and ETFs) and one of the US list. Each instrument has a
 * lasting attention level (big names draw more) plus a daily swing, so the top of the list is
 * familiar but moves day to day. Pure and deterministic per (list, date); only instruments listed
 * by that date take part.
 */
import { addDays, dayNumber } from '../../domain/dates'
import { bnorm, hashString, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'

export type PopularityList = 'cn' | 'us'

export interface PopularityEntry {
  instrument: EmuInstrument
  /** 1-based rank on the date. */
  rank: number
  /** Rank on the previous calendar day minus rank today: positive = moved up. */
  rankChange: number
}

/** Purpose tags of this module's random draws (its own, apart from the price model's SALT). */
const SALT_LEVEL = 9101
const SALT_DAY = 9102

/** The instruments a list ranks. */
function members(market: MarketModel, list: PopularityList): EmuInstrument[] {
  return market.instruments().filter((i) => (list === 'cn' ? i.kind === 'stock' || i.kind === 'etf' : i.kind === 'us'))
}

/** Attention score of an instrument on a day: a lasting level (heavier for large caps) and a daily swing. */
function score(inst: EmuInstrument, day: number): number {
  const seed = hashString(inst.code)
  const size = inst.totalShares ? Math.log10(inst.totalShares) / 10 : 0.8
  return 2 * uniform(seed, SALT_LEVEL) ** 3 + size + 0.35 * bnorm(seed, SALT_DAY, day)
}

function ranking(all: readonly EmuInstrument[], date: string): Map<EmuInstrument, number> {
  const day = dayNumber(date)
  const listed = all.filter((i) => i.listDate <= date)
  const scored = listed.map((i) => ({ i, s: score(i, day) })).sort((a, b) => b.s - a.s || (a.i.code < b.i.code ? -1 : 1))
  return new Map(scored.map(({ i }, k) => [i, k + 1]))
}

const memos = new WeakMap<MarketModel, Map<string, PopularityEntry[]>>()

/** The whole ranking of `list` on `date` (`YYYY-MM-DD`, Beijing), best first. */
export function popularityRank(market: MarketModel, list: PopularityList, date: string): readonly PopularityEntry[] {
  const key = `${list} ${date}`
  let memo = memos.get(market)
  if (!memo) memos.set(market, (memo = new Map()))
  let out = memo.get(key)
  if (!out) {
    const all = members(market, list)
    const today = ranking(all, date)
    const yesterday = ranking(all, addDays(date, -1))
    out = [...today].map(([instrument, rank]) => ({ instrument, rank, rankChange: (yesterday.get(instrument) ?? all.length) - rank }))
    out.sort((a, b) => a.rank - b.rank)
    if (memo.size > 8) memo.clear()
    memo.set(key, out)
  }
  return out
}

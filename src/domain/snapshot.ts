/**
 * The /v1/snapshot profile of one A-share stock: 35 fields (price, book, valuation, market cap,
 * share capital and more), in the units the endpoint serves (volume in lots, amount in 10,000 CNY,
 * market cap in 100 million CNY, shares in shares, ratios and changes in percent). A value the
 * channel does not carry is null.
 */
import type { Instrument } from './instrument'
import type { LineStatus } from './market-phase'
import type { Level } from './orderbook'

export interface Snapshot {
  // identity
  code: string
  name: string
  /** Data time `YYYY-MM-DD HH:MM:SS` (Beijing). */
  time: string
  security_type: (typeof SECURITY_TYPES)[number] | null
  status: LineStatus
  currency: string
  // price
  last: number
  change: number
  change_pct: number
  open: number | null
  high: number | null
  low: number | null
  pre_close: number
  avg_price: number | null
  volume: number
  amount: number | null
  turnover: number | null
  // order book
  bids: Level[]
  asks: Level[]
  order_imbalance: number | null
  // valuation
  pe_ttm: number | null
  pe_dynamic: number | null
  pe_static: number | null
  pb: number | null
  // market cap and share capital
  float_market_cap: number | null
  total_market_cap: number | null
  float_shares: number | null
  total_shares: number | null
  // limit-chasing
  limit_up: number | null
  limit_down: number | null
  volume_ratio: number | null
  amplitude: number | null
  rise_speed: number | null
  // outer / inner volume
  outer_volume: number | null
  inner_volume: number | null
}

/** Board of an A-share stock code as `security_type` (ours: from the code, the same on every channel). */
export const SECURITY_TYPES = ['sh_main', 'sz_main', 'star', 'chinext', 'bse'] as const

/** 委比: (bid lots − ask lots) / (bid lots + ask lots) × 100 over the five levels (the auction's unmatched volume included); null for an empty book. */
export function orderImbalance(bids: readonly Level[], asks: readonly Level[]): number | null {
  const b = bids.reduce((n, [, v]) => n + v, 0)
  const a = asks.reduce((n, [, v]) => n + v, 0)
  return a + b === 0 ? null : Math.round(((b - a) / (a + b)) * 10000) / 100
}

const TYPE_OF_BOARD: Record<NonNullable<Instrument['board']>, (typeof SECURITY_TYPES)[number]> = {
  'sh-main': 'sh_main',
  'sz-main': 'sz_main',
  star: 'star',
  chinext: 'chinext',
  bj: 'bse',
}

/** `security_type` of a stock (its board); null for anything else. */
export const securityType = (inst: Instrument) => (inst.kind === 'stock' && inst.board ? TYPE_OF_BOARD[inst.board] : null)

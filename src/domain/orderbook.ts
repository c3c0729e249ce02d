/**
 * A level-1 order book as the channels hand it to the service: five levels each side, best
 * first, prices as quoted, volume in lots (100 shares). A level without a price has price null:
 * an empty level (`[null, 0]`: at limit-up there are no asks, at limit-down no bids, a suspended
 * stock and a line re-stamped before the auction have none at all) or, in the opening call
 * auction, the unmatched volume the hosts print on level 2 without a price.
 */
export type Level = [price: number | null, lots: number]

export interface OrderBook {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  /** Data time, `YYYY-MM-DD HH:MM:SS` exchange time. */
  time: string
  last: number
  preClose: number
  bids: Level[]
  asks: Level[]
  /** The line's state (see Quote): suspended by the exchange, and whether it carries a trade of its session. */
  halted: boolean
  traded: boolean
}

export const BOOK_LEVELS = 5

/**
 * The opening call auction's book as Tencent and Sina print it (fixtures
 * qt-sz002241-auction-…, hq-sh603866-preopen-auction-…): on a line without a trade, bid1 and ask1
 * at the same price, the indicative matched price, each with the matched volume.
 */
export function isAuctionBook(b: Pick<OrderBook, 'bids' | 'asks'>, traded: boolean): boolean {
  const bid = b.bids[0]?.[0]
  return !traded && bid !== null && bid !== undefined && bid === b.asks[0]?.[0]
}

/**
 * Why a book cannot be right, or null when it can: five levels a side, no negative numbers, a
 * price with no volume, volume with no price (except the auction's unmatched volume on level 2),
 * bids falling and asks rising away from the best, and the best bid below the best ask (at it in
 * the auction).
 */
export function bookProblem(b: Pick<OrderBook, 'bids' | 'asks'>, auction = false): string | null {
  for (const [side, levels, dir] of [['bid', b.bids, -1], ['ask', b.asks, 1]] as const) {
    if (levels.length !== BOOK_LEVELS) return `${levels.length} ${side} levels`
    let prev = 0
    let gap = false
    for (const [k, [p, v]] of levels.entries()) {
      if ((p !== null && (!Number.isFinite(p) || p <= 0)) || !Number.isFinite(v) || v < 0) return `bad ${side}${k + 1} ${p}/${v}`
      if (p === null) {
        if (v > 0 && !(auction && k === 1)) return `${side}${k + 1} has volume ${v} without a price`
        gap = true
        continue
      }
      if (v === 0) return `${side}${k + 1} has price ${p} and no volume`
      if (gap) return `${side}${k + 1} follows an empty level`
      if (prev && (p - prev) * dir <= 0) return `${side} prices not ${dir < 0 ? 'falling' : 'rising'} at level ${k + 1}`
      prev = p
    }
  }
  const bid = b.bids[0][0]
  const ask = b.asks[0][0]
  if (bid !== null && ask !== null && (auction ? bid !== ask : bid >= ask)) return auction ? `auction bid ${bid} is not its ask ${ask}` : `best bid ${bid} is not below best ask ${ask}`
  return null
}

/** A wire level read as numbers: a zero price is no price (the hosts print 0 or `"-"` for an empty level). */
export const levelOf = (price: number | null, lots: number | null): Level => [price === null || price === 0 ? null : price, lots ?? 0]

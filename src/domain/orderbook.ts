/**
 * A level-1 order book as the channels hand it to the service: five levels each side, best
 * first, prices as quoted, volume in lots (100 shares). An empty level is `[0, 0]`: at limit-up
 * there are no asks, at limit-down no bids, and a halted stock has none at all.
 */
export type Level = [price: number, lots: number]

export interface OrderBook {
  /** Canonical code, e.g. `sh600519`. */
  code: string
  /** Data time, `YYYY-MM-DD HH:MM:SS` exchange time. */
  time: string
  last: number
  preClose: number
  bids: Level[]
  asks: Level[]
}

export const BOOK_LEVELS = 5

/**
 * Why a book cannot be right, or null when it can: five levels a side, no negative numbers, a
 * price with no volume or volume with no price, bids falling and asks rising away from the best,
 * and the best bid below the best ask.
 */
export function bookProblem(b: Pick<OrderBook, 'bids' | 'asks'>): string | null {
  for (const [side, levels, dir] of [['bid', b.bids, -1], ['ask', b.asks, 1]] as const) {
    if (levels.length !== BOOK_LEVELS) return `${levels.length} ${side} levels`
    let prev = 0
    let gap = false
    for (const [k, [p, v]] of levels.entries()) {
      if (!Number.isFinite(p) || !Number.isFinite(v) || p < 0 || v < 0) return `bad ${side}${k + 1} ${p}/${v}`
      if ((p === 0) !== (v === 0)) return `${side}${k + 1} has price ${p} and volume ${v}`
      if (p === 0) {
        gap = true
        continue
      }
      if (gap) return `${side}${k + 1} follows an empty level`
      if (prev && (p - prev) * dir <= 0) return `${side} prices not ${dir < 0 ? 'falling' : 'rising'} at level ${k + 1}`
      prev = p
    }
  }
  const bid = b.bids[0][0]
  const ask = b.asks[0][0]
  if (bid > 0 && ask > 0 && bid >= ask) return `best bid ${bid} is not below best ask ${ask}`
  return null
}

import type { Bar } from './bar'

export type Aggregation = 'season' | 'year' | 'm120'

/** The bucket a bar belongs to; consecutive bars with the same key are merged. */
function bucketKey(bar: Bar, how: Aggregation, indexInDay: number): string {
  const y = bar.date.slice(0, 4)
  if (how === 'year') return y
  if (how === 'season') return `${y}Q${Math.floor((Number(bar.date.slice(5, 7)) - 1) / 3)}`
  // m120: pairs of consecutive 60-minute bars within one trading day.
  return `${bar.date.slice(0, 10)}#${Math.floor(indexInDay / 2)}`
}

/**
 * Merges bars (oldest first) into longer ones: open of the first, close of the last, extreme
 * high and low, summed volume, amount and turnover (null if any part lacks it). The merged bar is
 * dated by its last constituent, as Eastmoney dates its week/month bars.
 */
export function aggregateBars(bars: readonly Bar[], how: Aggregation): Bar[] {
  const out: Bar[] = []
  let key = ''
  let day = ''
  let indexInDay = 0
  for (const b of bars) {
    const d = b.date.slice(0, 10)
    indexInDay = d === day ? indexInDay + 1 : 0
    day = d
    const k = bucketKey(b, how, indexInDay)
    const last = out[out.length - 1]
    if (last && k === key) {
      last.date = b.date
      last.close = b.close
      last.high = Math.max(last.high, b.high)
      last.low = Math.min(last.low, b.low)
      last.volume += b.volume
      last.amount = last.amount === null || b.amount === null ? null : last.amount + b.amount
      last.turnover = last.turnover === null || b.turnover === null ? null : last.turnover + b.turnover
    } else {
      out.push({ ...b })
      key = k
    }
  }
  return out
}

/** How many source bars are needed for `count` aggregated ones (plus one partial bucket). */
export function sourceCount(count: number, how: Aggregation): number {
  return (count + 1) * (how === 'year' ? 12 : how === 'season' ? 3 : 2)
}

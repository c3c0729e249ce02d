/**
 * One closed session's up/down distribution (涨跌分布) over every A-share stock, as Eastmoney's
 * `push2ex …/getTopicZDFenBu` reports it: a count per integer bucket of the change percent, from
 * the stocks' daily bars (the same bars every other view shows). Bucket keys (upstreams.md §4.4,
 * semantics INF): 0 unchanged; ±11 at the limit-up / limit-down price; otherwise ±k with
 * k = min(10, floor(|change %|) + 1), so +0.4% is 1, +1.0% is 2 and +9.5% (not at the limit) is 10.
 */
import { dayNumber } from '../../domain/dates'
import { limitOn, limitPrices } from './limits'
import type { MarketModel } from './types'

/** The bucket key of one stock's session. */
export function fenbuKey(close: number, preClose: number, limit: number | null, decimals: number): number {
  if (close === preClose) return 0
  if (limit !== null) {
    const [down, up] = limitPrices(preClose, limit, decimals)
    if (close >= up) return 11
    if (close <= down) return -11
  }
  const pct = Math.abs((close - preClose) / preClose) * 100
  return Math.sign(close - preClose) * Math.min(10, Math.floor(pct + 1e-9) + 1)
}

const memos = new WeakMap<MarketModel, Map<string, Map<number, number>>>()

/**
 * Counts per bucket key over the stocks that traded on `date` (a past, closed session at `now`);
 * empty when nothing traded (not a session day). Memoised: a closed day does not change.
 */
export function upDownDistribution(market: MarketModel, date: string, now: number): Map<number, number> {
  let memo = memos.get(market)
  if (!memo) memos.set(market, (memo = new Map()))
  const hit = memo.get(date)
  if (hit) return hit
  const counts = new Map<number, number>()
  const day = dayNumber(date)
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock' || inst.listDate > date) continue
    const [bar] = market.dailyBars(inst, date, date, now)
    if (!bar || bar.date !== date) continue
    const k = fenbuKey(bar.close, bar.preClose, limitOn(inst, day), inst.decimals)
    counts.set(k, (counts.get(k) ?? 0) + 1)
  }
  if (memo.size > 16) memo.clear()
  memo.set(date, counts)
  return counts
}

/**
 * `RPT_LIFT_STAGE` (upstreams.md §5.9), lock-up expiries, from market/lockups.ts: one row per batch
 * with `FREE_DATE` in the `FREE_DATE>=`/`<=` range the request gives (the last and next year
 * without one). Shares in shares, market value in CNY at the close before the free date (or the
 * latest close for batches still ahead), ratios as fractions, as recorded answers in public
 * client tests show them.
 */
import { addDays, beijing } from '../../domain/dates'
import { previousTradingDay } from '../../domain/trading-calendar'
import { lockupsOf } from '../market/lockups'
import type { MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

export function lockupRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const today = beijing(now).date
  const bound = (op: string) => filter.find((p) => p.column === 'FREE_DATE' && p.op.startsWith(op))?.value.slice(0, 10)
  const from = bound('>') ?? addDays(today, -365)
  const to = bound('<') ?? addDays(today, 365)
  const code = filter.find((p) => p.column === 'SECURITY_CODE' && p.op === '=')?.value
  const rows: Row[] = []
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock' || (code && inst.symbol !== code)) continue
    for (const l of lockupsOf(inst)) {
      if (l.freeDate < from || l.freeDate > to) continue
      // The price it is valued at: the close before the free date, or the latest close before today.
      const day = previousTradingDay(l.freeDate < today ? l.freeDate : today)
      const bar = market.dailyBars(inst, day, day, now)[0]
      const price = bar ? bar.close : null
      rows.push({
        SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
        SECURITY_CODE: inst.symbol,
        SECURITY_NAME_ABBR: inst.name,
        FREE_DATE: `${l.freeDate} 00:00:00`,
        CURRENT_FREE_SHARES: l.shares,
        ABLE_FREE_SHARES: l.shares,
        LIFT_MARKET_CAP: price === null ? null : round(l.shares * price, 2),
        FREE_RATIO: round(l.shares / inst.floatShares!, 6),
        TOTAL_RATIO: round(l.shares / inst.totalShares!, 6),
        NEW: price,
        FREE_SHARES_TYPE: l.kind,
        BATCH_HOLDER_NUM: l.holders,
      })
    }
  }
  return rows
}

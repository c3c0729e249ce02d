/**
 * `RPT_LIFT_STAGE` (upstreams.md §5.9), lock-up expiries, from market/lockups.ts: one row per batch
 * with `FREE_DATE` in the `FREE_DATE>=`/`<=` range the request gives (the last and next year
 * without one). The columns, units and number forms of the real rows in
 * test/fixtures/eastmoney/lift-stage-rows-2026-07-28.json (SOURCE.md): shares in 10,000 shares
 * (万股, four decimals), `LIFT_MARKET_CAP` in 10,000 CNY (万元, six decimals) = `CURRENT_FREE_SHARES`
 * × `NEW`, `FREE_RATIO` (of the float before the release) and `TOTAL_RATIO` fractions.
 * `FREE_SHARES` is the float after the release and `NON_FREE_SHARES` what stays restricted, so
 * (`FREE_SHARES` + `NON_FREE_SHARES`) × `TOTAL_RATIO` = `CURRENT_FREE_SHARES` as on the real rows.
 * The model's float does not grow with each release: every batch is measured against
 * `floatShares`. `NEW` is the close the batch is valued at: the close before the free date, or the
 * latest close for batches still ahead. `BATCH_HOLDER_NUM` is a column of the report's web page
 * (the column list public clients ask for); `B20_ADJCHRATE` / `A20_ADJCHRATE` of that list are not
 * written (nothing reads them).
 */
import { addDays, beijing } from '../../domain/dates'
import { previousTradingDay } from '../../domain/trading-calendar'
import { lockupsOf } from '../market/lockups'
import type { MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

/** `MARKET_TYPE`: `sh` and `kcb` (STAR) are on the real rows; `sz`, `cyb` (ChiNext) and `bj` follow their pattern unseen. */
function marketType(prefix: string, symbol: string): string {
  if (prefix === 'sh') return symbol.startsWith('688') ? 'kcb' : 'sh'
  if (prefix === 'sz') return /^30[01]/.test(symbol) ? 'cyb' : 'sz'
  return prefix
}

/** 万股 / 万元 with the real rows' decimals. */
const wan = (n: number, decimals: number) => round(n / 10_000, decimals)

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
      const floatAfter = inst.floatShares! + l.shares
      rows.push({
        SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
        SECURITY_CODE: inst.symbol,
        FREE_DATE: `${l.freeDate} 00:00:00`,
        CURRENT_FREE_SHARES: wan(l.shares, 4),
        LIFT_MARKET_CAP: price === null ? null : wan(l.shares * price, 6),
        FREE_SHARES_TYPE: l.kind,
        FREE_SHARES: wan(floatAfter, 4),
        NON_FREE_SHARES: wan(Math.max(0, inst.totalShares! - floatAfter), 4),
        FREE_RATIO: round(l.shares / inst.floatShares!, 12),
        MARKET_TYPE: marketType(inst.prefix, inst.symbol),
        SECURITY_NAME_ABBR: inst.name,
        NEW: price,
        TOTAL_RATIO: round(l.shares / inst.totalShares!, 12),
        ABLE_FREE_SHARES: wan(l.shares, 4),
        SECURITY_TYPE_CODE: '058001001',
        BATCH_HOLDER_NUM: l.holders,
      })
    }
  }
  return rows
}

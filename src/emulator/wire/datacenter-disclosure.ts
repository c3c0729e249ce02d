/**
 * `RPT_PUBLIC_BS_APPOIN` (upstreams.md §5.9), the earnings disclosure schedule (预约披露), from the
 * model's schedule (market/disclosure.ts). One row per stock listed by the period's end; the
 * request must name the period (`REPORT_DATE='2026-09-30'`), as the real report's users all do.
 * A row appears when the season's bookings open (15 days before it), a moved date once it moved,
 * the actual date once published. Columns and spellings as a captured row shows them
 * (test/fixtures/eastmoney/public-bs-appoin-600779-2023h1.json): `REPORT_TYPE_NAME` with a
 * space (`2023年 半年报`), `APPOINT_PUBLISH_DATE` the date booked now.
 */
import { addDays, beijing, dayNumber } from '../../domain/dates'
import { seasonOf } from '../../domain/report-seasons'
import { disclosureOf } from '../market/disclosure'
import type { EmuInstrument, MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'

/** `TRADE_MARKET_CODE` per board (upstreams.md §5.0). */
const TRADE_MARKET_CODE: Record<NonNullable<EmuInstrument['board']>, string> = {
  'sh-main': '069001001001',
  star: '069001001006',
  'sz-main': '069001002001',
  chinext: '069001002002',
  bj: '069001017',
}

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const datetime = (date: string | null) => (date ? `${date} 00:00:00` : null)

/** Rows of the period a `REPORT_DATE=` predicate names (none without one), as known at `now`. */
export function disclosureRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const period = filter.find((p) => p.column === 'REPORT_DATE' && p.op === '=')?.value.slice(0, 10)
  if (!period || !/^\d{4}-(03-31|06-30|09-30|12-31)$/.test(period)) return []
  const season = seasonOf(period)
  const today = beijing(now).date
  if (today < addDays(season.from, -15)) return []
  const rows: Row[] = []
  for (const inst of market.instruments()) {
    if (inst.kind !== 'stock' || !inst.board) continue
    const d = disclosureOf(inst, season)
    if (!d) continue
    const changed = d.changed && today >= addDays(d.changed < d.first ? d.changed : d.first, -5) ? d.changed : null
    const effective = changed ?? d.first
    const published = effective <= today
    rows.push({
      SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
      SECURITY_CODE: inst.symbol,
      SECURITY_NAME_ABBR: inst.name,
      TRADE_MARKET_CODE: TRADE_MARKET_CODE[inst.board],
      SECURITY_TYPE_CODE: '058001001',
      REPORT_DATE: datetime(period),
      REPORT_TYPE_NAME: season.name.replace('年', '年 '),
      FIRST_APPOINT_DATE: datetime(d.first),
      FIRST_CHANGE_DATE: datetime(changed),
      SECOND_CHANGE_DATE: null,
      THIRD_CHANGE_DATE: null,
      ACTUAL_PUBLISH_DATE: datetime(published ? effective : null),
      APPOINT_PUBLISH_DATE: datetime(effective),
      IS_PUBLISH: published ? '1' : '0',
      RESIDUAL_DAYS: published ? null : dayNumber(effective) - dayNumber(today),
    })
  }
  return rows
}

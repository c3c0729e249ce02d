/**
 * Eastmoney's HK F10 major-shareholder report `RPT_HKF10_EQUITYCHG_HOLDER` as the emulator answers
 * it on `datacenter.eastmoney.com/securities/api/data/v1/get` (the datacenter protocol, F10 path),
 * per stock (`(SECUCODE="00700.HK")`; without it no rows): one set of rows per half-year report
 * published by the clock's Beijing date. Column names as akshare's `stock_hk_gdfx_top_10_em`
 * requests them; values as one project's captured-response mock shows them (REPORT_DATE
 * `YYYY-MM-DD 00:00:00`, TOTAL_SHARES a number of shares, TOTAL_SHARES_RATIO percent, EQUITY_TYPE 董事/主要股东).
 */
import { beijing } from '../../domain/dates'
import { hkHolderNoticeDate, hkHolderPeriods, hkHolders } from '../market/hk-holders'
import { hashString } from '../market/random'
import type { MarketModel } from '../market/types'
import type { Predicate, Report, Row } from './datacenter-rows'

/** The path of the F10 flavour of the datacenter (same protocol as `/api/data/v1/get`). */
export const F10_DATACENTER_PATH = '/securities/api/data/v1/get'

const datetime = (date: string) => `${date} 00:00:00`

function hkStockOf(market: MarketModel, filter: readonly Predicate[]) {
  const p = filter.find((f) => f.column === 'SECUCODE' && f.op === '=')
  const m = p && /^(\d{5})\.HK$/.exec(p.value)
  const inst = m ? market.byCode('hk' + m[1]) : undefined
  return inst?.kind === 'hk' ? inst : undefined
}

const hkHolderRows: Report = (market, now, filter) => {
  const inst = hkStockOf(market, filter)
  if (!inst) return []
  const org = `${String(hashString(inst.code)).padStart(8, '0').slice(0, 8)}`
  return hkHolderPeriods(inst, beijing(now).date).flatMap((end) =>
    hkHolders(inst, end).map(
      (h): Row => ({
        SECURITY_CODE: inst.symbol,
        SECUCODE: `${inst.symbol}.HK`,
        ORG_CODE: `HK${org}`,
        NOTICE_DATE: datetime(hkHolderNoticeDate(end)),
        REPORT_DATE: datetime(end),
        HOLDER_NAME: h.name,
        TOTAL_SHARES: h.shares,
        TOTAL_SHARES_RATIO: h.ratio,
        DIRECT_SHARES: h.direct,
        SHARES_CHG_RATIO: h.changePct,
        SHARES_TYPE: '普通股',
        EQUITY_TYPE: h.equityType,
        HOLD_IDENTITY: h.identity,
      })
    )
  )
}

export const HK_HOLDER_REPORTS: Record<string, Report> = { RPT_HKF10_EQUITYCHG_HOLDER: hkHolderRows }

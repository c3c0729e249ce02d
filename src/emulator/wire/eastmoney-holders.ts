/**
 * The datacenter's shareholder reports (upstreams.md §5.3) as the emulator answers them, per stock
 * (`(SECURITY_CODE="600519")`; without it no rows): `RPT_DMSK_HOLDERS` top ten holders,
 * `RPT_F10_EH_FREEHOLDERS` top ten float holders, `RPT_HOLDERNUM_DET` holder counts; one set per
 * quarterly report published by the clock's Beijing date. The float top ten carries the columns
 * of the real F10 column set (test/fixtures/eastmoney/freeholders-002811-2025q1.json: the period's
 * name, HOLD_RATIO of the total beside FREE_HOLDNUM_RATIO of the float, the change as the word
 * HOLD_CHANGE, SHARES_TYPE `A股`, an eight-digit HOLDER_CODE) beside the `columns=ALL` ones we ask
 * (HOLD_NUM_CHANGE, HOLDNUM_CHANGE_NAME). No change percent: neither report's real column set has
 * one of the holding itself (the parser computes it from HOLD_NUM and HOLD_NUM_CHANGE), and
 * HOLD_RATIO_CHANGE is left out: the capture does not show what it is measured against (−5.56
 * beside `不变`).
 */
import { beijing } from '../../domain/dates'
import { holderCount, holderNoticeDate, holderPeriods, topFloatHolders, topHolders, type Holding } from '../market/shareholders'
import { hashString } from '../market/random'
import type { EmuInstrument, MarketModel } from '../market/types'
import type { Predicate, Report, Row } from './datacenter-rows'
import { round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }
const datetime = (date: string) => `${date} 00:00:00`
const PERIOD_NAME: Record<string, string> = { '03-31': '一季报', '06-30': '中报', '09-30': '三季报', '12-31': '年报' }

/** The stock a `SECURITY_CODE=` predicate names, if the market has one. */
function stockOf(market: MarketModel, filter: readonly Predicate[]): EmuInstrument | undefined {
  const p = filter.find((f) => f.column === 'SECURITY_CODE' && f.op === '=')
  if (!p) return undefined
  for (const prefix of Object.keys(SUFFIX)) {
    const inst = market.byCode(prefix + p.value)
    if (inst?.kind === 'stock') return inst
  }
  return undefined
}

function ids(inst: EmuInstrument): Row {
  return { SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`, SECURITY_CODE: inst.symbol, SECURITY_NAME_ABBR: inst.name }
}

function holdingCells(h: Holding): Row {
  return {
    HOLDER_NAME: h.name,
    // Eight digits, as on the real float top ten (test/fixtures/eastmoney/freeholders-002811-2025q1.json).
    HOLDER_CODE: String(10_000_000 + (hashString(h.name) % 90_000_000)),
    HOLD_NUM: h.shares,
    HOLD_NUM_CHANGE: h.change,
    HOLDNUM_CHANGE_NAME: h.changeName,
  }
}

/** Every published period of the stock, with its close for market values. */
function periods(market: MarketModel, now: number, filter: readonly Predicate[]) {
  const inst = stockOf(market, filter)
  if (!inst) return { inst, ends: [] as string[] }
  return { inst, ends: holderPeriods(inst, beijing(now).date) }
}

const topHolderRows: Report = (market, now, filter) => {
  const { inst, ends } = periods(market, now, filter)
  if (!inst) return []
  return ends.flatMap((end) => {
    const close = holderCount(market, inst, end, now)?.close ?? null
    const restricted = (inst.floatShares ?? 0) < (inst.totalShares ?? 0)
    return topHolders(inst, end).map((h) => ({
      ...ids(inst),
      END_DATE: datetime(end),
      RANK: h.rank,
      ...holdingCells(h),
      HOLD_RATIO: h.ratio,
      HOLDER_NEWTYPE: h.type,
      SHARES_TYPE: h.rank === 1 && restricted ? '流通A股,限售流通A股' : '流通A股',
      HOLDER_MARKET_CAP: close === null ? null : round(h.shares * close, 2),
      REPORT_DATE_NAME: `${end.slice(0, 4)}${PERIOD_NAME[end.slice(5)]}`,
      NOTICE_DATE: datetime(holderNoticeDate(end)),
    }))
  })
}

const floatHolderRows: Report = (market, now, filter) => {
  const { inst, ends } = periods(market, now, filter)
  if (!inst) return []
  return ends.flatMap((end) =>
    topFloatHolders(inst, end).map((h) => ({
      ...ids(inst),
      END_DATE: datetime(end),
      REPORT_DATE_NAME: `${end.slice(0, 4)}${PERIOD_NAME[end.slice(5)]}`,
      HOLDER_RANK: h.rank,
      ...holdingCells(h),
      HOLD_RATIO: inst.totalShares ? round((h.shares / inst.totalShares) * 100, 4) : null,
      FREE_HOLDNUM_RATIO: h.ratio,
      HOLD_CHANGE: h.changeName,
      HOLDER_TYPE: h.type,
      SHARES_TYPE: 'A股',
      UPDATE_DATE: datetime(holderNoticeDate(end)),
      LISTING_STATE: '0',
    }))
  )
}

const holderNumRows: Report = (market, now, filter) => {
  const { inst, ends } = periods(market, now, filter)
  if (!inst) return []
  const counts = [...ends, null].map((end) => (end ? holderCount(market, inst, end, now) : null))
  const rows: Row[] = []
  ends.forEach((end, k) => {
    const c = counts[k]
    if (!c) return
    const prev = counts[k + 1]
    const qfq = (x: NonNullable<typeof c>) => x.close * market.qfqFactor(inst, x.end, now)
    rows.push({
      SECURITY_CODE: inst.symbol,
      SECURITY_NAME_ABBR: inst.name,
      END_DATE: datetime(end),
      HOLDER_NUM: c.holders,
      PRE_HOLDER_NUM: prev?.holders ?? null,
      HOLDER_NUM_CHANGE: prev ? c.holders - prev.holders : null,
      HOLDER_NUM_RATIO: prev ? round(((c.holders - prev.holders) / prev.holders) * 100, 4) : null,
      AVG_HOLD_NUM: c.avgShares,
      AVG_MARKET_CAP: round(c.marketCap / c.holders, 2),
      TOTAL_MARKET_CAP: c.marketCap,
      TOTAL_A_SHARES: inst.totalShares,
      INTERVAL_CHRATE: prev ? round((qfq(c) / qfq(prev) - 1) * 100, 4) : null,
      HOLD_NOTICE_DATE: datetime(holderNoticeDate(end)),
      PRE_END_DATE: prev ? datetime(prev.end) : null,
      CHANGE_SHARES: 0,
      CHANGE_REASON: null,
    })
  })
  return rows
}

export const HOLDER_REPORTS: Record<string, Report> = {
  RPT_DMSK_HOLDERS: topHolderRows,
  RPT_F10_EH_FREEHOLDERS: floatHolderRows,
  RPT_HOLDERNUM_DET: holderNumRows,
}

/**
 * The datacenter's 业绩报表 `RPT_LICO_FN_CPD` (src/channels/README.md, "业绩报表"): one row per
 * published report period of a stock, from the same fundamentals model as the statements
 * (eastmoney-finance.ts), with exactly the real report's 37 columns in their order
 * (test/fixtures/eastmoney/lico-fn-cpd-301381-2025-05-26.json). Its figures agree with the
 * statements' and the quotes' by construction:
 * - `BPS` = parent equity / total shares at the period end (12 decimals), the same per-share book
 *   value the quotes' PB uses (`bookValuePerShare`); `MGJYXJJE` = operating net cash / total
 *   shares (12 decimals); `BASIC_EPS` = the income statement's basic EPS (4 decimals);
 *   `DEDUCT_BASIC_EPS` = deducted profit / total shares for the half year and the year, null for
 *   Q1 and Q3 (as the capture's rows);
 * - `WEIGHTAVG_ROE` = attributable profit / the mean of the parent equity at the previous year end
 *   and at the period end, % to 2 decimals (the capture's rows agree with that mean within 0.1:
 *   Q1 2025 profit 47 026 149.99 over the mean of BPS 6.1504 and 6.3245 × 400.11 M shares = 1.88);
 * - `XSMLL` = (revenue − operating cost) / revenue in % (10 decimals); `YSTZ` / `SJLTZ` revenue's and
 *   profit's growth over the same period a year before (10 and 2 decimals), null when that period
 *   is not published or was 0; `YSHZ` / `SJLHZ` the period's own quarter over the quarter before
 *   it (4 decimals).
 * The model restates nothing, so `UPDATE_DATE` = `NOTICE_DATE`, and `EITIME` is the evening
 * before. The model has no dividend plan per period here: `ASSIGNDSCRPT`, `PAYYEAR` and `ZXGXL`
 * are null **(ours: the real rows carry the plan of annual and interim reports)**, and so is
 * `TRADE_MARKET_ZJG` for the STAR and BJ boards, whose code no capture shows.
 */
import { addDays, beijing } from '../../domain/dates'
import { SECTORS } from '../market/catalog'
import { financialReport, financialReports, performanceBasis, type FinancialReport } from '../market/fundamentals'
import { industryOf } from '../market/industries'
import { Lru } from '../market/lru'
import { hashString } from '../market/random'
import type { EmuInstrument, MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { candidates, datetime, lastYear, orgCodeOf, TRADE_MARKET } from './eastmoney-finance'
import { round } from './format'

const SUFFIX: Record<string, string> = { sh: 'SH', sz: 'SZ', bj: 'BJ' }

/** `TRADE_MARKET`: the captures' 深交所创业板, 深交所主板 and 上交所主板; the STAR and BJ words follow them. */
const MARKET_NAME: Record<string, string> = { 'sh-main': '上交所主板', star: '上交所科创板', 'sz-main': '深交所主板', chinext: '深交所创业板', bj: '北交所' }

/** `TRADE_MARKET_ZJG` as the captures show it (0101 上交所主板, 0201 深交所主板, 0202 创业板); null where none does. */
const ZJG: Record<string, string | null> = { 'sh-main': '0101', star: null, 'sz-main': '0201', chinext: '0202', bj: null }

/** `DATEMMDD` by quarter. */
const SEASON: Record<string, string> = { '03-31': '一季报', '06-30': '半年报', '09-30': '三季报', '12-31': '年报' }

/** Percent change over `before`, `decimals` as the real column prints it; null without a base. */
const growth = (now: number, before: number | undefined, decimals: number): number | null =>
  before === undefined || before === 0 ? null : round(((now - before) / Math.abs(before)) * 100, decimals)

/** `HH:MM:SS` between 15:30 and 21:59, stable per stock and period: when the row entered the database. */
function eveningTime(inst: EmuInstrument, period: string): string {
  const s = 15 * 3600 + 1800 + (hashString(`eitime:${inst.code}:${period}`) % (6.5 * 3600))
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
}

/** One row: `r` the period's report, `last` the same period a year before if published, `latest` the stock's newest published period. */
function row(market: MarketModel, inst: EmuInstrument, r: FinancialReport, last: FinancialReport | undefined, latest: string | undefined): Row {
  const shares = inst.totalShares as number
  const board = inst.board ?? 'sh-main'
  const bk = industryOf(inst)
  const sector = bk ? SECTORS[bk] : null
  const y = r.period.slice(0, 4)
  const season = r.period.slice(5)
  const half = season === '06-30' || season === '12-31'
  const basis = performanceBasis(market, inst, r.period)
  const meanEquity = (basis.openingParentEquity + r.balance.parentEquity) / 2
  const notice = datetime(r.noticeDate)
  return {
    SECURITY_CODE: inst.symbol,
    SECURITY_NAME_ABBR: inst.name,
    TRADE_MARKET_CODE: TRADE_MARKET[board],
    TRADE_MARKET: MARKET_NAME[board],
    SECURITY_TYPE_CODE: '058001001',
    SECURITY_TYPE: 'A股',
    UPDATE_DATE: notice,
    REPORTDATE: datetime(r.period),
    BASIC_EPS: r.income.basicEps,
    DEDUCT_BASIC_EPS: half ? round(r.income.deductedParentNetProfit / shares, 4) : null,
    TOTAL_OPERATE_INCOME: r.income.revenue,
    PARENT_NETPROFIT: r.income.parentNetProfit,
    WEIGHTAVG_ROE: meanEquity > 0 ? round((r.income.parentNetProfit / meanEquity) * 100, 2) : null,
    YSTZ: growth(r.income.revenue, last?.income.revenue, 10),
    SJLTZ: growth(r.income.parentNetProfit, last?.income.parentNetProfit, 2),
    BPS: round(r.balance.parentEquity / shares, 12),
    MGJYXJJE: round(r.cashflow.operatingNetCash / shares, 12),
    XSMLL: r.income.revenue > 0 ? round(((r.income.revenue - r.income.operatingCost) / r.income.revenue) * 100, 10) : null,
    YSHZ: growth(basis.quarter.revenue, basis.previousQuarter.revenue, 4),
    SJLHZ: growth(basis.quarter.parentNetProfit, basis.previousQuarter.parentNetProfit, 4),
    ASSIGNDSCRPT: null,
    PAYYEAR: null,
    PUBLISHNAME: sector,
    ZXGXL: null,
    NOTICE_DATE: notice,
    ORG_CODE: orgCodeOf(inst),
    TRADE_MARKET_ZJG: ZJG[board],
    ISNEW: r.period === latest ? '1' : '0',
    QDATE: `${y}Q${['03-31', '06-30', '09-30', '12-31'].indexOf(season) + 1}`,
    DATATYPE: `${y}年 ${SEASON[season]}`,
    DATAYEAR: y,
    DATEMMDD: SEASON[season],
    EITIME: `${addDays(r.noticeDate, -1)} ${eveningTime(inst, r.period)}`,
    SECUCODE: `${inst.symbol}.${SUFFIX[inst.prefix]}`,
    BOARD_NAME: sector,
    ORI_BOARD_CODE: bk ? String(Number(bk)) : null,
    BOARD_CODE: bk ? `BK${bk}` : null,
  }
}

/** Whole-market rows by period and Beijing date (a few periods' worth: each is 5,500 rows). */
const wholeMarket = new Lru<string, Row[]>(8)

/**
 * The report's rows: every published period of the `SECURITY_CODE=` stock, or, without one, the
 * `REPORTDATE=` period of every stock (nothing else: the whole market's history is too big).
 */
export function performanceRows(market: MarketModel, now: number, filter: readonly Predicate[]): Row[] {
  const period = filter.find((p) => p.column === 'REPORTDATE' && p.op === '=')?.value.slice(0, 10)
  const oneStock = filter.some((p) => p.column === 'SECURITY_CODE' && p.op === '=')
  if (!oneStock && !period) return []
  const memoKey = oneStock ? undefined : `${period}|${beijing(now).date}`
  const known = memoKey ? wholeMarket.get(memoKey) : undefined
  if (known) return known
  const rows: Row[] = []
  for (const inst of candidates(market, filter)) {
    const latest = financialReports(market, inst, now, 1)[0]?.period
    if (period) {
      const r = financialReport(market, inst, period, now)
      if (r) rows.push(row(market, inst, r, financialReport(market, inst, lastYear(period), now) ?? undefined, latest))
      continue
    }
    const reports = financialReports(market, inst, now)
    const byPeriod = new Map(reports.map((r) => [r.period, r]))
    for (const r of reports) rows.push(row(market, inst, r, byPeriod.get(lastYear(r.period)), latest))
  }
  if (memoKey) wholeMarket.set(memoKey, rows)
  return rows
}

/**
 * The datacenter's macro reports (upstreams.md §5.12) as the emulator answers them, from the macro
 * series of market/macro.ts: China's `RPT_ECONOMY_*` tables (one row per period, dated
 * `REPORT_DATE` = the period's first day, no release column), `RPTA_WEB_RATE` (LPR, dated on its
 * release day), `RPTA_WEB_TREASURYYIELD` (one row per trading day, a column per tenor), and the
 * country tables `RPT_ECONOMICVALUE_*` (rows of one `INDICATOR_ID` with `PUBLISH_DATE`, `VALUE`,
 * `PRE_VALUE`). Only what is released on or before the clock's date exists.
 */
import { beijing } from '../../domain/dates'
import { observations, type MacroModel, type Observation } from '../market/macro'
import type { MarketModel } from '../market/types'
import type { Predicate, Row } from './datacenter-rows'
import { round } from './format'

type Params = Omit<MacroModel, 'key' | 'frequency'>

/** A China table: its frequency and, per column, the series behind it. */
interface Table {
  frequency: 'monthly' | 'quarterly'
  dateColumn: string
  columns: Record<string, Params>
  /** Columns computed from others in the same row (index levels from growth rates). */
  derived?: Record<string, (row: Record<string, number>) => number>
  /**
   * A table dated by its own column only, without `REPORT_DATE` and `TIME` (the real host refuses
   * to sort `RPTA_WEB_RATE` by `REPORT_DATE`: the column does not exist), and columns that keep one
   * value (the benchmark loan rates, 4.35 and 4.9 since 2015-10-24).
   */
  own?: { fixed: Record<string, number> }
}

const pct = (level: number, swing: number, noise: number, lagDays: number): Params => ({ level, swing, noise, decimals: 1, lagDays })

const TABLES: Record<string, Table> = {
  RPT_ECONOMY_CPI: {
    frequency: 'monthly',
    dateColumn: 'REPORT_DATE',
    columns: { NATIONAL_SAME: pct(1.2, 1.2, 0.3, 10), NATIONAL_SEQUENTIAL: pct(0.1, 0.2, 0.3, 10), CITY_SAME: pct(1.3, 1.2, 0.3, 10), RURAL_SAME: pct(1.0, 1.3, 0.3, 10) },
    derived: { NATIONAL_BASE: (r) => Math.round((100 + r.NATIONAL_SAME) * 10) / 10 },
  },
  RPT_ECONOMY_PPI: {
    frequency: 'monthly',
    dateColumn: 'REPORT_DATE',
    columns: { BASE_SAME: pct(0, 4, 0.6, 10) },
    derived: { BASE: (r) => Math.round((100 + r.BASE_SAME) * 10) / 10 },
  },
  RPT_ECONOMY_PMI: {
    frequency: 'monthly',
    dateColumn: 'REPORT_DATE',
    columns: { MAKE_INDEX: pct(50, 1.2, 0.5, 0), MAKE_SAME: pct(0, 3, 1, 0), NMAKE_INDEX: pct(52.5, 1.5, 0.6, 0), NMAKE_SAME: pct(0, 3, 1, 0) },
  },
  RPT_ECONOMY_GDP: {
    frequency: 'quarterly',
    dateColumn: 'REPORT_DATE',
    columns: {
      DOMESTICL_PRODUCT_BASE: { level: 760000, growth: 1.07, cumulative: true, swing: 8000, noise: 3000, decimals: 1, lagDays: 17 },
      SUM_SAME: pct(5.5, 1.5, 0.3, 17),
    },
  },
  RPTA_WEB_RATE: {
    frequency: 'monthly',
    dateColumn: 'TRADE_DATE',
    columns: {
      LPR1Y: { level: 3.9, swing: 0.6, noise: 0, decimals: 2, lagDays: -10, step: 0.05 },
      LPR5Y: { level: 4.5, swing: 0.6, noise: 0, decimals: 2, lagDays: -10, step: 0.05 },
    },
    own: { fixed: { RATE_1: 4.35, RATE_2: 4.9 } },
  },
  RPT_ECONOMY_CURRENCY_SUPPLY: {
    frequency: 'monthly',
    dateColumn: 'REPORT_DATE',
    columns: {
      BASIC_CURRENCY: { level: 1500000, growth: 1.09, swing: 10000, noise: 5000, decimals: 2, lagDays: 12 },
      BASIC_CURRENCY_SAME: pct(8.8, 1.5, 0.3, 12),
      CURRENCY: { level: 480000, growth: 1.05, swing: 8000, noise: 4000, decimals: 2, lagDays: 12 },
      CURRENCY_SAME: pct(4, 4, 0.6, 12),
    },
  },
  RPT_ECONOMY_INCOME: {
    frequency: 'monthly',
    dateColumn: 'REPORT_DATE',
    columns: { BASE: { level: 16000, growth: 1.04, swing: 2000, noise: 1500, decimals: 2, lagDays: 20 }, BASE_SAME: pct(4, 6, 3, 20) },
  },
}

/**
 * Treasury yields: one column per tenor (China `EMM…` to 4 places, US `EMG…` to 2), in the order
 * and with the spread and GDP columns of the real rows (test/fixtures/eastmoney/treasuryyield-2026-07-27.json):
 * `EMM01276014` China 10Y − 2Y, `EMG01339436` US 10Y − 2Y, `EMM00000024` and `EMG00159635` (GDP
 * growth) null on these days.
 */
const YIELDS: Record<string, Params> = {
  EMM00588704: { level: 2.3, swing: 0.5, noise: 0.02, decimals: 4, lagDays: 0 },
  EMM00166462: { level: 2.6, swing: 0.5, noise: 0.02, decimals: 4, lagDays: 0 },
  EMM00166466: { level: 2.8, swing: 0.5, noise: 0.02, decimals: 4, lagDays: 0 },
  EMM00166469: { level: 3.2, swing: 0.5, noise: 0.02, decimals: 4, lagDays: 0 },
  EMG00001306: { level: 3.0, swing: 1.5, noise: 0.03, decimals: 2, lagDays: 0 },
  EMG00001308: { level: 3.1, swing: 1.3, noise: 0.03, decimals: 2, lagDays: 0 },
  EMG00001310: { level: 3.3, swing: 1.1, noise: 0.03, decimals: 2, lagDays: 0 },
  EMG00001312: { level: 3.6, swing: 0.9, noise: 0.03, decimals: 2, lagDays: 0 },
}

/** The columns computed from the tenors, null where not modelled. */
const YIELD_DERIVED: Record<string, (r: Record<string, number>) => number | null> = {
  EMM01276014: (r) => round(r.EMM00166466 - r.EMM00588704, 4),
  EMM00000024: () => null,
  EMG01339436: (r) => round(r.EMG00001310 - r.EMG00001306, 2),
  EMG00159635: () => null,
}

/** The columns of a row, in the real rows' order. */
const YIELD_COLUMNS = ['EMM00588704', 'EMM00166462', 'EMM00166466', 'EMM00166469', 'EMM01276014', 'EMM00000024', 'EMG00001306', 'EMG00001308', 'EMG00001310', 'EMG00001312', 'EMG01339436', 'EMG00159635']

/** Country tables: their indicators, each with its name and series. */
const COUNTRIES: Record<string, { country: string; indicators: Record<string, { name: string; model: Params }> }> = {
  RPT_ECONOMICVALUE_USA: {
    country: '美国',
    indicators: {
      EMG00000733: { name: '美国CPI年率(未季调)', model: pct(3, 2, 0.2, 12) },
      EMG00000746: { name: '美国核心CPI年率(季调)', model: pct(3, 1.2, 0.1, 12) },
      EMG00001039: { name: '美国失业率(季调)', model: pct(4.3, 1, 0.1, 5) },
      EMG00342250: { name: '美国联邦基金利率目标上限', model: { level: 3, swing: 2, noise: 0, decimals: 2, lagDays: 0, step: 0.25 } },
    },
  },
  RPT_ECONOMICVALUE_JPAN: {
    country: '日本',
    indicators: {
      EMG00005004: { name: '日本全国消费者物价指数年率', model: pct(1.5, 1.5, 0.2, 20) },
      EMG00342252: { name: '日本央行公布利率决议', model: { level: 0.1, swing: 0.3, noise: 0, decimals: 2, lagDays: 0, step: 0.1 } },
    },
  },
  RPT_ECONOMICVALUE_GER: {
    country: '德国',
    indicators: {
      EMG00172577: { name: '德国ZEW经济景气指数', model: pct(10, 25, 6, 14) },
      EMG01333192: { name: '德国实际零售销售年率', model: pct(0.5, 2.5, 1.2, 30) },
    },
  },
  RPT_ECONOMICVALUE_HK: {
    country: '中国香港',
    indicators: { EMG00059282: { name: '香港综合消费物价指数年率', model: pct(1.8, 1.2, 0.3, 21) } },
  },
}

const datetime = (d: string) => `${d} 00:00:00`

/** `2026年10月份` / `2026年第1-3季度` as the tables label periods. */
function label(o: Observation, frequency: 'daily' | 'monthly' | 'quarterly'): string {
  const y = o.period.slice(0, 4)
  const m = Number(o.period.slice(5, 7))
  return frequency === 'quarterly' ? `${y}年第1-${Math.ceil(m / 3)}季度` : `${y}年${String(m).padStart(2, '0')}月份`
}

function tableRows(name: string, table: Table, today: string): Row[] {
  const series = Object.entries(table.columns).map(([col, p]) => [col, observations({ ...p, key: `${name}.${col}`, frequency: table.frequency }, today)] as const)
  const [, first] = series[0]
  return first.map((o, i) => {
    const values: Record<string, number> = {}
    for (const [col, obs] of series) values[col] = obs[i].value
    const row: Row = table.own ? {} : { REPORT_DATE: datetime(table.dateColumn === 'REPORT_DATE' ? o.period : o.release), TIME: label(o, table.frequency) }
    if (table.dateColumn !== 'REPORT_DATE') row[table.dateColumn] = datetime(o.release)
    for (const [col, v] of Object.entries(values)) row[col] = v
    for (const [col, f] of Object.entries(table.derived ?? {})) row[col] = f(values)
    for (const [col, v] of Object.entries(table.own?.fixed ?? {})) row[col] = v
    return row
  })
}

function yieldRows(today: string): Row[] {
  const cols = Object.entries(YIELDS).map(([col, p]) => [col, observations({ ...p, key: `yield.${col}`, frequency: 'daily' }, today, 3000)] as const)
  return cols[0][1].map((o, i) => {
    const values: Record<string, number> = {}
    for (const [col, obs] of cols) values[col] = obs[i].value
    const row: Row = { SOLAR_DATE: datetime(o.period) }
    for (const col of YIELD_COLUMNS) row[col] = col in values ? values[col] : YIELD_DERIVED[col](values)
    return row
  })
}

function indicatorRows(report: string, filter: readonly Predicate[], today: string): Row[] {
  const table = COUNTRIES[report]
  const id = filter.find((p) => p.column === 'INDICATOR_ID' && p.op === '=')?.value
  const ind = id ? table.indicators[id] : undefined
  if (!id || !ind) return []
  const obs = observations({ ...ind.model, key: `${report}.${id}`, frequency: 'monthly' }, today)
  return obs.map((o, i) => ({
    COUNTRY: table.country,
    INDICATOR_ID: id,
    INDICATOR_NAME: ind.name,
    REPORT_DATE: datetime(o.period),
    REPORT_DATE_CH: label(o, 'monthly'),
    PUBLISH_DATE: datetime(o.release),
    VALUE: o.value,
    PRE_VALUE: obs[i + 1]?.value ?? null,
  }))
}

/** The report functions of every macro table, for the datacenter's REPORTS table. */
export const MACRO_REPORTS: Record<string, (market: MarketModel, now: number, filter: readonly Predicate[]) => Row[]> = {
  ...Object.fromEntries(Object.entries(TABLES).map(([name, t]) => [name, (_m: MarketModel, now: number) => tableRows(name, t, beijing(now).date)])),
  RPTA_WEB_TREASURYYIELD: (_m, now) => yieldRows(beijing(now).date),
  ...Object.fromEntries(Object.keys(COUNTRIES).map((r) => [r, (_m: MarketModel, now: number, f: readonly Predicate[]) => indicatorRows(r, f, beijing(now).date)])),
}

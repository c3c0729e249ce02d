/**
 * Eastmoney F10 (`emweb.securities.eastmoney.com/PC_HSF10/…/PageAjax?code=SH600519`): the
 * main-business composition (BusinessAnalysis `zygcfx`, 主营构成, upstreams.md §6) and the
 * company survey (CompanySurvey `jbzl`, 公司概况). Row keys as akshare `stock_zygc_em` reads them
 * (akshare/stock_fundamental/stock_zygc.py: SECUCODE, REPORT_DATE, MAINOP_TYPE "2" by product /
 * "3" by region, ITEM_NAME, MAIN_BUSINESS_INCOME, MBI_RATIO, …); `jbzl[0]` as adata
 * `get_company_info` and several F10 clients read it (ORG_PROFILE, BUSINESS_SCOPE, EM2016).
 * A composition that does not add up is `malformed`: wrong data is worse than none.
 */
import { isValidDate } from '../../domain/dates'
import { malformed } from '../errors'
import { fetchText } from '../http'
import { parseJsonObject } from '../json'
import type { ChannelContext } from '../types'
import { isObject, type JsonObject } from './envelope'
import { CHANNEL } from './wire'

const F10 = 'https://emweb.securities.eastmoney.com/PC_HSF10'

/** `sh600519` → `SH600519`, the F10 page's code. */
const f10Code = (code: string) => {
  if (!/^(sh|sz|bj)\d{6}$/.test(code)) throw malformed(CHANNEL, `not an A-share code: ${code}`)
  return code.toUpperCase()
}

export const businessUrl = (code: string) => `${F10}/BusinessAnalysis/PageAjax?code=${f10Code(code)}`
export const surveyUrl = (code: string) => `${F10}/CompanySurvey/PageAjax?code=${f10Code(code)}`

/** One product line of the latest report. */
interface ProductLine {
  name: string
  /** CNY. */
  income: number
  /** Share of the report's main-business income, 0..1. */
  ratio: number
}

export interface BusinessComposition {
  /** Report period `YYYY-MM-DD` of the rows used (the latest the page gives). */
  reportDate: string
  /** By product (MAINOP_TYPE 2), largest first. */
  products: ProductLine[]
}

const finite = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN)

/**
 * The latest report's product lines, or null when the page has no composition (new listings,
 * some financials). Ratios must lie in [0, 1]; a line without one gets its share of the lines'
 * income. Lines may cover less than the whole revenue (some issuers list only the main ones), but
 * ratios summing to more than 1 (beyond rounding) double-count and are `malformed`.
 */
export function parseComposition(text: string): BusinessComposition | null {
  const body = parseJsonObject(CHANNEL, text, 'business analysis')
  const rows = body.zygcfx
  if (rows === undefined || rows === null) return null
  if (!Array.isArray(rows)) throw malformed(CHANNEL, 'zygcfx is not an array')
  const products = rows.filter((r): r is JsonObject => isObject(r) && String(r.MAINOP_TYPE) === '2')
  if (products.length === 0) return null
  const dateOf = (r: JsonObject) => {
    const d = String(r.REPORT_DATE ?? '').slice(0, 10)
    if (!isValidDate(d)) throw malformed(CHANNEL, `composition row has no report date: ${JSON.stringify(r.REPORT_DATE)}`)
    return d
  }
  const reportDate = products.map(dateOf).sort().at(-1)!
  const raw = products.filter((r) => dateOf(r) === reportDate).map((r) => {
    const name = typeof r.ITEM_NAME === 'string' ? r.ITEM_NAME.trim() : ''
    const income = finite(r.MAIN_BUSINESS_INCOME)
    if (!name) throw malformed(CHANNEL, 'composition row has no item name')
    if (!Number.isFinite(income)) throw malformed(CHANNEL, `composition item ${name} has no income`)
    return { name, income, ratio: finite(r.MBI_RATIO) }
  })
  const total = raw.reduce((s, l) => s + l.income, 0)
  const lines = raw.map((l) => {
    const ratio = Number.isFinite(l.ratio) ? l.ratio : total > 0 ? Math.round((l.income / total) * 1e4) / 1e4 : NaN
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1.01) throw malformed(CHANNEL, `composition item ${l.name} ratio ${l.ratio} is not a share`)
    return { ...l, ratio }
  })
  const sum = lines.reduce((s, l) => s + l.ratio, 0)
  if (sum > 1.02) throw malformed(CHANNEL, `composition ratios of ${reportDate} sum to ${sum.toFixed(4)}, more than 1`)
  return { reportDate, products: lines.sort((a, b) => b.income - a.income) }
}

export async function fetchComposition(ctx: ChannelContext, code: string): Promise<BusinessComposition | null> {
  return parseComposition(await fetchText(ctx, CHANNEL, businessUrl(code)))
}

export interface CompanySurvey {
  /** 公司简介. */
  profile: string | null
  /** 经营范围. */
  scope: string | null
  /**
   * Eastmoney's 2016 industry (`EM2016`) as sent: a path `一级-二级-三级`, e.g. `金融-银行-股份制与城商行`
   * (test/fixtures/eastmoney/f10-survey-*.json), not the name of an industry board (those read
   * `银行`, `酿酒行业`). A view that wants one level takes it from the path (the last level is the
   * finest); none does today.
   */
  industry: string | null
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

/** The `jbzl` columns we read: a row carrying none of them is another format, not an empty company. */
const SURVEY_COLUMNS = ['ORG_PROFILE', 'BUSINESS_SCOPE', 'EM2016'] as const

/**
 * `jbzl[0]`'s texts, or null when the page knows no such company. PageAjax sends an array of
 * one row in the columns of the datacenter's `RPT_F10_BASIC_ORGINFO` (test/fixtures/eastmoney/
 * f10-survey-600000.json, f10-orginfo-002475.json). The older `CompanySurveyAjax` sent `jbzl`
 * as an object with pinyin keys (`gsjj` 公司简介, `jyfw` 经营范围, `sshy` 所属行业, as three
 * public clients' tests keep it): read as ours it would look like a company without texts, so a
 * row with none of our columns is `malformed` and the failover moves on.
 */
export function parseSurvey(raw: string): CompanySurvey | null {
  const body = parseJsonObject(CHANNEL, raw, 'company survey')
  const jbzl = body.jbzl
  if (jbzl === undefined || jbzl === null) return null
  const first = Array.isArray(jbzl) ? jbzl[0] : jbzl
  if (first === undefined) return null
  if (!isObject(first)) throw malformed(CHANNEL, 'jbzl is not an object')
  if (!SURVEY_COLUMNS.some((c) => c in first)) throw malformed(CHANNEL, `jbzl has none of ${SURVEY_COLUMNS.join(', ')}: keys ${Object.keys(first).slice(0, 8).join(', ')}`)
  return { profile: text(first.ORG_PROFILE), scope: text(first.BUSINESS_SCOPE), industry: text(first.EM2016) }
}

export async function fetchSurvey(ctx: ChannelContext, code: string): Promise<CompanySurvey | null> {
  return parseSurvey(await fetchText(ctx, CHANNEL, surveyUrl(code)))
}

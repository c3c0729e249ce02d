/**
 * Broker research reports (upstreams.md §5.16): the list of `reportapi.eastmoney.com/report/list`
 * (one stock's reports, or every stock's) and each report page's summary
 * (`data.eastmoney.com/report/info/<infoCode>.html`, the paragraphs of `div.ctx-content`, or of
 * `div.newsContent` on older pages).
 *
 * Wire facts the parser allows for: EPS, PE and target prices come as strings (`"68.5"`, `""` when
 * absent) or as JSON numbers; `publishDate` is `YYYY-MM-DD 00:00:00.000`; "this year" of the
 * forecasts is the envelope's `currentYear`; `ratingChange` mixes numbers and strings, so the
 * service compares `emRatingName` with `lastEmRatingName` instead of reading it.
 */
import { isValidDate } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { parseSymbol, SymbolError } from '../../domain/symbols'
import { malformed } from '../errors'
import { fetchText } from '../http'
import { parseJson } from '../json'
import type { ChannelContext } from '../types'
import { isObject, type JsonObject } from './envelope'
import { CHANNEL } from './wire'
import { decodeEntities } from '../html'

const REPORT_LIST_URL = 'https://reportapi.eastmoney.com/report/list'
const REPORT_PAGE_URL = 'https://data.eastmoney.com/report/info/'

/** One report as the list gives it, checked. Prices CNY, EPS CNY per share. */
export interface ResearchRow {
  infoCode: string
  date: string
  /** Our prefixed code, e.g. `sh600519`. */
  code: string
  name: string
  broker: string
  brokerCode: string | null
  analysts: string[]
  title: string
  /** Eastmoney's unified rating (`买入`, `增持`, `中性`, `减持`, `卖出`); null when absent. */
  rating: string | null
  /** The same broker's previous rating on the stock; null for a first report. */
  lastRating: string | null
  /** Target price, the top of the range when there is one. */
  targetPrice: number | null
  targetPriceLow: number | null
  /** The forecasts' "this year". */
  year: number
  epsThisYear: number | null
  peThisYear: number | null
  epsNextYear: number | null
  peNextYear: number | null
}

/** One list page: the rows and the number of reports matching in all. */
export interface ReportListPage {
  hits: number
  rows: ResearchRow[]
}

/** The list URL: stock reports (`qType=0`) of `inst` (or of every stock) published in `[begin, end]`. */
export function reportListUrl(q: { inst?: Instrument; begin: string; end: string; pageSize: number; page?: number }): string {
  const code = q.inst ? q.inst.symbol : ''
  return (
    `${REPORT_LIST_URL}?industryCode=*&pageSize=${q.pageSize}&industry=*&rating=*&ratingChange=*` +
    `&beginTime=${q.begin}&endTime=${q.end}&pageNo=${q.page ?? 1}&fields=&qType=0&orgCode=&code=${code}&rcode=`
  )
}

/** The report page of one report (also the link a digest gives as its source). */
export const reportPageUrl = (infoCode: string) => `${REPORT_PAGE_URL}${infoCode}.html`
/** The PDF of one report, as AKShare builds it. */
export const reportPdfUrl = (infoCode: string) => `https://pdf.dfcfw.com/pdf/H3_${infoCode}_1.pdf`

const PREFIX_OF_MARKET: Record<string, string> = { SHANGHAI: 'sh', SHENZHEN: 'sz', BEIJING: 'bj' }
const PUBLISH_DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?)?$/

/** A number field that may be a string, a number, empty or absent; anything else is malformed. */
function optNumber(row: JsonObject, key: string, where: string): number | null {
  const v = row[key]
  if (v === null || v === undefined || v === '' || v === '-') return null
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN
  if (!Number.isFinite(n)) throw malformed(CHANNEL, `${key} of ${where} is not a number: ${JSON.stringify(v)}`)
  return n
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

/** Our code for a row: the `market` field names the exchange; without it, the first digit does. */
function codeOf(symbol: string, market: string): string {
  const prefix = PREFIX_OF_MARKET[market] ?? (/^6/.test(symbol) ? 'sh' : /^[03]/.test(symbol) ? 'sz' : /^[489]/.test(symbol) ? 'bj' : '')
  try {
    const inst = parseSymbol(prefix + symbol)
    if (inst.kind !== 'stock') throw new SymbolError(symbol, 'not a stock')
    return inst.code
  } catch {
    throw malformed(CHANNEL, `report row names ${JSON.stringify(symbol)} (${market || 'no market'}), not an A-share stock`)
  }
}

/**
 * One list row, checked: a stock code that is a stock (and the one asked for, with `inst`), a
 * real publish date, an infoCode, a title, numbers that are numbers, a target range low ≤ high.
 */
export function toResearchRow(row: JsonObject, year: number, inst?: Instrument): ResearchRow {
  const infoCode = text(row.infoCode)
  if (!/^AP\d{10,}$/.test(infoCode)) throw malformed(CHANNEL, `report row has no infoCode: ${JSON.stringify(row.infoCode)}`)
  const symbol = text(row.stockCode)
  if (!/^\d{6}$/.test(symbol)) throw malformed(CHANNEL, `report ${infoCode} has stockCode ${JSON.stringify(row.stockCode)}`)
  if (inst && symbol !== inst.symbol) throw malformed(CHANNEL, `report ${infoCode} is on ${symbol}, not ${inst.code}`)
  const code = inst ? inst.code : codeOf(symbol, text(row.market))
  const m = PUBLISH_DATE.exec(text(row.publishDate))
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `report ${infoCode} has publishDate ${JSON.stringify(row.publishDate)}`)
  const title = text(row.title)
  if (!title) throw malformed(CHANNEL, `report ${infoCode} has no title`)
  const where = `report ${infoCode}`
  const targetPrice = optNumber(row, 'indvAimPriceT', where)
  const targetPriceLow = optNumber(row, 'indvAimPriceL', where)
  if ((targetPrice !== null && targetPrice <= 0) || (targetPriceLow !== null && targetPriceLow <= 0)) throw malformed(CHANNEL, `${where} has a target price that is not positive`)
  if (targetPrice !== null && targetPriceLow !== null && targetPriceLow > targetPrice) throw malformed(CHANNEL, `${where} has a target range ${targetPriceLow} > ${targetPrice}`)
  const analysts = text(row.researcher)
    .split(/[,，;；\s]+/)
    .filter((a) => a !== '')
  return {
    infoCode,
    date: m[1],
    code,
    name: text(row.stockName),
    broker: text(row.orgSName) || text(row.orgName),
    brokerCode: text(row.orgCode) || null,
    analysts,
    title,
    rating: text(row.emRatingName) || null,
    lastRating: text(row.lastEmRatingName) || null,
    // A range given only as its low end is a single target.
    targetPrice: targetPrice ?? targetPriceLow,
    targetPriceLow: targetPrice === null ? null : targetPriceLow,
    year,
    epsThisYear: optNumber(row, 'predictThisYearEps', where),
    peThisYear: optNumber(row, 'predictThisYearPe', where),
    epsNextYear: optNumber(row, 'predictNextYearEps', where),
    peNextYear: optNumber(row, 'predictNextYearPe', where),
  }
}

/** Reads one list answer; rows newest first. No reports is `{hits: 0, rows: []}`. */
export function readReportList(body: string, inst?: Instrument): ReportListPage {
  const json = parseJson(CHANNEL, body, 'report list')
  if (!isObject(json) || !Array.isArray(json.data) || typeof json.hits !== 'number') throw malformed(CHANNEL, 'report list is not {hits, data}')
  if (json.data.length === 0) return { hits: 0, rows: [] }
  const year = json.currentYear
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1990 || year > 2100) throw malformed(CHANNEL, `report list has currentYear ${JSON.stringify(year)}`)
  if (!json.data.every(isObject)) throw malformed(CHANNEL, 'report list row is not an object')
  const rows = (json.data as JsonObject[]).map((r) => toResearchRow(r, year, inst))
  // Newest first, whatever order the page came in (stable within a day).
  rows.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
  return { hits: json.hits, rows }
}

/** Plain text of an HTML fragment: tags gone, entities decoded. */
function plain(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, ''))
    .replace(/[ \t\u00a0\u3000]+/g, ' ')
    .trim()
}

/**
 * The summary of a report page: the paragraphs of its content block, one per line (empty when the
 * page shows none). The block is `div.ctx-content` (what public scrapers of these pages read today,
 * RSSHub's lib/routes/eastmoney/report/index.tsx among them, which no longer reads
 * `.newsContent` for stock reports) or, on older pages, `div.newsContent`; `id="ctx-content"` is
 * taken too. A page without one is not a report page: `malformed`.
 */
export function readReportPage(html: string): string {
  const open = /<div[^>]*\b(?:class="[^"]*\b(?:ctx-content|newsContent)\b[^"]*"|id="ctx-content")[^>]*>/i.exec(html)
  if (!open) throw malformed(CHANNEL, 'report page has no div.ctx-content or div.newsContent')
  const rest = html.slice(open.index + open[0].length)
  const close = rest.search(/<\/div>/i)
  const inner = close < 0 ? rest : rest.slice(0, close)
  const paragraphs = [...inner.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/gi)].map((p) => plain(p[1]))
  return (paragraphs.length > 0 ? paragraphs : [plain(inner)]).filter((p) => p !== '').join('\n')
}

/** One page of the report list. */
export async function fetchReportList(ctx: ChannelContext, q: { inst?: Instrument; begin: string; end: string; pageSize: number }): Promise<ReportListPage> {
  return readReportList(await fetchText(ctx, CHANNEL, reportListUrl(q), { headers: { Referer: 'https://data.eastmoney.com/report/stock.jshtml' } }), q.inst)
}

/** The summary text of one report. */
export async function fetchReportSummary(ctx: ChannelContext, infoCode: string): Promise<string> {
  return readReportPage(await fetchText(ctx, CHANNEL, reportPageUrl(infoCode)))
}

/**
 * Eastmoney research reports in their wire formats (upstreams.md §5.16): the report list of
 * `reportapi.eastmoney.com/report/list` (JSON, `{hits, size, data, TotalPage, pageNo, currentYear}`,
 * row keys as AKShare's rename map lists them) and the report page
 * `data.eastmoney.com/report/info/<infoCode>.html` whose `div.ctx-content` holds the summary
 * paragraphs and `a.pdf-link` the PDF (the elements public scrapers of that page read today, e.g.
 * RSSHub's lib/routes/eastmoney/report/index.tsx; older pages had `div.newsContent`). No page was
 * captured; the markup follows what independent public scrapers match on the live page (research
 * index file ids 53754552521, 63116303296, 63310911926; the index did not name the repositories):
 * `<h1 id="zw-title">`, `<div id="ctx-content" class="ctx-content">` closed right before
 * `<div class="c-foot">`, which holds `a.pdf-link`. `ratingChange` codes as the site's scripts
 * name them (RSSHub's lib/routes/eastmoney/utils.ts): 0 调高, 1 调低, 2 首次, 3 维持, 4 无.
 */
import { addDays, beijing } from '../../domain/dates'
import { decodeInfoCode, marketReportKeys, RATINGS, reportDates, researchReport, type ResearchReport } from '../market/research'
import type { EmuInstrument, MarketModel } from '../market/types'
import { jsonResponse, notFound, textResponse } from './respond'

export const REPORT_API_HOST = /^reportapi\.eastmoney\.com$/
export const REPORT_LIST_PATH = '/report/list'
export const REPORT_PAGE_HOST = /^data\.eastmoney\.com$/
export const REPORT_PAGE_PATH = /^\/report\/info\/(AP\d{18})\.html$/

/** The most rows one list page carries (the site pages by 50; AKShare asks 5000). */
const MAX_PAGE_SIZE = 5000
/** Market-wide listings look back at most this far: the emulator scans every stock per day. */
const MAX_MARKET_SPAN_DAYS = 92

const MARKET: Record<string, string> = { sh: 'SHANGHAI', sz: 'SHENZHEN', bj: 'BEIJING' }
const num = (x: number | null, digits = 2) => (x === null ? '' : x.toFixed(digits))

/**
 * The rating's ordinal as real answers send it (`emRatingValue` "3" with 买入, "2" with 增持: a
 * capture of 2026-07-25, test/fixtures/eastmoney/report-list-excerpt-2026-07-25.json); the others'
 * values are not known and stay empty.
 */
const RATING_VALUE: Record<string, string> = { 买入: '3', 增持: '2' }

/** 2 a first rating, 3 one maintained (as real rows show), 0 raised, 1 lowered. */
function ratingChange(r: ResearchReport): number {
  if (r.lastRating === null) return 2
  const now = RATINGS.indexOf(r.rating)
  const before = RATINGS.indexOf(r.lastRating)
  return now === before ? 3 : now < before ? 0 : 1
}

/** One list row, keys in the order the upstream sends them. */
function row(r: ResearchReport): Record<string, unknown> {
  return {
    title: r.title,
    stockName: r.inst.name,
    stockCode: r.inst.symbol,
    orgCode: r.broker.code,
    orgName: r.broker.name,
    orgSName: r.broker.shortName,
    publishDate: `${r.date} 00:00:00.000`,
    infoCode: r.infoCode,
    column: '001001',
    predictNextTwoYearEps: '',
    predictNextTwoYearPe: '',
    predictNextYearEps: num(r.epsNextYear),
    predictNextYearPe: num(r.peNextYear),
    predictThisYearEps: num(r.epsThisYear),
    predictThisYearPe: num(r.peThisYear),
    predictLastYearEps: '',
    predictLastYearPe: '',
    actualLastTwoYearEps: '',
    actualLastYearEps: '',
    industryCode: '',
    industryName: '',
    emIndustryCode: '',
    indvInduCode: '',
    indvInduName: '',
    emRatingCode: '',
    emRatingValue: RATING_VALUE[r.rating] ?? '',
    emRatingName: r.rating,
    lastEmRatingCode: '',
    lastEmRatingValue: r.lastRating === null ? '' : (RATING_VALUE[r.lastRating] ?? ''),
    lastEmRatingName: r.lastRating ?? '',
    ratingChange: ratingChange(r),
    reportType: 1,
    author: r.analysts.map((a) => `${a.id}.${a.name}`),
    indvIsNew: r.lastRating === null ? '1' : '0',
    researcher: r.analysts.map((a) => a.name).join(','),
    newListingDate: null,
    newPurchaseDate: null,
    newIssuePrice: null,
    newPeIssueA: null,
    indvAimPriceT: num(r.target),
    indvAimPriceL: num(r.targetLow),
    attachType: '0',
    attachSize: 300 + (Number(r.infoCode.slice(-4)) % 900),
    attachPages: 3 + (Number(r.infoCode.slice(-3)) % 20),
    encodeUrl: '',
    sRatingName: r.rating,
    sRatingCode: '',
    market: MARKET[r.inst.prefix],
    authorID: r.analysts.map((a) => a.id),
    count: r.countLastMonth,
    orgType: '4',
  }
}

const empty = (pageSize: number, year: number) => ({ hits: 0, size: pageSize, data: [], TotalPage: 0, pageNo: 1, currentYear: year })

function stockBySymbol(market: MarketModel, symbol: string): EmuInstrument | undefined {
  for (const p of ['sh', 'sz', 'bj']) {
    const inst = market.byCode(p + symbol)
    if (inst && inst.kind === 'stock') return inst
  }
  return undefined
}

/** `GET /report/list`: stock reports (`qType=0`) of one `code` or of all, in `[beginTime, endTime]`, newest first. */
export function handleReportList(params: URLSearchParams, market: MarketModel, now: number): Response {
  const today = beijing(now).date
  const year = +today.slice(0, 4)
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Number(params.get('pageSize')) || 50))
  const pageNo = Math.max(1, Number(params.get('pageNo')) || 1)
  const qType = params.get('qType') ?? '0'
  if (qType !== '0') return jsonResponse(empty(pageSize, year))
  const begin = /^\d{4}-\d{2}-\d{2}$/.test(params.get('beginTime') ?? '') ? params.get('beginTime')! : addDays(today, -365)
  const endParam = /^\d{4}-\d{2}-\d{2}$/.test(params.get('endTime') ?? '') ? params.get('endTime')! : today
  const end = endParam < today ? endParam : today
  const code = (params.get('code') ?? '').trim()

  let keys: Array<{ inst: EmuInstrument; date: string }>
  if (code && code !== '*') {
    const inst = stockBySymbol(market, code)
    keys = inst ? reportDates(inst, begin, end).map((date) => ({ inst, date })) : []
  } else {
    const from = begin > addDays(end, -MAX_MARKET_SPAN_DAYS) ? begin : addDays(end, -MAX_MARKET_SPAN_DAYS)
    keys = marketReportKeys(market, from, end)
  }
  if (keys.length === 0) return jsonResponse(empty(pageSize, year))
  const page = keys.slice((pageNo - 1) * pageSize, pageNo * pageSize)
  const data = page.map((k) => researchReport(market, k.inst, k.date, now)).filter((r): r is ResearchReport => r !== null).map(row)
  return jsonResponse({ hits: keys.length, size: pageSize, data, TotalPage: Math.ceil(keys.length / pageSize), pageNo, currentYear: year })
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** `GET /report/info/<infoCode>.html`: the report page; an unknown code is the site's 404. */
export function handleReportPage(infoCode: string, market: MarketModel, now: number): Response {
  const found = decodeInfoCode(market, infoCode)
  if (!found || found.date > beijing(now).date) return notFound()
  const r = researchReport(market, found.inst, found.date, now)
  if (!r) return notFound()
  const paragraphs = r.summary.map((p) => `    <p>&nbsp;&nbsp;&nbsp;&nbsp;${escapeHtml(p)}</p>`).join('\n')
  const html = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8" />
<title>${escapeHtml(r.title)}_${escapeHtml(r.inst.name)}(${r.inst.symbol})_研报正文_东方财富网</title>
</head>
<body>
<div class="main">
  <div class="c-title"><h1 id="zw-title">${escapeHtml(r.title)}</h1></div>
  <div class="c-infos">
    <span>${escapeHtml(r.inst.name)}(${r.inst.symbol})</span>
    <span>${r.date}</span>
    <span>${escapeHtml(r.broker.shortName)}</span>
    <span>${escapeHtml(r.analysts.map((a) => a.name).join(','))}</span>
    <span class="rating">${r.rating}</span>
  </div>
  <div id="ctx-content" class="ctx-content">
${paragraphs}
  </div>
  <div class="c-foot"><a class="pdf-link" href="https://pdf.dfcfw.com/pdf/H3_${r.infoCode}_1.pdf">查看PDF原文</a></div>
</div>
</body>
</html>
`
  return textResponse(html, 'text/html; charset=utf-8')
}

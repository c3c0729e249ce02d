/**
 * Eastmoney research reports in their wire formats (upstreams.md §5.16): the report list of
 * `reportapi.eastmoney.com/report/list` (JSON, `{hits, size, data, TotalPage, pageNo, currentYear}`,
 * row keys and value forms as a whole real page of 2026-09-28..30 has them, see {@link row}) and the report page
 * `data.eastmoney.com/report/info/<infoCode>.html` whose `div.ctx-content` holds the summary
 * paragraphs and `a.pdf-link` the PDF, in the markup of a real page (captured 2026-09-30, see
 * {@link handleReportPage}). `ratingChange` codes as the site's scripts
 * name them (RSSHub's lib/routes/eastmoney/utils.ts): 0 调高, 1 调低, 2 首次, 3 维持, 4 无.
 */
import { addDays, beijing } from '../../domain/dates'
import { decodeInfoCode, marketReportKeys, RATINGS, reportDates, researchReport, type ResearchReport } from '../market/research'
import { SECTORS } from '../market/catalog'
import { industryOf } from '../market/industries'
import { ipoPlan } from '../market/ipo'
import { hashString } from '../market/random'
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

/**
 * The rating's code (`emRatingCode`, `lastEmRatingCode`): "007" with 买入, "006" with 增持 on every
 * row of a whole page of 2026-09-28..30 (test/fixtures/eastmoney/report-list-qtype0-2026-09-28-30.json);
 * the others' codes are not known and stay empty.
 */
const RATING_CODE_OF: Record<string, string> = { 买入: '007', 增持: '006' }

/**
 * The report's column: stock reports on that page are filed under `002004…` codes (002004002002 a
 * results review, 002004001002 a first or in-depth coverage, 002004001003 and 002004006003 a
 * company note); the model files a first coverage as the second, every other report as the first.
 */
const column = (r: ResearchReport) => (r.lastRating === null ? '002004001002' : '002004002002')

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * `encodeUrl`: 32 opaque bytes in base64 (44 characters, one `=`); on the real page the first 21
 * characters are the same for every report of one publish day, so the first half is drawn from the
 * date and the second from the infoCode.
 */
function encodeUrl(r: ResearchReport): string {
  const bytes: number[] = []
  for (let i = 0; i < 32; i++) bytes.push(hashString(`${i < 16 ? r.date : r.infoCode}:${i}`) & 0xff)
  let out = ''
  for (let i = 0; i < 33; i += 3) {
    const [a, b = 0, c = 0] = bytes.slice(i, i + 3)
    const n = (a << 16) | (b << 8) | c
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63] + (i + 1 < 32 ? BASE64[(n >> 6) & 63] : '=') + (i + 2 < 32 ? BASE64[n & 63] : '=')
  }
  return out
}

/** 2 a first rating, 3 one maintained (as real rows show), 0 raised, 1 lowered. */
function ratingChange(r: ResearchReport): number {
  if (r.lastRating === null) return 2
  const now = RATINGS.indexOf(r.rating)
  const before = RATINGS.indexOf(r.lastRating)
  return now === before ? 3 : now < before ? 0 : 1
}

/**
 * One list row, keys in the order the upstream sends them and values in its forms (a whole page of
 * 2026-09-28..30, test/fixtures/eastmoney/report-list-qtype0-2026-09-28-30.json): `reportType` 2 and
 * `orgType` "white" for stock reports, `indvIsNew` "001", the industry board's number without `BK` and
 * its name, the listing and subscription days as "… 00:00:00.000" and "… 00:00:00.0", targets with 10
 * decimals.
 */
function row(market: MarketModel, r: ResearchReport): Record<string, unknown> {
  const bk = industryOf(r.inst)
  const ipo = ipoPlan(market, r.inst)
  return {
    title: r.title,
    stockName: r.inst.name,
    stockCode: r.inst.symbol,
    orgCode: r.broker.code,
    orgName: r.broker.name,
    orgSName: r.broker.shortName,
    publishDate: `${r.date} 00:00:00.000`,
    infoCode: r.infoCode,
    column: column(r),
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
    indvInduCode: bk === undefined ? '' : String(Number(bk)),
    indvInduName: bk === undefined ? '' : (SECTORS[bk] ?? ''),
    emRatingCode: RATING_CODE_OF[r.rating] ?? '',
    emRatingValue: RATING_VALUE[r.rating] ?? '',
    emRatingName: r.rating,
    lastEmRatingCode: r.lastRating === null ? '' : (RATING_CODE_OF[r.lastRating] ?? ''),
    lastEmRatingValue: r.lastRating === null ? '' : (RATING_VALUE[r.lastRating] ?? ''),
    lastEmRatingName: r.lastRating ?? '',
    ratingChange: ratingChange(r),
    reportType: 2,
    author: r.analysts.map((a) => `${a.id}.${a.name}`),
    indvIsNew: '001',
    researcher: r.analysts.map((a) => a.name).join(','),
    newListingDate: `${r.inst.listDate} 00:00:00.000`,
    newPurchaseDate: ipo ? `${ipo.applyDate} 00:00:00.0` : '',
    newIssuePrice: ipo ? ipo.issuePrice : '',
    newPeIssueA: ipo ? ipo.issuePe : '',
    indvAimPriceT: num(r.target, 10),
    indvAimPriceL: num(r.targetLow, 10),
    attachType: '0',
    attachSize: 300 + (Number(r.infoCode.slice(-4)) % 900),
    attachPages: 3 + (Number(r.infoCode.slice(-3)) % 20),
    encodeUrl: encodeUrl(r),
    sRatingName: r.rating,
    sRatingCode: '',
    market: MARKET[r.inst.prefix],
    authorID: r.analysts.map((a) => a.id),
    count: r.countLastMonth,
    orgType: 'white',
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
  const data = page.map((k) => researchReport(market, k.inst, k.date, now)).filter((r): r is ResearchReport => r !== null).map((r) => row(market, r))
  return jsonResponse({ hits: keys.length, size: pageSize, data, TotalPage: Math.ceil(keys.length / pageSize), pageNo, currentYear: year })
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The paragraph indent of the real page (two ideographic spaces, in the HTML and in `zwinfo.notice_content`). */
const INDENT = '\u3000\u3000'

/**
 * The page's `zwinfo.rating` code: 增持 is `BB` on the real page of 2026-09-30; the other ratings'
 * codes are not known and stay empty.
 */
const RATING_CODE: Record<string, string> = { 增持: 'BB' }

/**
 * When the report entered the system (`zwinfo.eitime`, Beijing wall time): the model has no time of
 * day, so one in 07:00–08:59 from the code's check digits (before the session of the report date).
 */
function entryTime(r: ResearchReport): string {
  const n = Number(r.infoCode.slice(-4))
  const pad = (x: number) => String(x).padStart(2, '0')
  return `${r.date} ${pad(7 + (n % 2))}:${pad(Math.floor(n / 2) % 60)}:${pad(n % 60)}`
}

/**
 * `GET /report/info/<infoCode>.html`: the report page; an unknown code is the site's 404. The markup
 * follows a real page (test/fixtures/eastmoney/report-page-AP202609301830020241-2026-09-30.html),
 * without the site's navigation, side boxes and footer: `<html lang="zh_CN">`, the title with the
 * template's own "- 宏观研究报告 _ 数据中心 _ 东方财富网" (a stock report's page says so too), the
 * breadcrumb `<name>-研报正文`, `h1#zw-title`, `div.c-infos` (site link, an empty
 * `span#publish-date` the page's script fills, the broker's short name, the analysts, the PDF link),
 * `div#ctx-content.ctx-content` of `<p>` paragraphs indented by two U+3000, the first the stock's
 * `name(code)` line and the last one empty, `div.c-foot` (`span.to-more`, `span.to-pre` with the
 * PDF link), then the page script's `var zwinfo= {…};` whose `notice_content` holds the same
 * paragraphs. The PDF link carries `?<ms>.pdf`, the entry time read as UTC (as the real page's
 * 1790759486000 is its eitime 2026-09-30 09:11:26 read as UTC).
 */
export function handleReportPage(infoCode: string, market: MarketModel, now: number): Response {
  const found = decodeInfoCode(market, infoCode)
  if (!found || found.date > beijing(now).date) return notFound()
  const r = researchReport(market, found.inst, found.date, now)
  if (!r) return notFound()
  const eitime = entryTime(r)
  const pdf = `https://pdf.dfcfw.com/pdf/H3_${r.infoCode}_1.pdf?${Date.parse(eitime.replace(' ', 'T') + 'Z')}.pdf`
  const researcher = r.analysts.map((a) => a.name).join(',')
  const lines = [`${r.inst.name}(${r.inst.symbol})`, ...r.summary]
  const paragraphs = [...lines.map((p) => `<p>${INDENT}${escapeHtml(p)}</p>`), '<p></p>'].map((p) => `                        ${p}\n\n`).join('')
  const zwinfo = {
    attach_pages: String(3 + (Number(r.infoCode.slice(-3)) % 20)),
    attach_size: String(300 + (Number(r.infoCode.slice(-4)) % 900)),
    attach_type: '0',
    attach_url: pdf,
    company_code: r.broker.code,
    eitime,
    extend: {},
    info_code: r.infoCode,
    language: '0',
    notice_content: lines.map((p) => `${INDENT}${p}\n`).join(''),
    notice_date: `${r.date} 00:00:00`,
    notice_title: r.title,
    page_size: 1,
    page_size_ch: 0,
    page_size_cht: 0,
    page_size_en: 0,
    rating: RATING_CODE[r.rating] ?? '',
    researcher,
    security: [{ market_uni: r.inst.prefix === 'sh' ? '1' : '0', short_name: r.inst.name, short_name_ch: r.inst.name, stock: r.inst.symbol }],
    short_name: r.inst.name,
    source_sample_name: r.broker.shortName,
  }
  const pdfLink = (indent: string) => `${indent}<a class="pdf-link" href="${pdf}">
${indent}    <span class="icon icon_pdf valign-middle"></span>查看PDF原文
${indent}</a>`
  const html = `<!DOCTYPE html>
<html lang="zh_CN">

<head>
    <meta charset="UTF-8">
    <title>${escapeHtml(r.title)}- 宏观研究报告 _ 数据中心 _ 东方财富网</title>
</head>

<body>
    <div class="main">
    <div class="linkNav">
        <div class="tit-route">
             <a href="//www.eastmoney.com/">东方财富网</a> > <a href="/report/">研报大全</a> > 
             ${escapeHtml(r.inst.name)}-研报正文
        </div>
    </div>
    <div class="zw-content">
        <div class="left">
            <div class="ctx-box">
                <div class="c-title">
                    <h1 id="zw-title">${escapeHtml(r.title)}</h1> 
                </div>
                <div class="c-infos">
                    <span><a href="//www.eastmoney.com" target="_blank">www.eastmoney.com</a></span>
                    <span id="publish-date"></span>
                    <span>${escapeHtml(r.broker.shortName)}</span>
                    <span>${escapeHtml(researcher)}</span>
                    <span class="to-link">
${pdfLink('                        ')}
                    </span>
                </div>
                <div class="ctx-body">
                    <div id="ctx-content" class="ctx-content">

${paragraphs}                    </div>
                    <div class="c-foot">
                        <span class="to-more">
                            <a class="" href="//choice.eastmoney.com/Activity/ResearchReport/46.html?adid=2428">今日最新研究报告</a>
                        </span>
                        <span class="to-pre">
${pdfLink('                            ')}
                        </span>
                    </div>
                </div>
            </div>
        </div>
    </div>
</div>

<script>
    var zwinfo= ${JSON.stringify(zwinfo).replace(/</g, '\\u003c')};
</script>
</body>

</html>
`
  return textResponse(html, 'text/html; charset=utf-8')
}

/**
 * Eastmoney as the emulator answers it: `push2 …/api/qt/ulist.np/get` (batch quotes),
 * `push2 …/api/qt/clist/get` (lists by filter, eastmoney-list.ts), `push2his
 * …/api/qt/stock/kline/get` (K-lines), all UTF-8 JSON in Eastmoney's `{"rc":…,"data":…}` envelope,
 * `datacenter-web …/api/data/v1/get` (reports, eastmoney-datacenter.ts) and Guba's popularity rank
 * (`emappdata`, eastmoney-rank.ts), and the up/down distribution (`push2ex`, eastmoney-push2ex.ts). Shapes and units:
 * src/channels/README.md, Eastmoney section.
 */
import { hasTraded } from '../market/quote'
import { beijing } from '../../domain/dates'
import type { EmuInstrument, MarketModel, RawBar } from '../market/types'
import { adjustBars, dailySeries, lastInRange, withBase, type Adjust, type BarWithBase, type Span } from './bars'
import { bySecid, splitSecid } from './codes'
import { DATACENTER_HOST, DATACENTER_PATH, datacenterEmpty, handleDatacenter } from './eastmoney-datacenter'
import { F10_DATACENTER_PATH } from './eastmoney-hk-holders'
import { quoteRow, requestedFields, volumeUnits } from './eastmoney-fields'
import { envelope, type Value } from './push2-envelope'
import { CLIST_PATH, clistEmpty, handleClist } from './eastmoney-list'
import { FFLOW_DAY_PATH, fflowEmpty, handleFflowDay } from './eastmoney-flow'
import { handlePush2ex, PUSH2EX_HOST, push2exEmpty } from './eastmoney-push2ex'
import { handleRank, RANK_HOST, rankEmpty } from './eastmoney-rank'
import { handleSearch, SEARCH_HOST, SEARCH_PATH, searchEmpty } from './eastmoney-search'
import { handleStockGet, STOCK_GET_PATH } from './eastmoney-stock'
import { BUSINESS_PATH, F10_HOST, handleBusinessAnalysis, handleCompanySurvey, SURVEY_PATH } from './eastmoney-f10'
import { handleSlist, SLIST_PATH } from './eastmoney-slist'
import { handleReportList, handleReportPage, REPORT_API_HOST, REPORT_LIST_PATH, REPORT_PAGE_HOST, REPORT_PAGE_PATH } from './eastmoney-reports'
import { riseSpeed } from '../market/trade-stats'
import { fixed, pctOf, round } from './format'
import { jsonResponse, notFound } from './respond'

/** `push2`, `push2delay` and numbered mirrors (`82.push2.eastmoney.com`) serve real-time quotes. */
const QUOTE_HOST = /^(\d+\.)?push2(delay)?\.eastmoney\.com$/
/** `push2his` and its numbered mirrors serve history. */
const HISTORY_HOST = /^(\d+\.)?push2his\.eastmoney\.com$/

const QUOTES_PATH = '/api/qt/ulist.np/get'
const KLINE_PATH = '/api/qt/stock/kline/get'

/** Answers one Eastmoney request; unknown paths get nginx's 404. */
export function handleEastmoney(url: URL, request: Request, market: MarketModel, now: number): Response | Promise<Response> {
  const host = url.hostname
  if (host === RANK_HOST) return handleRank(url, request, market, now)
  if (host === PUSH2EX_HOST) return handlePush2ex(url, market, now)
  if (url.pathname === QUOTES_PATH && QUOTE_HOST.test(host)) return quotes(url.searchParams, market, now)
  if (url.pathname === CLIST_PATH && QUOTE_HOST.test(host)) return handleClist(url.searchParams, market, now)
  if (url.pathname === STOCK_GET_PATH && QUOTE_HOST.test(host)) return handleStockGet(url.searchParams, market, now)
  if (url.pathname === SLIST_PATH && QUOTE_HOST.test(host)) return handleSlist(url.searchParams, market, now)
  if (url.pathname === BUSINESS_PATH && F10_HOST.test(host)) return handleBusinessAnalysis(url.searchParams, market, now)
  if (url.pathname === SURVEY_PATH && F10_HOST.test(host)) return handleCompanySurvey(url.searchParams, market)
  if ((url.pathname === DATACENTER_PATH || url.pathname === F10_DATACENTER_PATH) && DATACENTER_HOST.test(host)) return handleDatacenter(url.searchParams, market, now)
  if (url.pathname === FFLOW_DAY_PATH && HISTORY_HOST.test(host)) return handleFflowDay(url.searchParams, market, now)
  if (url.pathname === SEARCH_PATH && SEARCH_HOST.test(host)) return handleSearch(url.searchParams, market)
  if (url.pathname === REPORT_LIST_PATH && REPORT_API_HOST.test(host)) return handleReportList(url.searchParams, market, now)
  const reportPage = REPORT_PAGE_HOST.test(host) ? REPORT_PAGE_PATH.exec(url.pathname) : null
  if (reportPage) return handleReportPage(reportPage[1], market, now)
  if (url.pathname === KLINE_PATH) {
    if (HISTORY_HOST.test(host)) return kline(url.searchParams, market, now)
    // push2 itself keeps no history: it answers K-line requests with nothing.
    if (QUOTE_HOST.test(host)) return jsonResponse(envelope(0, null))
  }
  return notFound()
}

/**
 * Eastmoney's own "no data" answer for a request: `data: null` for quotes and lists, no rows for
 * K-lines, code 9201 for datacenter reports.
 */
export function eastmoneyEmpty(url: URL, market: MarketModel): Response | undefined {
  if (url.hostname === RANK_HOST) return rankEmpty()
  if (url.hostname === PUSH2EX_HOST) return push2exEmpty()
  if (url.pathname === QUOTES_PATH) return jsonResponse(envelope(0, null))
  if (url.pathname === CLIST_PATH) return clistEmpty()
  if (url.pathname === STOCK_GET_PATH || url.pathname === SLIST_PATH) return jsonResponse(envelope(0, null))
  if (url.pathname === BUSINESS_PATH) return jsonResponse({ zyfw: [], jyps: [], zygcfx: [] })
  if (url.pathname === SURVEY_PATH) return jsonResponse({ jbzl: [], fxxg: [] })
  if (url.pathname === DATACENTER_PATH || url.pathname === F10_DATACENTER_PATH) return datacenterEmpty()
  if (url.pathname === FFLOW_DAY_PATH) return fflowEmpty(url.searchParams, market)
  if (url.pathname === SEARCH_PATH) return searchEmpty()
  if (url.pathname === REPORT_LIST_PATH) return jsonResponse({ hits: 0, size: 50, data: [], TotalPage: 0, pageNo: 1, currentYear: 0 })
  if (url.pathname === KLINE_PATH) {
    const inst = bySecid(market, url.searchParams.get('secid') ?? '')
    if (!inst) return jsonResponse(envelope(100, null))
    return jsonResponse(envelope(0, { ...header(inst, 0, 0, url.searchParams.get('fields1')), klines: [] }))
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Quotes

function quotes(params: URLSearchParams, market: MarketModel, now: number): Response {
  const ids = requestedFields(params)
  const fltt2 = params.get('fltt') === '2'
  const seen = new Set<EmuInstrument>()
  const diff: Array<Record<string, Value>> = []
  for (const secid of (params.get('secids') ?? '').split(',')) {
    const inst = bySecid(market, secid.trim())
    // Unknown secids are dropped silently, duplicates answered once.
    if (!inst || seen.has(inst)) continue
    seen.add(inst)
    const q = market.live(inst, now)
    // f22 (rise speed) needs the minute bars: computed only when asked for.
    const extra = ids.includes('f22') ? { f22: hasTraded(q) ? round(riseSpeed(market, q, now), 2) : '-' } : undefined
    diff.push(quoteRow(q, ids, fltt2, extra))
  }
  // None of the codes known: the real host answers rc 102 with no data (test/fixtures/push2/ulist-rc102-unknown-codes.json).
  return jsonResponse(diff.length ? envelope(0, { total: diff.length, diff }) : envelope(102, null))
}

// ---------------------------------------------------------------------------------------------
// K-lines

const MINUTE_KLT: Record<string, number> = { 1: 1, 5: 5, 15: 15, 30: 30, 60: 60 }
const SPAN_KLT: Record<string, Span | null> = { 101: null, 102: 'week', 103: 'month', 104: 'quarter', 106: 'year' }
const ADJUST: Record<string, Adjust> = { 0: 'none', 1: 'qfq', 2: 'hfq' }
const DEFAULT_FIELDS2 = [51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61]

/** `YYYYMMDD` → `YYYY-MM-DD` (compared as text, so `20500000` still works as "no end"); anything else → `fallback`. */
function ymd(raw: string | null, fallback: string): string {
  return raw && /^\d{8}$/.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6)}` : fallback
}

/** The header keys `fields1` asks for (f1 code … f6 preKPrice); all six when absent. */
function header(inst: EmuInstrument, dktotal: number, preKPrice: number, fields1: string | null): Record<string, Value> {
  const { market, code } = splitSecid(inst.secid)
  const all: Array<[string, string, Value]> = [
    ['f1', 'code', code],
    ['f2', 'market', market],
    ['f3', 'name', inst.name],
    ['f4', 'decimal', inst.decimals],
    ['f5', 'dktotal', dktotal],
    ['f6', 'preKPrice', preKPrice],
  ]
  const want = fields1 ? new Set(fields1.split(',').map((s) => s.trim())) : null
  return Object.fromEntries(all.filter(([id]) => !want || want.has(id)).map(([, key, v]) => [key, v]))
}

/**
 * The bars the request can be answered from, oldest first: the minute window's bars, or daily
 * bars (aggregated for week and longer) far enough back for the range, the limit and the base.
 */
function series(inst: EmuInstrument, klt: { minutes?: number; span: Span | null }, adjust: Adjust, range: { from: string; to: string; limit?: number }, market: MarketModel, now: number): RawBar[] {
  if (klt.minutes !== undefined) {
    // Beijing's date is never behind any exchange's, so it bounds every market's "today".
    const bars = market.minuteBars(inst, klt.minutes, market.minuteWindowStart(inst, now), beijing(now).date, now)
    return adjustBars(bars, inst, market, adjust, now)
  }
  return dailySeries(market, inst, klt.span ?? 'day', adjust, range, now)
}

/** One K-line row: the requested columns in ascending id order. */
function row(inst: EmuInstrument, { bar, base }: BarWithBase, columns: readonly number[]): string {
  const d = inst.decimals
  const col = (id: number): string => {
    switch (id) {
      case 51: return bar.date
      case 52: return fixed(bar.open, d)
      case 53: return fixed(bar.close, d)
      case 54: return fixed(bar.high, d)
      case 55: return fixed(bar.low, d)
      case 56: return String(volumeUnits(inst, bar.volume))
      case 57: return fixed(bar.amount, 2)
      case 58: return fixed(pctOf(bar.high - bar.low, base), 2)
      case 59: return fixed(pctOf(bar.close - base, base), 2)
      case 60: return fixed(bar.close - base, d)
      case 61: return bar.turnover === null ? '-' : fixed(bar.turnover, 2)
      default: return '-'
    }
  }
  return columns.map(col).join(',')
}

function kline(params: URLSearchParams, market: MarketModel, now: number): Response {
  const inst = bySecid(market, params.get('secid') ?? '')
  if (!inst) return jsonResponse(envelope(100, null))
  const klt = params.get('klt') ?? '101'
  const minutes = MINUTE_KLT[klt]
  const span = SPAN_KLT[klt]
  // An unknown klt (105 half-year included) is a parameter error.
  if (minutes === undefined && span === undefined) return jsonResponse(envelope(102, null))
  const adjust = ADJUST[params.get('fqt') ?? '0'] ?? 'none'
  const beg = ymd(params.get('beg'), '0000-00-00')
  const end = ymd(params.get('end'), '9999-99-99')
  const lmtRaw = Number(params.get('lmt'))
  const lmt = Number.isInteger(lmtRaw) && lmtRaw > 0 ? lmtRaw : undefined
  const columns = parseFields2(params.get('fields2'))

  const all = withBase(series(inst, { minutes, span: span ?? null }, adjust, { from: beg, to: end, limit: lmt }, market, now))
  const rows = lastInRange(all, beg, end, lmt)
  const preKPrice = rows.length ? round(rows[0].base, inst.decimals) : 0
  return jsonResponse(envelope(0, { ...header(inst, all.length, preKPrice, params.get('fields1')), klines: rows.map((r) => row(inst, r, columns)) }))
}

/** `fields2` ids f51…f64, deduplicated, ascending; the standard eleven when none is given. */
function parseFields2(raw: string | null): number[] {
  const ids = new Set<number>()
  for (const s of (raw ?? '').split(',')) {
    const m = /^f(\d+)$/.exec(s.trim())
    if (m && Number(m[1]) >= 51 && Number(m[1]) <= 64) ids.add(Number(m[1]))
  }
  return ids.size ? [...ids].sort((a, b) => a - b) : DEFAULT_FIELDS2
}

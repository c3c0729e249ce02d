/**
 * Tencent as the emulator answers it: `qt.gtimg.cn` quotes (GBK text), the fqkline / mkline
 * K-line JSON on `proxy.finance.qq.com` and `web.ifzq.gtimg.cn`, and the whole-market rank list
 * (tencent-rank.ts). Shapes and units:
 * src/channels/README.md, Tencent section.
 */
import { US_INDEXES } from '../../data/markets'
import { beijing } from '../../domain/dates'
import { previousTradingDay } from '../../domain/trading-calendar'
import type { CorporateAction, EmuInstrument, LiveQuote, MarketModel, RawBar } from '../market/types'
import { dailySeries, lastInRange, type Adjust } from './bars'
import { byTencentKlineCode, byTencentQuoteCode, isAShare, tencentUsSuffix, tencentVolumeUnit } from './codes'
import { fixed } from './format'
import { gbkResponse, jsonResponse, notFound, textResponse } from './respond'
import { quoteExtras, yearRange } from './quote-extras'
import { aShareFields, hkFields, usFields } from './tencent-qt'
import { handleRankList, RANK_LIST_PATH, rankListEmpty } from './tencent-rank'
import { beijingDateTime } from './time'

/** `qt.gtimg.cn`, `sqt.gtimg.cn`, `web.sqt.gtimg.cn`. */
const QUOTE_HOST = /^([\w-]+\.)?s?qt\.gtimg\.cn$/
const QUOTE_CONTENT_TYPE = 'text/html; charset=GBK'

type Family = 'a' | 'a-plain' | 'hk' | 'us' | 'minute'

/** K-line endpoints by path (after `/ifzqgtimg` on proxy.finance.qq.com). */
const KLINE_PATHS: Record<string, Family> = {
  '/appstock/app/newfqkline/get': 'a',
  '/appstock/app/fqkline/get': 'a-plain',
  '/appstock/app/hkfqkline/get': 'hk',
  '/appstock/app/usfqkline/get': 'us',
  '/appstock/app/kline/mkline': 'minute',
}

/** Answers one Tencent request; unknown paths get nginx's 404. */
export function handleTencent(url: URL, _request: Request, market: MarketModel, now: number): Response {
  if (url.hostname === 'proxy.finance.qq.com' && url.pathname === RANK_LIST_PATH) return handleRankList(url.searchParams, market, now)
  if (QUOTE_HOST.test(url.hostname)) {
    const q = quoteRequest(url)
    if (!q) return notFound()
    const text = q.codes.map((c) => quoteLine(c, market, now)).join('\n') + '\n'
    return q.utf8 ? textResponse(text, 'text/html; charset=utf-8') : gbkResponse(text, QUOTE_CONTENT_TYPE)
  }
  const family = klineFamily(url)
  if (!family) return notFound()
  const params = url.searchParams
  const body = family === 'minute' ? mkline(params.get('param') ?? '', market, now) : fqkline(family, params.get('param') ?? '', market, now)
  return klineResponse(body, params.get('_var'))
}

/** Tencent's own "no data" answer: `v_pv_none_match` per quote code, an empty `data` for K-lines. */
export function tencentEmpty(url: URL): Response | undefined {
  if (url.pathname === RANK_LIST_PATH) return rankListEmpty()
  if (QUOTE_HOST.test(url.hostname)) {
    const q = quoteRequest(url)
    if (!q) return undefined
    return gbkResponse(q.codes.map(() => 'v_pv_none_match="1";').join('\n') + '\n', QUOTE_CONTENT_TYPE)
  }
  if (!klineFamily(url)) return undefined
  return klineResponse({ code: 0, msg: '', data: {} }, url.searchParams.get('_var'))
}

function klineFamily(url: URL): Family | undefined {
  let path = url.pathname
  if (url.hostname === 'proxy.finance.qq.com') {
    if (!path.startsWith('/ifzqgtimg/')) return undefined
    path = path.slice('/ifzqgtimg'.length)
  }
  return KLINE_PATHS[path]
}

/** JSON, or `name={…}` when the caller named a variable with `_var`. */
function klineResponse(body: unknown, varName: string | null): Response {
  if (!varName) return jsonResponse(body, 'application/json; charset=utf-8')
  return textResponse(`${varName}=${JSON.stringify(body)}`, 'application/javascript; charset=utf-8')
}

// ---------------------------------------------------------------------------------------------
// Quotes

/** Codes from `/q=a,b`, `/r=0.5&q=a,b`, `/utf8/q=…` or `?q=…`. */
function quoteRequest(url: URL): { codes: string[]; utf8: boolean } | undefined {
  let path = decodeURIComponent(url.pathname.slice(1))
  const utf8 = path.startsWith('utf8/')
  if (utf8) path = path.slice(5)
  const parts = [...path.split('&'), ...url.search.slice(1).split('&')]
  const q = parts.find((p) => p.startsWith('q='))
  if (q === undefined) return undefined
  return { codes: q.slice(2).split(',').map((c) => c.trim()).filter(Boolean), utf8 }
}

/** The record's fields for the instrument's market. */
function qtFields(q: LiveQuote, market: MarketModel, now: number): string[] {
  const i = q.instrument
  if (i.kind === 'hk') return hkFields(q, yearRange(market, q, now))
  if (i.kind === 'us') return usFields(q, i.symbol + tencentUsSuffix(i), yearRange(market, q, now))
  if (i.kind === 'us-index') return usFields(q, '.' + (US_INDEXES[i.symbol]?.tencent ?? 'us' + i.symbol).slice(2), yearRange(market, q, now))
  return aShareFields(q, quoteExtras(market, q, now))
}

/** `v_<code>="…";`, or `v_pv_none_match="1";` for a code Tencent does not know. */
function quoteLine(code: string, market: MarketModel, now: number): string {
  // `r_hk00700` is the HK real-time variant of `hk00700`.
  const inst = byTencentQuoteCode(market, code.startsWith('r_hk') ? code.slice(2) : code)
  const q = inst && market.live(inst, now, 'tencent')
  // Not listed yet on the line's day: Tencent does not know the code.
  if (!q || q.state === 'unlisted') return 'v_pv_none_match="1";'
  return `v_${code}="${qtFields(q, market, now).join('~')}";`
}

/** The `qt` object K-line answers embed: the latest record under the code as sent, and a market-status line. */
function qtObject(code: string, inst: EmuInstrument, market: MarketModel, now: number): Record<string, string[]> {
  const b = beijing(now)
  const cn = b.minute >= 9 * 60 + 30 && b.minute < 15 * 60 ? 'open_交易中' : 'close_已收盘'
  return { [code]: qtFields(market.live(inst, now, 'tencent'), market, now), market: [`${beijingDateTime(now)}|HK_${cn}|SH_${cn}|SZ_${cn}|US_close_已收盘`] }
}

// ---------------------------------------------------------------------------------------------
// Day / week / month K-lines

const PERIODS = new Set(['day', 'week', 'month'])

const accepts = (family: Family, i: EmuInstrument) =>
  family === 'hk' ? i.kind === 'hk' : family === 'us' ? i.kind === 'us' || i.kind === 'us-index' : isAShare(i)

const isIndex = (i: EmuInstrument) => i.kind === 'index' || i.kind === 'us-index'

/** A positive integer count, or undefined (no limit). */
function countOf(raw: string | undefined): number | undefined {
  const n = Number(raw)
  return raw && Number.isInteger(n) && n > 0 ? n : undefined
}

/** The dividend object Tencent puts in a row's 7th slot on the row that holds an ex-date. */
function dividendInfo(a: CorporateAction): Record<string, string> {
  const per10 = (x: number) => String(Number(fixed(x * 10, 4)))
  const content = `10${a.bonus > 0 ? `送${per10(a.bonus)}股` : ''}${a.cash > 0 ? `派${fixed(a.cash * 10, 2)}元` : ''}`
  return { nd: String(Number(a.exDate.slice(0, 4)) - 1), fh_sh: fixed(a.cash * 10, 2), djr: previousTradingDay(a.exDate), cqr: a.exDate, FHcontent: content }
}

/**
 * The 7th object of an HK or US row on an event day: HK rows carry `cqr, FHcontent, HGcontent,
 * paixiri, hgcgContent, ggContent`, US rows `FHcontent, hgcgContent, cqr` (the fqkline captures of
 * hk00700 and usAAPL.OQ, test/fixtures/tencent/SOURCE.md).
 */
function eventInfo(a: CorporateAction, family: Family): Record<string, string> {
  const { cqr, FHcontent } = dividendInfo(a)
  if (family === 'hk') return { cqr, FHcontent, HGcontent: '', paixiri: '', hgcgContent: '', ggContent: '' }
  // US notes are per share in dollars (`每股分配0.26美元`, the usfqkline-usAAPL.OQ captures).
  if (family === 'us') return { FHcontent: `每股分配${Number(fixed(a.cash, 4))}美元`, hgcgContent: '', cqr }
  return dividendInfo(a)
}

function fqkline(family: Family, param: string, market: MarketModel, now: number): unknown {
  const [code = '', period = '', start = '', end = '', count, fq = ''] = param.split(',')
  const inst = byTencentKlineCode(market, code)
  if (!inst || !accepts(family, inst)) return { code: 0, msg: '', data: {} }
  const qt = qtObject(code, inst, market, now)
  if (!PERIODS.has(period)) return { code: 0, msg: '', data: { [code]: { qt } } }

  const adjust: Adjust = fq === 'qfq' || fq === 'hfq' ? fq : 'none'
  const from = start || '0000-00-00'
  const to = end || '9999-99-99'
  const limit = countOf(count)
  const bars = dailySeries(market, inst, period as 'day' | 'week' | 'month', adjust, { from, to, limit }, now)
  // Each bar with the close before it and the date it follows, to place ex-dates inside it.
  const items = bars.map((bar, k) => ({ bar, base: k ? bars[k - 1].close : bar.preClose, after: k ? bars[k - 1].date : '' }))
  const kept = lastInRange(items, from, to, limit)
  const today = beijing(now).date
  const actions = market.actions(inst).filter((a) => a.exDate <= today)
  const wide = family === 'a'
  // newfqkline (A-shares): prices at the instrument's decimals (2 for stocks), volume with `.00`,
  // then `{}` or the dividend object, turnover %, amount in 10k CNY and `""`; BJ stocks and
  // indexes, under the plain key, end `"0.00","0.00"` instead (11 columns). The HK and US paths:
  // six columns at 3 decimals, volume with `.000`, a 7th object on event days.
  // test/fixtures/tencent/SOURCE.md: newfqkline-sz300059-…, -sz001216-…, -bj920047-…; fqkline-hk00700-…, -usAAPL.OQ-….
  // usfqkline's adjusted series (`qfqday`, `qfqweek`, `qfqmonth`) is written at 2 decimals, volume
  // with `.00`, and has no `prec` (usfqkline-usAAPL.OQ-… captures of 2026-07-08).
  const usAdjusted = family === 'us' && adjust !== 'none'
  const d = wide ? inst.decimals : usAdjusted ? 2 : 3
  const eleven = inst.prefix === 'bj' || isIndex(inst)
  const rows = kept.map(({ bar, after }) => {
    const action = actions.find((a) => a.exDate > after && a.exDate <= bar.date)
    const row: unknown[] = [bar.date, fixed(bar.open, d), fixed(bar.close, d), fixed(bar.high, d), fixed(bar.low, d), fixed(bar.volume / tencentVolumeUnit(inst), wide || usAdjusted ? 2 : 3)]
    if (wide) {
      // An index's turnover is not in the model: left empty (the real host sends a figure).
      row.push(action ? dividendInfo(action) : {}, bar.turnover === null ? '' : fixed(bar.turnover, 2), fixed(bar.amount / 1e4, 2))
      row.push(...(eleven ? ['0.00', '0.00'] : ['']))
    } else if (action) row.push(eventInfo(action, family))
    return row
  })
  // Indexes, BJ stocks and unadjusted requests use the plain key; adjusted ones `qfqday`, `hfqweek`, ….
  const key = adjust === 'none' || eleven ? period : adjust + period
  const prec = kept.length ? fixed(kept[0].base, d) : ''
  if (usAdjusted) return { code: 0, msg: '', data: { [code]: { [key]: rows, qt, version: '12' } } }
  return { code: 0, msg: '', data: { [code]: { [key]: rows, qt, prec, version: '18' } } }
}

// ---------------------------------------------------------------------------------------------
// Minute K-lines

function mkline(param: string, market: MarketModel, now: number): unknown {
  const [code = '', scale = '', ...rest] = param.split(',')
  const inst = byTencentKlineCode(market, code)
  const m = /^m(1|5|15|30|60)$/.exec(scale)
  if (!inst || !isAShare(inst)) return { code: 0, msg: '', data: {} }
  const qt = qtObject(code, inst, market, now)
  if (!m) return { code: 0, msg: '', data: { [code]: { qt } } }
  // `code,m5,,320` and `code,m5,,,320` are both in use: the count is the first number after the scale.
  const count = countOf(rest.find((x) => x !== ''))
  const bars: RawBar[] = market.minuteBars(inst, Number(m[1]), market.minuteWindowStart(inst, now), beijing(now).date, now)
  const kept = count !== undefined && bars.length > count ? bars.slice(bars.length - count) : bars
  const d = inst.decimals
  const rows = kept.map((b) => [
    b.date.replace(/[- :]/g, ''),
    fixed(b.open, d),
    fixed(b.close, d),
    fixed(b.high, d),
    fixed(b.low, d),
    fixed(b.volume / tencentVolumeUnit(inst), 2),
    {},
    // Turnover in hundredths of a percent of the float (445 lots of 600519 → "0.36", SOURCE.md).
    b.turnover === null ? '' : fixed(b.turnover * 100, 2),
  ])
  const prec = kept.length ? fixed(kept[0].preClose, d) : ''
  return { code: 0, msg: '', data: { [code]: { [scale]: rows, qt, prec } } }
}

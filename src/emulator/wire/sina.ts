/**
 * Sina as the emulator answers it: `hq.sinajs.cn` quotes (GBK text), `CN_MarketDataService.getKLineData`
 * raw K-lines (JSONP) and `realstock/company/<code>/qfq.js` adjustment factors. Every Sina endpoint
 * wants a Referer on *.sina.com.cn and answers 403 without one. Shapes and units:
 * src/channels/README.md, Sina section.
 */
import { FUTURES_PRODUCTS } from '../../data/markets'
import { beijing } from '../../domain/dates'
import { hasTraded } from '../market/quote'
import type { EmuInstrument, LiveQuote, MarketModel, RawBar } from '../market/types'
import { dailySeries, sinaQfqFactor } from './bars'
import { bySinaCode, isAShare, splitSecid } from './codes'
import { fixed, hashOf, pctOf } from './format'
import { gbkResponse, notFound, textResponse } from './respond'
import { yearRange, type YearRange } from './quote-extras'
import { handleSinaFinance, SINA_FINANCE_PATH, sinaFinanceEmpty } from './sina-finance'
import { beijingDateTime, easternOffset, exchangeInstant } from './time'
import { handleSinaSuggest, isSinaSuggest, sinaSuggestEmpty } from './sina-suggest'
import { handleSinaBonus, SINA_BONUS_PATH, sinaBonusEmpty } from './sina-bonus'
import { handleSinaHolders, SINA_HOLDERS_PATH, sinaHoldersEmpty } from './sina-holders'

const QUOTE_CONTENT_TYPE = 'application/javascript; charset=GB18030'
const KLINE_PATH = /^\/cn\/api\/jsonp(?:_v2)?\.php\/([^/]*)=\/CN_MarketDataService\.getKLineData$/
const QFQ_PATH = /^\/realstock\/company\/([a-z]{2}\d{6})\/qfq\.js$/
const FUTURES_DAILY_PATH = /^\/futures\/api\/jsonp\.php\/([^/]*)=\/InnerFuturesNewService\.getDailyKLine$/

/** Sina's refusal page for requests without a sina.com.cn Referer. */
const FORBIDDEN = 'Kinsoku jikou desu!'

/** True when the request carries a Referer on sina.com.cn or a subdomain of it. */
export function hasSinaReferer(request: Request): boolean {
  const ref = request.headers.get('referer')
  if (!ref) return false
  try {
    const host = new URL(ref).hostname
    return host === 'sina.com.cn' || host.endsWith('.sina.com.cn')
  } catch {
    return false
  }
}

/** Answers one Sina request: 403 without a Sina Referer, nginx's 404 for unknown paths. */
export function handleSina(url: URL, request: Request, market: MarketModel, now: number): Response {
  // The suggest box is public script for any page: no Referer needed.
  if (isSinaSuggest(url)) return handleSinaSuggest(url, market)
  const route = routeOf(url)
  if (!route) return notFound()
  if (!hasSinaReferer(request)) return textResponse(FORBIDDEN, 'text/html', 403)
  switch (route.kind) {
    case 'quotes':
      return gbkResponse(route.codes.map((c) => quoteLine(c, market, now)).join('\n') + '\n', QUOTE_CONTENT_TYPE)
    case 'kline':
      return textResponse(`${route.varName}=(${JSON.stringify(klineRows(url.searchParams, market, now))});`, 'application/javascript; charset=utf-8')
    case 'qfq':
      return qfqScript(route.code, market, now)
    case 'finance':
      return handleSinaFinance(url.searchParams, market, now)
    case 'futuresDaily':
      return textResponse(`${SCRIPT_GUARD}\n${route.varName}=(${JSON.stringify(futuresDailyRows(url.searchParams, market, now))});`, 'application/javascript; charset=utf-8')
    case 'bonus':
      return handleSinaBonus(route.symbol, market, now)
    case 'holders':
      return handleSinaHolders(route.symbol, route.displaytype, market, now)
  }
}

/** Sina's own "no data" answer: empty quote strings, `=(null);` K-lines, a factor list with no entries. */
export function sinaEmpty(url: URL, market: MarketModel): Response | undefined {
  if (isSinaSuggest(url)) return sinaSuggestEmpty(url)
  const route = routeOf(url)
  if (!route) return undefined
  switch (route.kind) {
    case 'quotes':
      return gbkResponse(route.codes.map((c) => `var hq_str_${c}="";`).join('\n') + '\n', QUOTE_CONTENT_TYPE)
    case 'kline':
      return textResponse(`${route.varName}=(null);`, 'application/javascript; charset=utf-8')
    case 'qfq':
      return textResponse(`var ${route.code}qfq={"total":0,"data":[]}`, 'application/x-javascript')
    case 'finance':
      return sinaFinanceEmpty()
    case 'futuresDaily':
      return textResponse(`${route.varName}=(null);`, 'application/javascript; charset=utf-8')
    case 'bonus':
      return sinaBonusEmpty(route.symbol, market)
    case 'holders':
      return sinaHoldersEmpty(route.symbol, market)
  }
}

type Route =
  | { kind: 'quotes'; codes: string[] }
  | { kind: 'kline'; varName: string }
  | { kind: 'qfq'; code: string }
  | { kind: 'finance' }
  | { kind: 'futuresDaily'; varName: string }
  | { kind: 'bonus'; symbol: string }
  | { kind: 'holders'; symbol: string; displaytype: string | undefined }

function routeOf(url: URL): Route | undefined {
  const host = url.hostname
  if (host === 'hq.sinajs.cn' || host.endsWith('.hq.sinajs.cn')) {
    // `/list=a,b`, `/rn=123&list=a,b` or `/?list=a,b`.
    const parts = [...decodeURIComponent(url.pathname.slice(1)).split('&'), ...url.search.slice(1).split('&')]
    const list = parts.find((p) => p.startsWith('list='))
    if (list === undefined) return undefined
    return { kind: 'quotes', codes: list.slice(5).split(',').map((c) => c.trim()).filter(Boolean) }
  }
  if (host === 'quotes.sina.cn') {
    const m = KLINE_PATH.exec(url.pathname)
    if (m) return { kind: 'kline', varName: decodeURIComponent(m[1]) }
    if (url.pathname === SINA_FINANCE_PATH) return { kind: 'finance' }
  }
  if (host === 'finance.sina.com.cn') {
    const m = QFQ_PATH.exec(url.pathname)
    if (m) return { kind: 'qfq', code: m[1] }
  }
  if (host === 'vip.stock.finance.sina.com.cn' || host === 'money.finance.sina.com.cn') {
    const m = SINA_BONUS_PATH.exec(url.pathname)
    if (m) return { kind: 'bonus', symbol: m[1] }
    const h = SINA_HOLDERS_PATH.exec(url.pathname)
    if (h) return { kind: 'holders', symbol: h[1], displaytype: h[2] }
  }
  if (host === 'stock2.finance.sina.com.cn') {
    const m = FUTURES_DAILY_PATH.exec(url.pathname)
    if (m) return { kind: 'futuresDaily', varName: decodeURIComponent(m[1]) }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Quotes

/** `var hq_str_<code>="…";`; empty for unknown instruments and those not listed yet on the line's day. */
function quoteLine(code: string, market: MarketModel, now: number): string {
  // `hk00700` is the delayed form of `rt_hk00700`: 19 fields, the time without seconds.
  const delayed = /^hk\d{5}$/.test(code)
  const inst = bySinaCode(market, delayed ? `rt_${code}` : code)
  const q = inst && market.live(inst, now, 'sina')
  if (!inst || !q || q.state === 'unlisted') return `var hq_str_${code}="";`
  return `var hq_str_${code}="${fieldsOf(inst, q, market, now, delayed).join(',')}";`
}

function fieldsOf(inst: EmuInstrument, q: LiveQuote, market: MarketModel, now: number, delayed: boolean): string[] {
  if (isAShare(inst)) return aShareFields(q, now)
  if (inst.kind === 'hk') return delayed ? hkDelayedFields(q, yearRange(market, q, now)) : hkFields(q, yearRange(market, q, now))
  if (inst.kind === 'us' || inst.kind === 'us-index') return usFields(q, yearRange(market, q, now))
  // Open interest as of the quote's date (the model keeps it per close).
  const oi = market.openInterest(inst, q.date)
  return splitSecid(inst.secid).market === 8 ? financialFuturesFields(q, oi) : commodityFuturesFields(q, oi)
}

const p3 = (n: number) => fixed(n, 3)

/** The stamp Sina's A-share lines carry once the session is over (day-timeline.ts FINAL_STAMP). */
const FINAL = '15:00:03'
/** The post-close fixed-price session ends at 15:30; the lines are updated a few minutes later. */
const POST_CLOSE_END = 15 * 60 + 30

/**
 * The post-close fixed-price trade of a finished session (the `D|shares|CNY` field), or null:
 * stocks and ETFs trade after the close at the closing price (ChiNext and STAR since 2019–2020, and
 * every stock and ETF in the 2026 captures); indexes and bonds do not. Its volume is not part of
 * fields 8 and 9. The model keeps no post-close book, so the volume is a small share of the day's
 * (0.02–0.08 %, as captured: 600519 1900 of 2821830, 002475 54824 of 143301667), fixed per code
 * and day; Shanghai trades whole hundreds.
 */
function postCloseTrade(q: LiveQuote): { volume: number; amount: number } | null {
  const i = q.instrument
  if ((i.kind !== 'stock' && i.kind !== 'etf') || !hasTraded(q) || q.state === 'suspended') return null
  const share = 0.0002 + (hashOf(`${i.code}|${q.date}`) % 600) / 1e6
  const raw = q.bar.volume * share
  const volume = i.prefix === 'sh' ? Math.round(raw / 100) * 100 : Math.round(raw)
  return volume > 0 ? { volume, amount: volume * q.bar.close } : null
}

/** Whether the post-close session of the line's day is over at `now`. */
function postCloseOver(q: LiveQuote, now: number): boolean {
  const b = beijing(now)
  return q.time === FINAL && (b.date > q.date || b.minute >= POST_CLOSE_END)
}

/**
 * A-share / ETF / index / bond: 33 fields, volume in shares, amount in CNY, book as volume,price
 * pairs, status at 32. Shanghai lines end with one more, empty field (`…,15:00:03,00,"`), as real
 * captures show (test/fixtures/sina/SOURCE.md); Shenzhen lines do not. Once the post-close session is
 * over (15:30), a stock or ETF that traded in it carries its trade in that 34th field,
 * `D|shares|CNY` (amount at 2 decimals in Shanghai, 3 in Shenzhen), Shenzhen lines included, and
 * the line's stamp moves to about 15:35 (15:34:59 Shanghai, 15:35:00 Shenzhen; an SSE index
 * 15:35:34). Before that the stamps are those of the close: 15:00:03 Shanghai, 15:00:01 STAR,
 * 15:00:00 Shenzhen. Without a trade (fixtures hq-sh600519-preopen-…,
 * hq-sh603866-preopen-auction-…, hq-…-suspended-…): open, high, low, volume, amount 0; before the
 * auction and in a suspension the last price is 0.000 (the 2026 capture of 贵州茅台; an older one
 * shows the previous close); in the auction it stays at the previous close while bid and ask (6,
 * 7) show the indicative price. A suspension's status is `03`.
 */
function aShareFields(q: LiveQuote, now: number): string[] {
  const b = q.bar
  const i = q.instrument
  const traded = hasTraded(q)
  const book: string[] = []
  for (const side of [q.book.bids, q.book.asks]) {
    for (let k = 0; k < 5; k++) book.push(String(Math.round(side[k]?.[1] ?? 0)), p3(side[k]?.[0] ?? 0))
  }
  const last = traded ? b.close : q.state === 'auction' ? b.preClose : 0
  const day = (x: number) => (traded ? x : 0)
  const sh = i.prefix === 'sh'
  const over = postCloseOver(q, now)
  const post = over ? postCloseTrade(q) : null
  let time = q.time
  if (q.time === FINAL) {
    if (over && (post || (sh && i.kind === 'index'))) time = i.kind === 'index' ? '15:35:34' : sh ? '15:34:59' : '15:35:00'
    else time = sh ? (i.board === 'star' ? '15:00:01' : FINAL) : '15:00:00'
  }
  const tail = post ? [`D|${post.volume}|${fixed(post.amount, sh ? 2 : 3)}`] : sh ? [''] : []
  return [
    i.name, p3(day(b.open)), p3(b.preClose), p3(last), p3(day(b.high)), p3(day(b.low)),
    p3(q.book.bids[0]?.[0] ?? 0), p3(q.book.asks[0]?.[0] ?? 0),
    String(Math.round(day(b.volume))), p3(day(b.amount)),
    ...book,
    q.date, time, q.state === 'suspended' ? '03' : '00',
    ...tail,
  ]
}

/** Field 0 of an HK line, the English short name (`TENCENT`): the model keeps none, so `HK` and the code stand in. */
const hkEnglish = (q: LiveQuote) => `HK${q.instrument.symbol}`

/** The first 17 fields HK lines share: names, open, previous close, high, low, last, change, %, bid, ask, amount HKD, volume shares. */
function hkCommon(q: LiveQuote, quote: (n: number) => string, amount: string): string[] {
  const b = q.bar
  return [
    hkEnglish(q), q.instrument.name, p3(b.open), p3(b.preClose), p3(b.high), p3(b.low), p3(b.close),
    p3(b.close - b.preClose), p3(pctOf(b.close - b.preClose, b.preClose)),
    quote(q.book.bids[0]?.[0] ?? b.close), quote(q.book.asks[0]?.[0] ?? b.close),
    amount, String(Math.round(b.volume)),
  ]
}

/**
 * HK `rt_hk…`: 25 fields (rt_hk00700 of 2026-08-28, rt_hk09992 of 2025-07-10): English name first,
 * amount HKD at 11, volume shares at 12, P/E and yield at 13–14 (`0.000`: not in the model), the
 * 52-week high and low at 15–16 (the year's range in the model), `YYYY/MM/DD` and `HH:MM:SS`,
 * then six status fields in the form the host writes (`30|3`, `N|Y|Y`, …, `Y`).
 */
function hkFields(q: LiveQuote, year: YearRange): string[] {
  const b = q.bar
  return [
    ...hkCommon(q, p3, p3(b.amount)), '0.000', '0.000', p3(year.high), p3(year.low),
    q.date.replaceAll('-', '/'), q.time,
    '30|3', 'N|Y|Y', '0.000|0.000|0.000', '0|||0.000|0.000|0.000', ' |0', 'Y',
  ]
}

/** HK `hk…` (delayed): 19 fields (hk00700 of 2026-09-28), bid and ask at 5 decimals, amount as an integer, the time `HH:MM`. */
function hkDelayedFields(q: LiveQuote, year: YearRange): string[] {
  return [...hkCommon(q, (n) => fixed(n, 5), String(Math.round(q.bar.amount))), '0.000', '0.000', p3(year.high), p3(year.low), q.date.replaceAll('-', '/'), q.time.slice(0, 5)]
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `Jan 02 04:00PM EST` for a US Eastern date and time. */
function easternText(date: string, time: string): string {
  const h = Number(time.slice(0, 2))
  const h12 = String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(8, 10)} ${h12}:${time.slice(3, 5)}${h < 12 ? 'AM' : 'PM'} ${easternOffset(date) === -4 ? 'EDT' : 'EST'}`
}

/**
 * US `gb_…`: 36 fields (gb_aapl, gb_brk$b, gb_ixic of 2026-09-29; gb_amd of 2025-07-10): name, last,
 * %, Beijing update time, change, open, high, low, 52-week high and low, volume, average volume, market cap (USD), EPS, P/E
 * (`--` for an index), 15–18 ratios, shares, 20 an integer, 21–24 the extended-hours price, %,
 * change and time (`0.0000`, `0.00`, `0.00`, empty: the model has no extended hours), 25 the US
 * Eastern time of the last trade, 26 the previous close, 27 the extended-hours volume, `1`, the
 * year, 30 the day's amount in USD at 4 decimals, 31–34 `0.0000`, 35 the previous close.
 */
function usFields(q: LiveQuote, year: YearRange): string[] {
  const b = q.bar
  const i = q.instrument
  const dp = (n: number) => fixed(n, 4)
  const shares = i.totalShares ?? 0
  const index = i.kind === 'us-index'
  return [
    i.name, dp(b.close), fixed(pctOf(b.close - b.preClose, b.preClose), 2), beijingDateTime(exchangeInstant(i, q.date, q.time)),
    dp(b.close - b.preClose), dp(b.open), dp(b.high), dp(b.low), dp(year.high), dp(year.low),
    String(Math.round(b.volume)), String(Math.round(b.volume)), String(index ? 0 : Math.round(shares * b.close)),
    '0.00', index ? '--' : '0.000000', '0.00', '0.00', '0.00', '0.00', String(index ? 0 : shares), '0',
    '0.0000', '0.00', '0.00', '', easternText(q.date, q.time), dp(b.preClose), '0', '1', q.date.slice(0, 4),
    index ? '0.0000' : dp(b.amount), '0.0000', '0.0000', '0.0000', '0.0000', dp(b.preClose),
  ]
}

const EXCHANGE_SHORT: Record<string, string> = { SHFE: '沪', INE: '沪', DCE: '连', CZCE: '郑', GFEX: '广', CFFEX: '中' }

function productOf(inst: EmuInstrument) {
  const letters = /^[A-Za-z]+/.exec(inst.symbol)?.[0].toUpperCase() ?? ''
  return FUTURES_PRODUCTS[letters] ?? { exchange: 'SHFE' as const, name: letters }
}

/** Commodity futures `nf_RB2501`: 44 fields, time `HHMMSS` at 1, last at 8, volume at 14, date at 17. */
function commodityFuturesFields(q: LiveQuote, oi: number): string[] {
  const b = q.bar
  const product = productOf(q.instrument)
  const f = new Array<string>(44).fill('0')
  f.splice(0, 18, q.instrument.name, q.time.replaceAll(':', ''), p3(b.open), p3(b.high), p3(b.low), p3(b.preClose),
    p3(q.book.bids[0]?.[0] ?? b.close), p3(q.book.asks[0]?.[0] ?? b.close), p3(b.close), p3((b.high + b.low + b.close) / 3), p3(b.preClose),
    String(Math.round(q.book.bids[0]?.[1] ?? 0)), String(Math.round(q.book.asks[0]?.[1] ?? 0)), p3(oi), String(Math.round(b.volume)),
    EXCHANGE_SHORT[product.exchange] ?? '', product.name, q.date)
  f[18] = '1'
  for (let k = 19; k <= 26; k++) f[k] = ''
  return f
}

/** Financial futures `nf_IF2501`: 49 fields, open/high/low/last/volume/amount first, date 36, time 37, name last. */
function financialFuturesFields(q: LiveQuote, oi: number): string[] {
  const b = q.bar
  const f = new Array<string>(49).fill('0.000')
  f.splice(0, 8, p3(b.open), p3(b.high), p3(b.low), p3(b.close), String(Math.round(b.volume)), p3(b.amount), p3(oi), p3(b.close))
  f[13] = p3(b.preClose)
  f[14] = p3(b.preClose)
  f[36] = q.date
  f[37] = q.time
  f[48] = q.instrument.name
  return f
}

// ---------------------------------------------------------------------------------------------
// K-lines

const SCALES = new Set([1, 5, 15, 30, 60, 240, 1200, 7200])
const MAX_DATALEN = 1023

/** Raw bars as `getKLineData` rows (prices 3 decimals, volume shares, minute rows' amount 4 decimals), or null when unknown. */
function klineRows(params: URLSearchParams, market: MarketModel, now: number): Array<Record<string, string>> | null {
  const inst = bySinaCode(market, params.get('symbol') ?? '')
  const scale = Number(params.get('scale'))
  if (!inst || !isAShare(inst) || !SCALES.has(scale)) return null
  const asked = Number(params.get('datalen'))
  const datalen = Math.min(Number.isInteger(asked) && asked > 0 ? asked : MAX_DATALEN, MAX_DATALEN)
  const today = beijing(now).date
  let bars: RawBar[]
  if (scale < 240) {
    bars = market.minuteBars(inst, scale, market.minuteWindowStart(inst, now), today, now)
  } else {
    const span = scale === 240 ? 'day' : scale === 1200 ? 'week' : 'month'
    bars = dailySeries(market, inst, span, 'none', { from: '0000-00-00', to: today, limit: datalen }, now)
  }
  // Minute rows carry `amount` (4 decimals) since 2023-11-03; day and longer rows carry none
  // (the 2019 and 2026-03 captures, test/fixtures/sina/SOURCE.md).
  return bars.slice(Math.max(0, bars.length - datalen)).map((b) => ({
    day: b.date.length > 10 ? `${b.date}:00` : b.date,
    open: p3(b.open),
    high: p3(b.high),
    low: p3(b.low),
    close: p3(b.close),
    volume: String(Math.round(b.volume)),
    ...(scale < 240 ? { amount: fixed(b.amount, 4) } : {}),
  }))
}

// ---------------------------------------------------------------------------------------------
// Futures day bars

/** The comment getDailyKLine's answers open with (test/fixtures/sina/futures-daily-IF2606-2026-03-18.txt). */
const SCRIPT_GUARD = "/*<script>location.href='//sina.com';</script>*/"

/**
 * `getDailyKLine?symbol=RB0` rows: the whole history, oldest first, every value a string; p = open
 * interest in whole contracts, s = settlement, which the captured answer leaves at `0.000`.
 * Null for a symbol that is not a futures contract.
 */
function futuresDailyRows(params: URLSearchParams, market: MarketModel, now: number): Array<Record<string, string>> | null {
  const inst = bySinaCode(market, 'nf_' + (params.get('symbol') ?? ''))
  if (!inst || inst.kind !== 'future') return null
  return market.dailyBars(inst, inst.listDate, beijing(now).date, now).map((b) => ({
    d: b.date, o: p3(b.open), h: p3(b.high), l: p3(b.low), c: p3(b.close), v: String(Math.round(b.volume)),
    p: String(Math.round(market.openInterest(inst, b.date))), s: '0.000',
  }))
}

// ---------------------------------------------------------------------------------------------
// Forward-adjustment factors

/**
 * `var <code>qfq={"total":N,"data":[{"d":"…", "f":"…"},…]};` and a trailing comment, newest first:
 * one entry per ex-date and the `1900-01-01` sentinel last carrying the oldest factor, f = 1 /
 * qfqFactor (as of the clock; 6 significant decimals, which every host's adjusted prices share)
 * written at Sina's 16 decimals (test/fixtures/sina/SOURCE.md, qfq.js). 404 when the
 * instrument has no corporate actions.
 */
/** The last entry's date: it carries the oldest factor back to the first bar. */
const QFQ_SENTINEL = '1900-01-01'

function qfqScript(code: string, market: MarketModel, now: number): Response {
  const inst = bySinaCode(market, code)
  const today = beijing(now).date
  const actions = inst && isAShare(inst) ? market.actions(inst).filter((a) => a.exDate <= today && a.exDate > inst.listDate) : []
  if (!inst || actions.length === 0) return notFound()
  const entries = [inst.listDate, ...actions.map((a) => a.exDate)].reverse().map((d) => `{"d":"${d === inst.listDate ? QFQ_SENTINEL : d}", "f":"${fixed(sinaQfqFactor(market, inst, d, now), 16)}"}`)
  return textResponse(`var ${code}qfq={"total":${entries.length},"data":[${entries.join(',')}]};\n/* qfq */`, 'application/x-javascript')
}

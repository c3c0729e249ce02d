/**
 * An industry board's valuation history from Eastmoney's datacenter (upstreams.md §5.11):
 * `RPT_VALUEINDUSTRY_DET`, one row per board and trading day with PE TTM, PE static, PB MRQ, PS
 * TTM, PCF (operating cash flow TTM), the constituent count and the loss-makers. Column names as
 * wisecon (stock/valuation/industry.py) lists them and public clients read them (a valuation
 * dashboard asking `(BOARD_CODE="016029")` for PE_TTM/PB_MRQ history, a market-report script
 * turning `ORIGINALCODE` into `"BK" + zfill(4)`, a loader typing ORIGINALCODE as text and NUM,
 * LOSS_COUNT as integers): the report numbers boards its own way (`BOARD_CODE` `016029`) and
 * carries the BK number as `ORIGINALCODE` (`477` → BK0477). A stock's board comes from
 * `RPT_VALUEANALYSIS_DET`, the per-stock valuation rows, which name it by `BOARD_CODE` and
 * `BOARD_NAME` too but carry the BK number as `ORIG_BOARD_CODE` (a captured row of 300124 on
 * 2023-05-24: `"BOARD_CODE":"016022","BOARD_NAME":"电子元件","ORIG_BOARD_CODE":"459"`,
 * test/fixtures/eastmoney/valueanalysis-300124-2023-05-24.json; public clients read
 * `ORIG_BOARD_CODE` from that report too). The report has no dividend-yield column:
 * {@link fetchBoardDividendYield} computes one from the constituents' rows of that report and the
 * dividends of `RPT_SHAREBONUS_DET`.
 */
import { addDays, isValidDate } from '../../domain/dates'
import { empty, malformed } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { optNum } from '../validate'
import { datacenterUrl, fetchDatacenterRows, readDatacenter } from './datacenter'
import { DIVIDEND_REPORT, toAction } from './dividends'
import type { JsonObject } from './envelope'
import { CHANNEL } from './wire'

const INDUSTRY_VALUATION_REPORT = 'RPT_VALUEINDUSTRY_DET'
const STOCK_VALUATION_REPORT = 'RPT_VALUEANALYSIS_DET'
/** Rows asked in one page of a board's history: five years of trading days fit. */
const HISTORY_PAGE = 1500
/** Boards times days in one page of the latest-days scan (about 500 boards exist). */
const SCAN_PAGE = 2000

/** A board as the valuation reports name it. */
export interface ValuationBoard {
  /** The report's own number (`016029`), the key of its history. */
  boardCode: string
  /** The BK number, four digits (`0477`): our `pt0477`. */
  bk: string
  name: string
}

/** One trading day of a board; a ratio the report lacks is null; negative when the board's sum is a loss. */
export interface BoardValuationDay {
  date: string
  /** Constituents that day. */
  count: number | null
  lossCount: number | null
  peTtm: number | null
  peStatic: number | null
  pb: number | null
  ps: number | null
  pcf: number | null
}

const text = (row: JsonObject, col: string) => (typeof row[col] === 'string' ? (row[col] as string).trim() : typeof row[col] === 'number' ? String(row[col]) : '')

/** The column of the BK number: the industry report's, or the per-stock report's. */
export type BkColumn = 'ORIGINALCODE' | 'ORIG_BOARD_CODE'

/** The board a row names; `malformed` when its numbers or name are missing. */
export function toBoard(row: JsonObject, bkColumn: BkColumn = 'ORIGINALCODE'): ValuationBoard {
  const boardCode = text(row, 'BOARD_CODE')
  const original = text(row, bkColumn)
  const name = text(row, 'BOARD_NAME')
  if (!/^\d{3,8}$/.test(boardCode)) throw malformed(CHANNEL, `valuation row BOARD_CODE is not a number: ${JSON.stringify(row.BOARD_CODE)}`)
  if (!/^\d{1,4}$/.test(original)) throw malformed(CHANNEL, `valuation row of board ${boardCode} has ${bkColumn} ${JSON.stringify(row[bkColumn])}, not a BK number`)
  if (!name) throw malformed(CHANNEL, `valuation row of board ${boardCode} has no BOARD_NAME`)
  return { boardCode, bk: original.padStart(4, '0'), name }
}

function tradeDate(row: JsonObject): string {
  const m = typeof row.TRADE_DATE === 'string' ? /^(\d{4}-\d{2}-\d{2})( 00:00:00)?$/.exec(row.TRADE_DATE) : null
  if (!m || !isValidDate(m[1])) throw malformed(CHANNEL, `valuation row TRADE_DATE is not a date: ${JSON.stringify(row.TRADE_DATE)}`)
  return m[1]
}

const count = (row: JsonObject, col: string, at: string) => {
  const n = optNum(CHANNEL, row[col], `${col} ${at}`)
  if (n !== null && (!Number.isInteger(n) || n < 0)) throw malformed(CHANNEL, `${col} ${at} is not a count: ${n}`)
  return n
}

/** One day of a board's history; `malformed` for another board, a bad date or counts that do not add up. */
export function toBoardDay(row: JsonObject, boardCode: string): BoardValuationDay {
  if (text(row, 'BOARD_CODE') !== boardCode) throw malformed(CHANNEL, `valuation row of board ${JSON.stringify(row.BOARD_CODE)} in the history of ${boardCode}`)
  const date = tradeDate(row)
  const at = `of ${boardCode} on ${date}`
  const ratio = (col: string) => optNum(CHANNEL, row[col], `${col} ${at}`)
  const n = count(row, 'NUM', at)
  const loss = count(row, 'LOSS_COUNT', at)
  if (n !== null && loss !== null && loss > n) throw malformed(CHANNEL, `LOSS_COUNT ${at} exceeds NUM`)
  const pb = ratio('PB_MRQ')
  // Book equity of a whole board is never negative; a negative PB is another unit or a broken row.
  if (pb !== null && pb < 0) throw malformed(CHANNEL, `PB_MRQ ${at} is negative`)
  return { date, count: n, lossCount: loss, peTtm: ratio('PE_TTM'), peStatic: ratio('PE_LAR'), pb, ps: ratio('PS_TTM'), pcf: ratio('PCF_OCF_TTM') }
}

async function page(ctx: ChannelContext, report: string, filter: string, sortColumns: string, sortTypes: string, pageSize: number) {
  return readDatacenter(await fetchText(ctx, CHANNEL, datacenterUrl({ report, filter, sortColumns, sortTypes, page: 1, pageSize })))
}

/** The board of one A-share stock (six digits) from its latest valuation row since `since`; `empty` when it has none. */
export async function fetchStockBoard(ctx: ChannelContext, symbol: string, since: string): Promise<ValuationBoard> {
  const got = await page(ctx, STOCK_VALUATION_REPORT, `(SECURITY_CODE="${symbol}")(TRADE_DATE>='${since}')`, 'TRADE_DATE', '-1', 1)
  const row = got?.data[0]
  if (!row) throw empty(CHANNEL, `no valuation row of ${symbol} since ${since}`)
  if (text(row, 'SECURITY_CODE') !== symbol) throw malformed(CHANNEL, `valuation row of ${JSON.stringify(row.SECURITY_CODE)} answers ${symbol}`)
  tradeDate(row)
  return toBoard(row, 'ORIG_BOARD_CODE')
}

/**
 * The board with BK number `bk` (four digits) in the rows since `since`; null when the report has no
 * such board. Asked by `ORIGINALCODE` first (the report writes `477` for BK0477); when that finds
 * nothing, the latest days of every board are scanned, in case the number is written otherwise.
 */
export async function findBoard(ctx: ChannelContext, bk: string, since: string): Promise<ValuationBoard | null> {
  const direct = await page(ctx, INDUSTRY_VALUATION_REPORT, `(ORIGINALCODE="${Number(bk)}")(TRADE_DATE>='${since}')`, 'TRADE_DATE', '-1', 1)
  const hit = direct?.data[0]
  if (hit) {
    const b = toBoard(hit)
    if (b.bk !== bk) throw malformed(CHANNEL, `ORIGINALCODE ${Number(bk)} answered with board ${b.bk}`)
    return b
  }
  const all = await page(ctx, INDUSTRY_VALUATION_REPORT, `(TRADE_DATE>='${since}')`, 'TRADE_DATE,BOARD_CODE', '-1,1', SCAN_PAGE)
  if (!all) throw empty(CHANNEL, `no industry valuation rows since ${since}`)
  return all.data.map((r) => toBoard(r)).find((b) => b.bk === bk) ?? null
}

/** A board's days from `from`, ascending; `malformed` for a day given twice. */
export async function fetchBoardHistory(ctx: ChannelContext, boardCode: string, from: string): Promise<BoardValuationDay[]> {
  const got = await page(ctx, INDUSTRY_VALUATION_REPORT, `(BOARD_CODE="${boardCode}")(TRADE_DATE>='${from}')`, 'TRADE_DATE', '-1', HISTORY_PAGE)
  if (!got) return []
  const days = got.data.map((r) => toBoardDay(r, boardCode)).reverse()
  for (let i = 1; i < days.length; i++) {
    if (days[i].date <= days[i - 1].date) throw malformed(CHANNEL, `history of board ${boardCode} is not one row per day at ${days[i].date}`)
  }
  if (days.length && days[0].date < from) throw malformed(CHANNEL, `history of board ${boardCode} starts ${days[0].date}, before ${from}`)
  return days
}

/** One constituent on one day: total shares and total market cap (CNY). */
export interface Constituent {
  code: string
  shares: number
  marketCap: number
}

const SUFFIX_PREFIX: Record<string, string> = { SH: 'sh', SZ: 'sz', BJ: 'bj' }

/**
 * One stock's valuation row as a constituent of `boardCode` on `date`. Its market cap must be its
 * close × total shares (within 1%): that is what says the cap is in CNY (public clients divide it
 * by 1e8 for 亿元), and a row in another unit is refused rather than rescaled.
 */
export function toConstituent(row: JsonObject, boardCode: string, date: string): Constituent {
  const m = typeof row.SECUCODE === 'string' ? /^(\d{6})\.(SH|SZ|BJ)$/.exec(row.SECUCODE) : null
  if (!m) throw malformed(CHANNEL, `valuation row SECUCODE is not a code.SH|SZ|BJ: ${JSON.stringify(row.SECUCODE)}`)
  const code = SUFFIX_PREFIX[m[2]] + m[1]
  if (text(row, 'BOARD_CODE') !== boardCode) throw malformed(CHANNEL, `valuation row of ${code} is of board ${JSON.stringify(row.BOARD_CODE)}, not ${boardCode}`)
  if (tradeDate(row) !== date) throw malformed(CHANNEL, `valuation row of ${code} is of ${String(row.TRADE_DATE)}, not ${date}`)
  const at = (col: string) => `${col} of ${code} on ${date}`
  const shares = optNum(CHANNEL, row.TOTAL_SHARES, at('TOTAL_SHARES'))
  const cap = optNum(CHANNEL, row.TOTAL_MARKET_CAP, at('TOTAL_MARKET_CAP'))
  const close = optNum(CHANNEL, row.CLOSE_PRICE, at('CLOSE_PRICE'))
  if (shares === null || shares <= 0 || cap === null || cap <= 0 || close === null || close <= 0) throw malformed(CHANNEL, `valuation row of ${code} on ${date} lacks positive shares, cap and close`)
  if (Math.abs(close * shares - cap) > cap * 0.01) throw malformed(CHANNEL, `${at('TOTAL_MARKET_CAP')} ${cap} is not close × shares (${close} × ${shares})`)
  return { code, shares, marketCap: cap }
}

/**
 * The board's constituents on `date`, from their valuation rows; `empty` when there are none. The
 * per-stock rows are asked by the industry report's board number: should the two reports number
 * boards differently, nothing comes back and the yield is null with that reason, not a guess.
 */
async function fetchConstituents(ctx: ChannelContext, boardCode: string, date: string): Promise<Constituent[]> {
  const url = (p: number) => datacenterUrl({ report: STOCK_VALUATION_REPORT, filter: `(BOARD_CODE="${boardCode}")(TRADE_DATE='${date}')`, sortColumns: 'SECURITY_CODE', sortTypes: '1', page: p })
  const rows = await fetchDatacenterRows(ctx, url)
  if (rows.length === 0) throw empty(CHANNEL, `no valuation rows of board ${boardCode} constituents on ${date}`)
  return rows.map((r) => toConstituent(r, boardCode, date))
}

/** The board's trailing dividend yield on `date` and what it is made of. */
export interface BoardDividendYield {
  /** Percent: Σ cash paid per share × shares / Σ market cap. */
  value: number
  /** The twelve months of ex-dates counted, inclusive. */
  from: string
  to: string
  constituents: number
  /** Constituents with at least one cash dividend in those months. */
  payers: number
}

/**
 * The trailing twelve-month dividend yield of a board on `date`: every cash dividend with an
 * ex-date in the year to `date` (RPT_SHAREBONUS_DET, the same rows /v1/dividend reads) of the
 * board's constituents that day, times their total shares that day, over their total market cap.
 * Shares are those of `date`: a bonus issue after a payment in the year overstates that payment.
 */
export async function fetchBoardDividendYield(ctx: ChannelContext, boardCode: string, date: string): Promise<BoardDividendYield> {
  const from = addDays(date, -364)
  const [members, rows] = await Promise.all([
    fetchConstituents(ctx, boardCode, date),
    fetchDatacenterRows(ctx, (p) => datacenterUrl({ report: DIVIDEND_REPORT, filter: `(EX_DIVIDEND_DATE>='${from}')(EX_DIVIDEND_DATE<='${date}')`, sortColumns: 'EX_DIVIDEND_DATE,SECURITY_CODE', sortTypes: '1,1', page: p })),
  ])
  const cash = new Map<string, number>()
  // An exact repeat of a row is one payment (as fetchCorporateActions keeps it once).
  const seen = new Set<string>()
  for (const row of rows) {
    const a = toAction(row)
    if (!a || seen.has(`${a.code}|${a.exDate}|${a.cash}|${a.bonus}`)) continue
    seen.add(`${a.code}|${a.exDate}|${a.cash}|${a.bonus}`)
    if (a.exDate < from || a.exDate > date) throw malformed(CHANNEL, `dividend row ${a.code} ${a.exDate} is outside ${from}..${date}`)
    if (a.cash > 0) cash.set(a.code, (cash.get(a.code) ?? 0) + a.cash)
  }
  let paid = 0
  let cap = 0
  let payers = 0
  for (const m of members) {
    const perShare = cash.get(m.code) ?? 0
    if (perShare > 0) payers++
    paid += perShare * m.shares
    cap += m.marketCap
  }
  return { value: Math.round((paid / cap) * 1e6) / 1e4, from, to: date, constituents: members.length, payers }
}

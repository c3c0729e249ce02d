/**
 * Money flow of one A-share stock (upstreams.md §5.4): today's inflow, outflow and net per order
 * class from the list namespace of `push2 …/api/qt/ulist.np/get`, the recent sessions' nets and
 * ratios from `push2his …/api/qt/stock/fflow/daykline/get`, and the stock's rank by today's main
 * net inflow from `clist/get` sorted by `f62`. Amounts in CNY, ratios in percent of the day's
 * turnover amount. Main force = super-large + large orders. The classes' inflows and outflows add
 * up to the day's amount; in every real answer captured (test/fixtures/push2/SOURCE.md) the four
 * nets also cancel out, to the yuan.
 */
import { isValidDate } from '../../domain/dates'
import type { Instrument } from '../../domain/instrument'
import { walkRest } from '../page-walk'
import { empty, malformed, unsupported } from '../errors'
import { fetchText } from '../http'
import type { ChannelContext } from '../types'
import { num, optNum } from '../validate'
import { isObject, readData, readDataOrRefusal, type JsonObject } from './envelope'
import { A_SHARE_FS } from './market-list'
import { MIRRORS, withMirrors } from './mirrors'
import { CHANNEL } from './wire'

export const ORDER_CLASSES = ['super', 'large', 'medium', 'small'] as const
type OrderClass = (typeof ORDER_CLASSES)[number]

/** One order class today, CNY; ratio = net ÷ the day's amount, percent. */
interface ClassFlow {
  inflow: number
  outflow: number
  net: number
  ratio: number
}

/** Today's money flow of one stock. */
export interface TodayFlow {
  code: string
  /** Trade date `YYYY-MM-DD`. */
  date: string
  /** Unix seconds of the quote. */
  time: number
  /** The day's turnover amount so far, CNY. */
  amount: number
  main: { net: number; ratio: number }
  classes: Record<OrderClass, ClassFlow>
}

/** One past session: nets (CNY) and ratios (percent) per class; the upstream gives no inflow/outflow here. */
export interface DayFlowRow {
  date: string
  main: { net: number; ratio: number }
  classes: Record<OrderClass, { net: number; ratio: number }>
  close: number
  changePct: number
}

/** List-namespace ids: per class inflow, outflow, net, ratio; main net and ratio. */
const FLOW_FIELDS = {
  super: ['f64', 'f65', 'f66', 'f69'],
  large: ['f70', 'f71', 'f72', 'f75'],
  medium: ['f76', 'f77', 'f78', 'f81'],
  small: ['f82', 'f83', 'f84', 'f87'],
  main: ['f62', 'f184'],
} as const
const IDENTITY_FIELDS = ['f2', 'f6', 'f12', 'f13', 'f124', 'f297'] as const
const TODAY_FIELD_LIST = [...IDENTITY_FIELDS, ...Object.values(FLOW_FIELDS).flat()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(',')

/** The daykline's columns f51..f65, in order. */
const DAY_COLUMNS = ['date', 'mainNet', 'smallNet', 'mediumNet', 'largeNet', 'superNet', 'mainRatio', 'smallRatio', 'mediumRatio', 'largeRatio', 'superRatio', 'close', 'changePct', 'f64', 'f65'] as const
const DAY_FIELDS2 = DAY_COLUMNS.map((_, i) => `f${51 + i}`).join(',')

/** Tolerance for "adds up": a cent per addend is what rounding explains; we allow a yuan, and 2% for the day's total. */
const YUAN = 1
const AMOUNT_TOLERANCE = 0.02

const A_SHARE = /^(sh|sz|bj)(\d{6})$/

/** `1.600519` / `0.000001` for an A-share stock; anything else is not served. */
export function flowSecid(inst: Instrument): string {
  const m = A_SHARE.exec(inst.code)
  if (!m || inst.kind !== 'stock') throw unsupported(CHANNEL, `money flow is for A-share stocks, not ${inst.code}`)
  return `${m[1] === 'sh' ? 1 : 0}.${m[2]}`
}

export const todayFlowUrl = (inst: Instrument, host: string = MIRRORS.push2[0]) =>
  `https://${host}/api/qt/ulist.np/get?fltt=2&invt=2&fields=${TODAY_FIELD_LIST}&secids=${flowSecid(inst)}`

export const dayFlowUrl = (inst: Instrument, host: string = MIRRORS.push2his[0]) =>
  `https://${host}/api/qt/stock/fflow/daykline/get?lmt=0&klt=101&fields1=f1,f2,f3,f7&fields2=${DAY_FIELDS2}&secid=${flowSecid(inst)}`

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol

/** Reads today's flow of `inst` from a `ulist.np/get` answer; null when the stock did not trade (halted) or is unknown. */
export function parseTodayFlow(text: string, inst: Instrument): TodayFlow | null {
  const data = readData(text)
  if (!data) return null
  const diff = Array.isArray(data.diff) ? data.diff : isObject(data.diff) ? Object.values(data.diff) : null
  if (!diff) throw malformed(CHANNEL, 'ulist answer has no diff')
  const secid = flowSecid(inst)
  const row = diff.find((r): r is JsonObject => isObject(r) && `${r.f13}.${r.f12}` === secid)
  if (!row) {
    if (diff.length) throw malformed(CHANNEL, `ulist answer does not hold ${secid}`)
    return null
  }
  const at = (id: string) => `${id} of ${inst.code}`
  const amount = optNum(CHANNEL, row.f6, at('f6'))
  if (amount === null || optNum(CHANNEL, row.f2, at('f2')) === null) return null // halted: "-" everywhere
  const ymd = String(row.f297 ?? '')
  const date = `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`
  if (!/^\d{8}$/.test(ymd) || !isValidDate(date)) throw malformed(CHANNEL, `f297 of ${inst.code} is not a YYYYMMDD date: ${JSON.stringify(row.f297)}`)
  const classes = {} as Record<OrderClass, ClassFlow>
  let total = 0
  for (const cls of ORDER_CLASSES) {
    const [i, o, n, r] = FLOW_FIELDS[cls].map((id) => num(CHANNEL, row[id], at(id)))
    if (i < 0 || o < 0) throw malformed(CHANNEL, `negative ${cls} flow of ${inst.code}`)
    if (!near(i - o, n, YUAN)) throw malformed(CHANNEL, `${cls} net ${n} of ${inst.code} is not inflow ${i} − outflow ${o}`)
    classes[cls] = { inflow: i, outflow: o, net: n, ratio: r }
    total += i + o
  }
  const mainNet = num(CHANNEL, row.f62, at('f62'))
  if (!near(mainNet, classes.super.net + classes.large.net, 2 * YUAN)) throw malformed(CHANNEL, `main net ${mainNet} of ${inst.code} is not super-large + large`)
  if (!near(total, amount, Math.max(YUAN * 8, amount * AMOUNT_TOLERANCE))) {
    throw malformed(CHANNEL, `flows of ${inst.code} add up to ${total.toFixed(2)} CNY, the day's amount is ${amount}`)
  }
  return { code: inst.code, date, time: num(CHANNEL, row.f124, at('f124')), amount, main: { net: mainNet, ratio: num(CHANNEL, row.f184, at('f184')) }, classes }
}

/**
 * Reads the daykline answer: one row per session, oldest first, dates strictly ascending, main =
 * super-large + large. Nothing known (`rc` 100, `data: null`) is no rows; a refusal (`rc` 102) is
 * `malformed`, so the mirror is asked.
 */
export function parseDayFlow(text: string, inst: Instrument): DayFlowRow[] {
  const data = readDataOrRefusal(text)
  if (!data) return []
  const [, code] = flowSecid(inst).split('.')
  if (String(data.code ?? '') !== code) throw malformed(CHANNEL, `fflow answer is for ${JSON.stringify(data.code)}, not ${code}`)
  if (!Array.isArray(data.klines)) throw malformed(CHANNEL, 'fflow answer has no klines')
  const rows: DayFlowRow[] = []
  for (const line of data.klines) {
    const cells = typeof line === 'string' ? line.split(',') : []
    if (cells.length !== DAY_COLUMNS.length) throw malformed(CHANNEL, `fflow row has ${cells.length} columns, expected ${DAY_COLUMNS.length}: ${JSON.stringify(line)}`)
    const date = cells[0]
    if (!isValidDate(date)) throw malformed(CHANNEL, `fflow row date is not YYYY-MM-DD: ${JSON.stringify(date)}`)
    if (rows.length && rows[rows.length - 1].date >= date) throw malformed(CHANNEL, `fflow rows out of order at ${date}`)
    const v = cells.map((c, i) => (i === 0 ? 0 : num(CHANNEL, c, `${DAY_COLUMNS[i]} on ${date}`)))
    const [, mainNet, smallNet, mediumNet, largeNet, superNet, mainRatio, smallRatio, mediumRatio, largeRatio, superRatio, close, changePct] = v
    if (!near(mainNet, superNet + largeNet, 2 * YUAN)) throw malformed(CHANNEL, `fflow main net on ${date} is not super-large + large`)
    if (close <= 0) throw malformed(CHANNEL, `fflow close on ${date} is ${close}`)
    rows.push({
      date,
      main: { net: mainNet, ratio: mainRatio },
      classes: { super: { net: superNet, ratio: superRatio }, large: { net: largeNet, ratio: largeRatio }, medium: { net: mediumNet, ratio: mediumRatio }, small: { net: smallNet, ratio: smallRatio } },
      close,
      changePct,
    })
  }
  return rows
}

export async function fetchTodayFlow(ctx: ChannelContext, inst: Instrument): Promise<TodayFlow | null> {
  return withMirrors(MIRRORS.push2, async (host) => parseTodayFlow(await fetchText(ctx, CHANNEL, todayFlowUrl(inst, host)), inst))
}

export async function fetchDayFlow(ctx: ChannelContext, inst: Instrument): Promise<DayFlowRow[]> {
  return withMirrors(MIRRORS.push2his, async (host) => parseDayFlow(await fetchText(ctx, CHANNEL, dayFlowUrl(inst, host)), inst))
}

// ---------------------------------------------------------------------------------------------
// Rank by today's main net inflow

/** Rows per rank page, and a bound on pages no A-share market comes near (about 56 pages). */
const RANK_PAGE_SIZE = 100
const MAX_RANK_PAGES = 200

const rankUrl = (page: number, host: string = MIRRORS.push2[0]) =>
  `https://${host}/api/qt/clist/get?pn=${page}&pz=${RANK_PAGE_SIZE}&po=1&np=1&fltt=2&invt=2&fid=f62&fs=${encodeURIComponent(A_SHARE_FS)}&fields=f12,f13,f62`

/** Every ranked stock's place by today's main net inflow: secid → rank (1 = the largest inflow), and how many were ranked. */
export interface FlowRanks {
  ranks: Map<string, number>
  ranked: number
}

/** One rank page: `total` and the (secid, main net) rows in order; values must not rise down the page. */
export function parseRankPage(text: string): { total: number; rows: Array<{ secid: string; net: number | null }> } {
  const data = readData(text)
  if (!data) return { total: 0, rows: [] }
  const diff = Array.isArray(data.diff) ? data.diff : null
  if (!diff || typeof data.total !== 'number') throw malformed(CHANNEL, 'rank page has no total or diff array')
  const rows = diff.map((r) => {
    if (!isObject(r)) throw malformed(CHANNEL, 'rank row is not an object')
    return { secid: `${r.f13}.${r.f12}`, net: optNum(CHANNEL, r.f62, `f62 of ${r.f12}`) }
  })
  checkSorted(rows)
  return { total: data.total, rows }
}

function checkSorted(rows: Array<{ secid: string; net: number | null }>): void {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1].net, rows[i].net]
    if (a === null ? b !== null : b !== null && b > a) throw malformed(CHANNEL, `rank list is not sorted by main net inflow at ${rows[i].secid}`)
  }
}

/**
 * The whole A-share market sorted by today's main net inflow (`clist/get?fid=f62`): page 1 gives
 * `total` and the page size, pages 2..N follow two at a time. The walk must hold `total` rows, each
 * stock once, sorted across pages; stocks without a value (halted) are not ranked. About 56
 * requests live: callers cache the result.
 */
export async function fetchFlowRanks(ctx: ChannelContext): Promise<FlowRanks> {
  const page = (n: number) => withMirrors(MIRRORS.push2, async (host) => parseRankPage(await fetchText(ctx, CHANNEL, rankUrl(n, host))))
  const startedAt = Date.now()
  const first = await page(1)
  if (first.rows.length === 0) throw empty(CHANNEL, 'the market list is empty')
  const pages = Math.ceil(first.total / first.rows.length)
  if (pages > MAX_RANK_PAGES) throw malformed(CHANNEL, `market list of ${first.total} rows is not the A-share market`)
  const rest = await walkRest(CHANNEL, Array.from({ length: pages - 1 }, (_, i) => i + 2), startedAt, async (n) => (await page(n)).rows)
  const rows = [first.rows, ...rest].flat()
  if (rows.length !== first.total) throw malformed(CHANNEL, `market list pages hold ${rows.length} rows, total says ${first.total}`)
  checkSorted(rows)
  const ranks = new Map<string, number>()
  const seen = new Set<string>()
  for (const r of rows) {
    if (seen.has(r.secid)) throw malformed(CHANNEL, `${r.secid} twice in the market list`)
    seen.add(r.secid)
    if (r.net !== null) ranks.set(r.secid, ranks.size + 1)
  }
  return { ranks, ranked: ranks.size }
}

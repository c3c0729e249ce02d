/**
 * Company fundamentals: quarterly financial statements of every A-share stock, generated from
 * seeds and the stock's own price walk so valuations stay realistic (PE TTM mostly 5–80, a few
 * loss-makers). Amounts are CNY; income and cash-flow lines are cumulative within the year, as
 * Chinese statements are (Q3 = January to September); balance-sheet lines are period-end values.
 *
 * One market, many views: earnings follow the stock's value (walk price × the cumulative action
 * factor × `totalShares`, i.e. the raw price basis of the live quote), so price / epsTtm is a
 * plausible PE at any clock; EPS is attributable net profit / `totalShares`; assets = liabilities
 * + equity; the cash-flow statement ends on the balance sheet's cash. Only periods whose report
 * is published by the clock exist (Q1 by 04-30, H1 by 08-31, Q3 by 10-31, annual by next 04-30).
 */
import { beijing, dayNumber, fromDayNumber } from '../../domain/dates'
import { LAST_MONTH, monthIndex } from './calendars'
import { Lru } from './lru'
import { bnorm, hashString, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'
import { cacheKeyOf, profileOf } from './universe'
import { anchors } from './walk'

/** Income statement, cumulative from January 1 to the period end (CNY; EPS in CNY per share). */
interface IncomeStatement {
  /** 营业总收入 */
  revenue: number
  /** 营业成本 */
  operatingCost: number
  /** 销售费用 */
  sellingExpense: number
  /** 管理费用 */
  adminExpense: number
  /** 财务费用 */
  financeExpense: number
  /** 营业总成本 = operating cost + the three expenses. */
  totalOperatingCost: number
  /** 营业利润 = revenue − total operating cost. */
  operatingProfit: number
  /** 利润总额 = operating profit + non-operating income. */
  totalProfit: number
  /** 所得税 */
  incomeTax: number
  /** 净利润 = total profit − income tax. */
  netProfit: number
  /** 归属于母公司股东的净利润 */
  parentNetProfit: number
  /** 扣除非经常性损益后的归母净利润 */
  deductedParentNetProfit: number
  /** 基本每股收益 = parent net profit / total shares (4 decimals). */
  basicEps: number
}

/** Balance sheet at the period end (CNY). */
interface BalanceSheet {
  /** 货币资金 */
  cash: number
  /** 应收账款 */
  accountsReceivable: number
  /** 存货 */
  inventory: number
  /** 流动资产合计 */
  currentAssets: number
  /** 固定资产 */
  fixedAssets: number
  /** 资产总计 */
  totalAssets: number
  /** 应付账款 */
  accountsPayable: number
  /** 预收款项 / 合同负债 */
  advanceReceipts: number
  /** 流动负债合计 */
  currentLiabilities: number
  /** 负债合计 */
  totalLiabilities: number
  /** 归属于母公司股东权益 */
  parentEquity: number
  /** 少数股东权益 */
  minorityEquity: number
  /** 所有者权益合计 = parent + minority; total assets = total liabilities + total equity. */
  totalEquity: number
}

/** Cash-flow statement, cumulative from January 1 (CNY). */
interface CashFlowStatement {
  /** 销售商品、提供劳务收到的现金 */
  salesCash: number
  /** 经营活动产生的现金流量净额 */
  operatingNetCash: number
  /** 购建固定资产等支付的现金 (capex, positive) */
  capitalExpenditure: number
  /** 投资活动产生的现金流量净额 */
  investingNetCash: number
  /** 筹资活动产生的现金流量净额 */
  financingNetCash: number
  /** 现金及现金等价物净增加额 = operating + investing + financing. */
  netCashChange: number
  /** 期初现金 (the balance sheet's cash at the previous December 31). */
  beginCash: number
  /** 期末现金 (= the balance sheet's cash at this period end). */
  endCash: number
}

/** One published report. */
export interface FinancialReport {
  /** Report period end `YYYY-MM-DD` (03-31, 06-30, 09-30, 12-31). */
  period: string
  /** Publication date `YYYY-MM-DD` (Beijing). */
  noticeDate: string
  income: IncomeStatement
  balance: BalanceSheet
  cashflow: CashFlowStatement
}

const QUARTER_END = ['03-31', '06-30', '09-30', '12-31'] as const

/** Publication windows `[first, last]` as month-day of the report's year (annual: next year). */
const NOTICE_WINDOW: ReadonlyArray<readonly [string, string]> = [
  ['04-10', '04-30'],
  ['07-20', '08-31'],
  ['10-12', '10-31'],
  ['03-10', '04-30'],
]

/** Earliest report year served; statements before the history would have no price to follow. */
const FIRST_YEAR = 2015

// Purpose tags local to this file (random.ts's SALT is shared; these keys only mix with this seed).
const S = { pe: 1, loss: 2, margin: 3, gross: 4, roe: 5, debt: 6, attrib: 7, tax: 8, season: 9, noise: 10, notice: 11, split: 12, mix: 13, ocf: 14, capex: 15, nonop: 16, deduct: 17, ps: 18, pb: 19 } as const

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))
const cents = (x: number) => Math.round(x * 100) / 100

/** Hidden, per-stock business parameters. */
interface Business {
  seed: number
  /** Price over annual earnings the business "deserves" (profitable stocks). */
  pe: number
  lossMaker: boolean
  /** Net margin (profitable) or loss margin (loss-makers), as a fraction of revenue. */
  margin: number
  /** Loss-makers: market value over annual revenue. */
  ps: number
  gross: number
  /** Return on parent equity per year (profitable) — sets book value; loss-makers use `pb`. */
  roe: number
  pb: number
  debt: number
  /** Share of net profit and equity attributable to the parent. */
  attrib: number
  tax: number
}

const businesses = new Map<string, Business>()

function businessOf(inst: EmuInstrument): Business {
  let b = businesses.get(cacheKeyOf(inst))
  if (b) return b
  const seed = hashString('fundamentals:' + inst.code)
  const st = inst.name.includes('ST')
  const u = (k: number) => uniform(seed, k)
  b = {
    seed,
    pe: clamp(Math.exp(Math.log(24) + 0.45 * bnorm(seed, S.pe)), 7, 70),
    lossMaker: u(S.loss) < (st ? 0.6 : 0.05),
    margin: st ? 0.02 + 0.1 * u(S.margin) : 0.04 + 0.22 * u(S.margin),
    ps: 1.5 + 6 * u(S.ps),
    gross: 0.12 + 0.45 * u(S.gross),
    roe: 0.05 + 0.17 * u(S.roe),
    pb: 0.8 + 3 * u(S.pb),
    debt: 0.18 + 0.55 * u(S.debt),
    attrib: u(S.attrib) < 0.4 ? 1 : 0.85 + 0.15 * u(S.attrib + 100),
    tax: 0.12 + 0.13 * u(S.tax),
  }
  businesses.set(cacheKeyOf(inst), b)
  return b
}

/** Quarter number q = year × 4 + (quarter − 1). */
const yearOf = (q: number) => Math.floor(q / 4)
const periodOf = (q: number) => `${yearOf(q)}-${QUARTER_END[q % 4]}`

/**
 * Market value of the company over quarter q (CNY, raw price basis): the walk's monthly anchors
 * averaged over the quarter, times every action factor, times total shares.
 */
function quarterValue(market: MarketModel, inst: EmuInstrument, q: number): number {
  const a = anchors(inst, profileOf(inst))
  const m0 = monthIndex(`${yearOf(q)}-${String((q % 4) * 3 + 1).padStart(2, '0')}-01`)
  let sum = 0
  for (let k = 0; k < 3; k++) sum += a[clamp(m0 + k + 1, 0, LAST_MONTH + 1)]
  const factor = market.qfqFactor(inst, '1990-01-01')
  return Math.exp(sum / 3) * factor * (inst.totalShares ?? 0)
}

/** One quarter alone (not cumulative): income and cash-flow lines plus period-end balances. */
interface Quarter {
  income: Omit<IncomeStatement, 'basicEps'>
  balance: BalanceSheet
  flows: { salesCash: number; operatingNetCash: number; capitalExpenditure: number; investingNetCash: number }
}

function quarterOf(market: MarketModel, inst: EmuInstrument, q: number): Quarter {
  const b = businessOf(inst)
  const n = (salt: number, k = 0) => bnorm(b.seed, salt, q, k)
  const value = quarterValue(market, inst, q)
  const season = [0.9, 1.0, 0.98, 1.12][q % 4] * Math.exp(0.12 * n(S.season))

  // Income: from attributable profit (or revenue, for loss-makers) down to every line.
  let revenue: number
  let parentNetProfit: number
  if (b.lossMaker) {
    revenue = (value / b.ps / 4) * season
    parentNetProfit = -revenue * b.margin * Math.exp(0.2 * n(S.noise))
  } else {
    parentNetProfit = (value / b.pe / 4) * season * Math.exp(0.1 * n(S.noise))
    revenue = (parentNetProfit / b.margin) * Math.exp(0.05 * n(S.margin))
  }
  revenue = cents(revenue)
  parentNetProfit = cents(parentNetProfit)
  const netProfit = cents(parentNetProfit / b.attrib)
  const totalProfit = netProfit > 0 ? cents(netProfit / (1 - b.tax)) : netProfit
  const incomeTax = cents(totalProfit - netProfit)
  const operatingProfit = cents(totalProfit - revenue * 0.004 * n(S.nonop))
  const gross = Math.max(b.gross, operatingProfit / revenue + 0.06)
  const operatingCost = cents(revenue * (1 - gross))
  const expenses = revenue - operatingCost - operatingProfit
  const sellShare = 0.35 + 0.25 * uniform(b.seed, S.split)
  const sellingExpense = cents(expenses * sellShare)
  const financeExpense = cents(expenses * 0.08)
  const adminExpense = cents(expenses - sellingExpense - financeExpense)
  const totalOperatingCost = cents(operatingCost + sellingExpense + adminExpense + financeExpense)
  const deductedParentNetProfit = cents(parentNetProfit - Math.abs(parentNetProfit) * 0.08 * uniform(b.seed, S.deduct, q))

  // Balance sheet: book value from the earnings power, leverage from the business's debt ratio.
  const parentEquity = cents(b.lossMaker ? value / b.pb : value / b.pe / b.roe)
  const minorityEquity = cents(parentEquity * (1 / b.attrib - 1))
  const totalEquity = cents(parentEquity + minorityEquity)
  const debt = clamp(b.debt + 0.02 * n(S.debt), 0.1, 0.85)
  const totalAssets = cents(totalEquity / (1 - debt))
  const totalLiabilities = cents(totalAssets - totalEquity)
  const share = (k: number, lo: number, span: number) => lo + span * uniform(b.seed, S.mix, k) + 0.01 * n(S.mix, k)
  const cash = cents(totalAssets * share(1, 0.08, 0.2))
  const accountsReceivable = cents(totalAssets * share(2, 0.03, 0.15))
  const inventory = cents(totalAssets * share(3, 0.02, 0.15))
  const currentAssets = cents(cash + accountsReceivable + inventory + totalAssets * share(4, 0.03, 0.1))
  const fixedAssets = cents((totalAssets - currentAssets) * share(5, 0.3, 0.4))
  const accountsPayable = cents(totalLiabilities * share(6, 0.1, 0.25))
  const advanceReceipts = cents(totalLiabilities * share(7, 0.02, 0.15))
  const currentLiabilities = cents(accountsPayable + advanceReceipts + totalLiabilities * share(8, 0.15, 0.3))

  // Cash flows of the quarter (financing is what reconciles the cash balance; see cumulative()).
  const salesCash = cents(revenue * 1.1 * Math.exp(0.05 * n(S.ocf, 1)))
  const operatingNetCash = cents((netProfit + revenue * 0.03) * (1 + 0.4 * n(S.ocf)))
  const capitalExpenditure = cents(revenue * (0.03 + 0.08 * uniform(b.seed, S.capex)) * Math.exp(0.3 * n(S.capex)))
  const investingNetCash = cents(-capitalExpenditure + revenue * 0.01 * n(S.capex, 1))

  return {
    income: {
      revenue, operatingCost, sellingExpense, adminExpense, financeExpense, totalOperatingCost,
      operatingProfit, totalProfit, incomeTax, netProfit, parentNetProfit, deductedParentNetProfit,
    },
    balance: {
      cash, accountsReceivable, inventory, currentAssets, fixedAssets, totalAssets,
      accountsPayable, advanceReceipts, currentLiabilities, totalLiabilities, parentEquity, minorityEquity, totalEquity,
    },
    flows: { salesCash, operatingNetCash, capitalExpenditure, investingNetCash },
  }
}

/** Statements by market, stock and quarter: pure, and asked for again and again by the TTM figures of board valuations. */
const reports = new WeakMap<MarketModel, Lru<string, Omit<FinancialReport, 'noticeDate'>>>()

/** The full statements of period q (cumulative from the year's first quarter), memoised. */
function reportOf(market: MarketModel, inst: EmuInstrument, q: number): Omit<FinancialReport, 'noticeDate'> {
  let memo = reports.get(market)
  if (!memo) reports.set(market, (memo = new Lru(20_000)))
  const key = `${cacheKeyOf(inst)}|${q}`
  let r = memo.get(key)
  if (!r) memo.set(key, (r = buildReport(market, inst, q)))
  return r
}

function buildReport(market: MarketModel, inst: EmuInstrument, q: number): Omit<FinancialReport, 'noticeDate'> {
  const first = yearOf(q) * 4
  const quarters: Quarter[] = []
  for (let k = first; k <= q; k++) quarters.push(quarterOf(market, inst, k))
  const sum = (pick: (x: Quarter) => number) => cents(quarters.reduce((s, x) => s + pick(x), 0))
  const inc = quarters[0].income
  const income = {} as IncomeStatement
  for (const key of Object.keys(inc) as Array<keyof typeof inc>) income[key] = sum((x) => x.income[key])
  income.basicEps = Math.round((income.parentNetProfit / (inst.totalShares ?? 1)) * 1e4) / 1e4
  const balance = quarters[quarters.length - 1].balance
  const beginCash = quarterOf(market, inst, first - 1).balance.cash
  const operatingNetCash = sum((x) => x.flows.operatingNetCash)
  const investingNetCash = sum((x) => x.flows.investingNetCash)
  const netCashChange = cents(balance.cash - beginCash)
  const cashflow: CashFlowStatement = {
    salesCash: sum((x) => x.flows.salesCash),
    operatingNetCash,
    capitalExpenditure: sum((x) => x.flows.capitalExpenditure),
    investingNetCash,
    financingNetCash: cents(netCashChange - operatingNetCash - investingNetCash),
    netCashChange,
    beginCash,
    endCash: balance.cash,
  }
  return { period: periodOf(q), income, balance, cashflow }
}

/**
 * What the 业绩报表 (src/emulator/wire/eastmoney-performance.ts) derives from the statements of a
 * published period beside the period's own figures: parent equity at the start of the year (the
 * previous December 31: the weighted ROE averages it with the period end's), and the period's own
 * quarter and the one before it alone (not cumulative), for the quarter-on-quarter growth.
 * The model's facts, published or not: a company's opening equity is its last year-end's.
 */
export function performanceBasis(market: MarketModel, inst: EmuInstrument, period: string) {
  const q = +period.slice(0, 4) * 4 + QUARTER_END.indexOf(period.slice(5) as (typeof QUARTER_END)[number])
  /** Quarter k alone: cumulative k minus cumulative k − 1 within the year (Q1 is its own). */
  const alone = (k: number) => {
    const r = reportOf(market, inst, k).income
    if (k % 4 === 0) return { revenue: r.revenue, parentNetProfit: r.parentNetProfit }
    const p = reportOf(market, inst, k - 1).income
    return { revenue: cents(r.revenue - p.revenue), parentNetProfit: cents(r.parentNetProfit - p.parentNetProfit) }
  }
  return { openingParentEquity: reportOf(market, inst, q - (q % 4) - 1).balance.parentEquity, quarter: alone(q), previousQuarter: alone(q - 1) }
}

/** Each instrument's publication dates by quarter number: whole-market scans ask for them by the thousand. */
const noticeDates = new WeakMap<EmuInstrument, Map<number, string>>()

/** Publication date of period q's report. */
export function noticeDateOf(inst: EmuInstrument, q: number): string {
  let dates = noticeDates.get(inst)
  if (!dates) noticeDates.set(inst, (dates = new Map()))
  let d = dates.get(q)
  if (d === undefined) dates.set(q, (d = computeNoticeDate(inst, q)))
  return d
}

function computeNoticeDate(inst: EmuInstrument, q: number): string {
  const [from, to] = NOTICE_WINDOW[q % 4]
  const year = yearOf(q) + (q % 4 === 3 ? 1 : 0)
  const a = dayNumber(`${year}-${from}`)
  const span = dayNumber(`${year}-${to}`) - a
  return fromDayNumber(a + Math.floor(uniform(businessOf(inst).seed, S.notice, q) * (span + 1)))
}

/** True for the kinds that publish statements here (A-share stocks). */
export function hasFundamentals(inst: EmuInstrument): boolean {
  return inst.kind === 'stock' && inst.totalShares !== null && inst.totalShares > 0
}

/** The latest date that counts: `asOfDate` capped by the clock's Beijing date. */
function cutoff(asOfDate: string, now: number): string {
  const today = beijing(now).date
  return asOfDate < today ? asOfDate : today
}

/** Quarter numbers published on or before `date`, newest first. */
function publishedQuarters(inst: EmuInstrument, date: string): number[] {
  if (!hasFundamentals(inst)) return []
  const y = +date.slice(0, 4)
  const firstYear = Math.max(FIRST_YEAR, +inst.listDate.slice(0, 4) - 3)
  const out: number[] = []
  for (let q = y * 4 + 3; q >= firstYear * 4; q--) if (noticeDateOf(inst, q) <= date) out.push(q)
  return out
}

/** Every report published by `now`, newest period first (empty for non-A-share kinds). */
export function financialReports(market: MarketModel, inst: EmuInstrument, now: number, limit = Infinity): FinancialReport[] {
  const date = beijing(now).date
  return publishedQuarters(inst, date)
    .slice(0, limit)
    .map((q) => ({ ...reportOf(market, inst, q), noticeDate: noticeDateOf(inst, q) }))
}

/** The report of one period (`YYYY-MM-DD` quarter end) if it is published by `now`, else null. */
export function financialReport(market: MarketModel, inst: EmuInstrument, period: string, now: number): FinancialReport | null {
  const k = QUARTER_END.indexOf(period.slice(5) as (typeof QUARTER_END)[number])
  if (!hasFundamentals(inst) || k < 0 || !/^\d{4}-/.test(period)) return null
  const q = +period.slice(0, 4) * 4 + k
  const firstYear = Math.max(FIRST_YEAR, +inst.listDate.slice(0, 4) - 3)
  if (yearOf(q) < firstYear) return null
  const noticeDate = noticeDateOf(inst, q)
  if (noticeDate > beijing(now).date) return null
  return { ...reportOf(market, inst, q), noticeDate }
}

/**
 * Trailing-twelve-month sum of a cumulative line as published on `asOfDate` (capped by `now`):
 * latest period + last annual − the same period a year earlier. Null when nothing is published.
 */
function ttm(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number, pick: Pick): number | null {
  const q = publishedQuarters(inst, cutoff(asOfDate, now))[0]
  return q === undefined ? null : ttmOf(market, inst, q, pick)
}

type Pick = (r: Omit<FinancialReport, 'noticeDate'>) => number

/** The TTM sum of a line with period q the latest published: q + last annual − q a year earlier. */
function ttmOf(market: MarketModel, inst: EmuInstrument, q: number, pick: Pick): number {
  const latest = pick(reportOf(market, inst, q))
  if (q % 4 === 3) return latest
  return latest + pick(reportOf(market, inst, q - (q % 4) - 1)) - pick(reportOf(market, inst, q - 4))
}

/** What a whole company earned, owned, sold and took in, as published by a day (CNY); null fields where nothing is. */
export interface PublishedFigures {
  /** Attributable net profit, last four quarters. */
  profitTtm: number | null
  /** Attributable net profit of the last annual report. */
  annualProfit: number | null
  /** Parent equity of the latest balance sheet. */
  equity: number | null
  revenueTtm: number | null
  /** Operating net cash flow, last four quarters. */
  operatingCashTtm: number | null
}

/**
 * The figures behind epsTtm, epsStatic, bookValuePerShare, revenueTtm and operatingCashFlowTtm
 * (× total shares where per share) in one pass over the published quarters: a board's valuation
 * asks for all of them for every member at every report day.
 */
export function publishedFigures(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): PublishedFigures {
  const qs = publishedQuarters(inst, cutoff(asOfDate, now))
  const q = qs[0]
  if (q === undefined) return { profitTtm: null, annualProfit: null, equity: null, revenueTtm: null, operatingCashTtm: null }
  const annual = qs.find((k) => k % 4 === 3)
  return {
    profitTtm: ttmOf(market, inst, q, (r) => r.income.parentNetProfit),
    annualProfit: annual === undefined ? null : reportOf(market, inst, annual).income.parentNetProfit,
    equity: reportOf(market, inst, q).balance.parentEquity,
    revenueTtm: ttmOf(market, inst, q, (r) => r.income.revenue),
    operatingCashTtm: ttmOf(market, inst, q, (r) => r.cashflow.operatingNetCash),
  }
}

const perShare = (inst: EmuInstrument, x: number | null) => (x === null ? null : x / (inst.totalShares as number))

/** EPS over the last four published quarters (CNY per share, unrounded); null if none published. */
export function epsTtm(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  return perShare(inst, ttm(market, inst, asOfDate, now, (r) => r.income.parentNetProfit))
}

/** Revenue over the last four published quarters (CNY). */
export function revenueTtm(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  return ttm(market, inst, asOfDate, now, (r) => r.income.revenue)
}

/** Operating net cash flow over the last four published quarters (CNY). */
export function operatingCashFlowTtm(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  return ttm(market, inst, asOfDate, now, (r) => r.cashflow.operatingNetCash)
}

/** Parent equity per share in the latest published balance sheet (CNY per share). */
export function bookValuePerShare(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  const q = publishedQuarters(inst, cutoff(asOfDate, now))[0]
  return q === undefined ? null : perShare(inst, reportOf(market, inst, q).balance.parentEquity)
}

/** EPS of the latest published annual report (for PE static); null if none. */
export function epsStatic(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  const q = publishedQuarters(inst, cutoff(asOfDate, now)).find((k) => k % 4 === 3)
  return q === undefined ? null : perShare(inst, reportOf(market, inst, q).income.parentNetProfit)
}

/** Latest published cumulative EPS annualised (× 4 / quarters; for PE dynamic); null if none. */
export function epsDynamic(market: MarketModel, inst: EmuInstrument, asOfDate: string, now: number): number | null {
  const q = publishedQuarters(inst, cutoff(asOfDate, now))[0]
  if (q === undefined) return null
  return perShare(inst, (reportOf(market, inst, q).income.parentNetProfit * 4) / ((q % 4) + 1))
}

/**
 * Broker research on the simulated market: which stocks get reports on which trading days, by
 * which broker and analysts, with what rating, target price, EPS/PE forecasts and summary text.
 * Pure and lazy: a report is a function of (stock, date) and the clock, nothing is stored.
 *
 * One market, many views: the reference price of a report is the stock's raw close on the last
 * session before its date (what /v1/quote served that evening); EPS forecasts start from the
 * fundamentals model's trailing EPS and grow with the model's own profit growth; PE = that close /
 * EPS; the summary quotes the model's latest published revenue and profit and their growth. A
 * "buy" has a target 8–45% above the reference close, "overweight" 3–25%, "neutral" −8–10%,
 * "underweight" and "sell" below it.
 */
import { addDays, dayNumber, fromDayNumber } from '../../domain/dates'
import { isSessionDay } from './calendars'
import { epsTtm, financialReport, financialReports, hasFundamentals } from './fundamentals'
import { bnorm, hash, hashString, pickIndex, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'

/** Eastmoney's unified rating names, best first. */
export const RATINGS = ['买入', '增持', '中性', '减持', '卖出'] as const
type RatingName = (typeof RATINGS)[number]

interface Broker {
  /** Eastmoney's 8-digit organisation code. */
  code: string
  name: string
  shortName: string
}

/** The brokers that publish in the simulated market (invented names). */
const BROKERS: readonly Broker[] = [
  ['80000001', '华川证券股份有限公司', '华川证券'],
  ['80000002', '东岳证券股份有限公司', '东岳证券'],
  ['80000003', '国瑞证券股份有限公司', '国瑞证券'],
  ['80000004', '长衡证券股份有限公司', '长衡证券'],
  ['80000005', '中晟证券股份有限公司', '中晟证券'],
  ['80000006', '海嘉证券股份有限公司', '海嘉证券'],
  ['80000007', '信达远证券股份有限公司', '信达远证券'],
  ['80000008', '安和证券股份有限公司', '安和证券'],
  ['80000009', '南屏证券股份有限公司', '南屏证券'],
  ['80000010', '北辰证券股份有限公司', '北辰证券'],
  ['80000011', '天衢证券股份有限公司', '天衢证券'],
  ['80000012', '宏元证券股份有限公司', '宏元证券'],
  ['80000013', '联泰证券股份有限公司', '联泰证券'],
  ['80000014', '恒通证券股份有限公司', '恒通证券'],
  ['80000015', '江海证券研究所有限公司', '江海研究'],
  ['80000016', '广益证券股份有限公司', '广益证券'],
].map(([code, name, shortName]) => ({ code, name, shortName }))

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '勇', '军', '杰', '涛', '明', '超', '霞', '平', '刚', '晨', '睿', '思远', '子涵', '宇航', '嘉怡', '浩然', '梓萱', '一鸣', '雨桐', '文博', '欣然', '俊杰', '晓东', '海峰', '立群']

/** One research report. */
export interface ResearchReport {
  inst: EmuInstrument
  /** `AP` + date (8 digits) + stock symbol (6 digits) + 4 check digits: 18 digits as upstream. */
  infoCode: string
  date: string
  broker: Broker
  /** Analysts with their Eastmoney author ids. */
  analysts: Array<{ id: string; name: string }>
  title: string
  rating: RatingName
  /** The same broker's rating in its previous report on this stock (two years back); null: first coverage. */
  lastRating: RatingName | null
  /** Target price (CNY); with `targetLow`, the top of a range. Null when the report gives none. */
  target: number | null
  targetLow: number | null
  /** Raw close of the last session before the report date (CNY). */
  close: number
  /** Forecast year "this year" (the report date's year) and the EPS (CNY/share) and PE forecasts. */
  year: number
  epsThisYear: number
  epsNextYear: number
  peThisYear: number | null
  peNextYear: number | null
  /** Reports on the same stock in the 30 days up to and including this one. */
  countLastMonth: number
  /** Summary paragraphs as the report page shows them. */
  summary: string[]
}

// Purpose tags for this file's seeds.
const S = { coverage: 1, day: 2, broker: 3, team: 4, view: 5, bias: 6, target: 7, targetOn: 8, range: 9, spread: 10, next: 11, title: 12, phrase: 13, check: 14, brokers: 15, size: 16 } as const

/** How far back a report looks for the same broker's previous rating. */
const LOOKBACK_DAYS = 730
const seeds = new Map<string, number>()
/** The stock's research seed (kept: the market-wide listing asks it for every stock and day). */
function seedOf(inst: EmuInstrument): number {
  let s = seeds.get(inst.code)
  if (s === undefined) seeds.set(inst.code, (s = hashString('research:' + inst.code)))
  return s
}
const round2 = (x: number) => Math.round(x * 100) / 100

/** True for the stocks brokers cover: A-share stocks with statements. */
const isCovered = (inst: EmuInstrument) => inst.kind === 'stock' && hasFundamentals(inst)

/** Chance of a report on a trading day: most stocks a few a year, the best covered about twenty. */
function dailyChance(inst: EmuInstrument): number {
  const c = uniform(seedOf(inst), S.coverage)
  const st = inst.name.includes('ST') ? 0.15 : 1
  return (0.004 + 0.075 * c * c * c) * st
}

/** True when `inst` has a report dated `date` (a trading day at least 60 days after listing). */
function hasReportOn(inst: EmuInstrument, date: string): boolean {
  if (!isCovered(inst) || date < addDays(inst.listDate, 60) || !isSessionDay('cn', date)) return false
  return uniform(seedOf(inst), S.day, dayNumber(date)) < dailyChance(inst)
}

/** The brokers that cover a stock (three to six of them). */
function coveringBrokers(inst: EmuInstrument): Broker[] {
  const seed = seedOf(inst)
  const n = 3 + pickIndex(seed, 4, S.size)
  const start = pickIndex(seed, BROKERS.length, S.brokers)
  const step = 1 + 2 * pickIndex(seed, 3, S.brokers, 1)
  return Array.from({ length: n }, (_, k) => BROKERS[(start + k * step) % BROKERS.length])
}

const brokerOn = (inst: EmuInstrument, day: number) => {
  const covering = coveringBrokers(inst)
  return covering[pickIndex(seedOf(inst), covering.length, S.broker, day)]
}

/** A broker's view of a stock: a shared sentiment per quarter plus the broker's own lean. */
function ratingOf(inst: EmuInstrument, broker: Broker, day: number): RatingName {
  const seed = seedOf(inst)
  const quarter = Math.floor(day / 91)
  const v = 1.0 + 0.6 * bnorm(seed, S.view, quarter) + 0.35 * bnorm(seed, S.bias, +broker.code)
  if (v > 0.75) return '买入'
  if (v > 0) return '增持'
  if (v > -0.6) return '中性'
  if (v > -1.2) return '减持'
  return '卖出'
}

/** The team of one broker on one stock: one to three analysts. */
function teamOf(inst: EmuInstrument, broker: Broker): Array<{ id: string; name: string }> {
  const seed = hash(seedOf(inst), S.team, +broker.code)
  const n = 1 + (seed % 3)
  return Array.from({ length: n }, (_, k) => {
    const h = hash(+broker.code, hash(seed, k) % 40)
    const name = SURNAMES[h % SURNAMES.length] + GIVEN[(h >>> 8) % GIVEN.length]
    return { id: String(11000000000 + (h % 1_000_000_000)), name }
  })
}

/** The infoCode of a report: date, symbol and four check digits. */
export function infoCodeOf(inst: EmuInstrument, date: string): string {
  const check = String(hash(seedOf(inst), S.check, dayNumber(date)) % 10000).padStart(4, '0')
  return `AP${date.replaceAll('-', '')}${inst.symbol}${check}`
}

/** The stock and date an infoCode names, when it is one of this market's reports. */
export function decodeInfoCode(market: MarketModel, infoCode: string): { inst: EmuInstrument; date: string } | null {
  const m = /^AP(\d{4})(\d{2})(\d{2})(\d{6})\d{4}$/.exec(infoCode)
  if (!m) return null
  const date = `${m[1]}-${m[2]}-${m[3]}`
  for (const prefix of ['sh', 'sz', 'bj']) {
    const inst = market.byCode(prefix + m[4])
    if (inst && hasReportOn(inst, date) && infoCodeOf(inst, date) === infoCode) return { inst, date }
  }
  return null
}

/** Report dates of one stock in [from, to], newest first. */
export function reportDates(inst: EmuInstrument, from: string, to: string): string[] {
  const out: string[] = []
  if (!isCovered(inst)) return out
  for (let d = dayNumber(to); d >= dayNumber(from); d--) {
    const date = fromDayNumber(d)
    if (hasReportOn(inst, date)) out.push(date)
  }
  return out
}

/** Every covered stock's report dates in [from, to], newest first (ties in universe order). */
export function marketReportKeys(market: MarketModel, from: string, to: string): Array<{ inst: EmuInstrument; date: string }> {
  const stocks = market.instruments().filter(isCovered)
  const out: Array<{ inst: EmuInstrument; date: string }> = []
  for (let d = dayNumber(to); d >= dayNumber(from); d--) {
    const date = fromDayNumber(d)
    if (!isSessionDay('cn', date)) continue
    for (const inst of stocks) if (hasReportOn(inst, date)) out.push({ inst, date })
  }
  return out
}

const PERIOD_NAME = ['一季报', '半年报', '三季报', '年报']
const yi = (x: number) => (x / 1e8).toFixed(2)
const signed = (pct: number) => (pct >= 0 ? `增长${pct.toFixed(2)}%` : `下降${Math.abs(pct).toFixed(2)}%`)

/** Revenue and parent net profit of the latest report published by `date`, with their growth over a year (percent). */
export function latestResults(market: MarketModel, inst: EmuInstrument, date: string, now: number) {
  const at = Math.min(now, Date.parse(`${date}T08:00:00+08:00`))
  const latest = financialReports(market, inst, at, 1)[0]
  if (!latest) return null
  const prior = financialReport(market, inst, `${+latest.period.slice(0, 4) - 1}${latest.period.slice(4)}`, at)
  const growth = (a: number, b: number | undefined) => (b === undefined || b === 0 ? null : ((a - b) / Math.abs(b)) * 100)
  return {
    period: latest.period,
    revenue: latest.income.revenue,
    profit: latest.income.parentNetProfit,
    revenueGrowth: growth(latest.income.revenue, prior?.income.revenue),
    profitGrowth: growth(latest.income.parentNetProfit, prior?.income.parentNetProfit),
  }
}

/** The report of `inst` dated `date`, or null when it has none (or it is after the clock). */
export function researchReport(market: MarketModel, inst: EmuInstrument, date: string, now: number): ResearchReport | null {
  if (!hasReportOn(inst, date)) return null
  const bars = market.dailyBars(inst, addDays(date, -20), addDays(date, -1), now)
  const last = bars[bars.length - 1]
  if (!last) return null
  const day = dayNumber(date)
  const seed = seedOf(inst)
  const broker = brokerOn(inst, day)
  const rating = ratingOf(inst, broker, day)

  let lastRating: RatingName | null = null
  for (let d = day - 1; d >= day - LOOKBACK_DAYS; d--) {
    const prev = fromDayNumber(d)
    if (hasReportOn(inst, prev) && brokerOn(inst, d) === broker) {
      lastRating = ratingOf(inst, broker, d)
      break
    }
  }

  const close = last.close
  const positive = rating === '买入' || rating === '增持'
  let target: number | null = null
  let targetLow: number | null = null
  if (uniform(seed, S.targetOn, day) < (positive ? 0.7 : 0.4)) {
    const [lo, hi] = { 买入: [0.08, 0.45], 增持: [0.03, 0.25], 中性: [-0.08, 0.1], 减持: [-0.25, -0.03], 卖出: [-0.4, -0.12] }[rating]
    target = round2(close * (1 + lo + (hi - lo) * uniform(seed, S.target, day)))
    if (uniform(seed, S.range, day) < 0.15) targetLow = round2(target * 0.9)
  }

  // Forecasts start from the trailing EPS and grow with the model's profit growth (damped), with
  // the broker's own spread; a loss-maker's loss narrows.
  const results = latestResults(market, inst, date, now)
  const base = epsTtm(market, inst, date, Math.min(now, Date.parse(`${date}T08:00:00+08:00`))) ?? 0
  const g = Math.max(-0.3, Math.min(0.6, (results?.profitGrowth ?? 8) / 100)) * 0.5 + 0.04 + 0.04 * bnorm(seed, S.spread, day)
  const epsThisYear = round2(base >= 0 ? base * (1 + g) : base * 0.8)
  const epsNextYear = round2(epsThisYear >= 0 ? epsThisYear * (1.08 + 0.05 * bnorm(seed, S.next, day)) : epsThisYear * 0.6)
  const pe = (eps: number) => (Math.abs(eps) < 0.01 ? null : round2(close / eps))

  const year = +date.slice(0, 4)
  const countLastMonth = reportDates(inst, addDays(date, -29), date).length
  const report: ResearchReport = {
    inst,
    infoCode: infoCodeOf(inst, date),
    date,
    broker,
    analysts: teamOf(inst, broker),
    title: '',
    rating,
    lastRating,
    target,
    targetLow,
    close,
    year,
    epsThisYear,
    epsNextYear,
    peThisYear: pe(epsThisYear),
    peNextYear: pe(epsNextYear),
    countLastMonth,
    summary: [],
  }
  report.title = titleOf(report, results)
  report.summary = summaryOf(report, results)
  return report
}

type Results = ReturnType<typeof latestResults>

function titleOf(r: ResearchReport, results: Results): string {
  const name = r.inst.name
  if (r.lastRating === null) return `首次覆盖报告：${positiveWord(r.rating)}`
  if (results && results.profitGrowth !== null) {
    const label = `${results.period.slice(0, 4)}年${PERIOD_NAME[['03', '06', '09', '12'].indexOf(results.period.slice(5, 7))]}`
    return `${name}${label}点评：${results.profitGrowth >= 0 ? '业绩稳健增长' : '业绩短期承压'}，${positiveWord(r.rating)}`
  }
  return `${name}：${positiveWord(r.rating)}`
}

function positiveWord(rating: RatingName): string {
  return { 买入: '成长逻辑清晰', 增持: '经营稳中有进', 中性: '估值已反映预期', 减持: '基本面存在隐忧', 卖出: '下行风险较大' }[rating]
}

function summaryOf(r: ResearchReport, results: Results): string[] {
  const out: string[] = []
  if (results) {
    const label = `${results.period.slice(0, 4)}年${PERIOD_NAME[['03', '06', '09', '12'].indexOf(results.period.slice(5, 7))]}`
    const rev = results.revenueGrowth === null ? '' : `，同比${signed(results.revenueGrowth)}`
    const prof = results.profitGrowth === null ? '' : `，同比${signed(results.profitGrowth)}`
    out.push(`事件：公司发布${label}，实现营业收入${yi(results.revenue)}亿元${rev}；实现归母净利润${yi(results.profit)}亿元${prof}。`)
  }
  const phrases = [
    '主营业务稳步推进，盈利能力有望持续改善。我们对此点评如下。',
    '我们认为公司在细分领域具备较强竞争力，行业景气度回升带动需求修复。以下为报告摘要。',
    '公司费用管控成效显现，经营质量稳步提升。我们对公司的经营情况进行了梳理。',
    '短期看原材料价格波动使毛利率承压，中长期成长空间仍在。详见正文分析。',
  ]
  out.push(phrases[pickIndex(seedOf(r.inst), phrases.length, S.phrase, dayNumber(r.date))])
  const verb = r.lastRating === null ? '首次覆盖，给予' : r.lastRating === r.rating ? '维持' : RATINGS.indexOf(r.rating) < RATINGS.indexOf(r.lastRating) ? '上调至' : '下调至'
  const pe = r.peThisYear !== null && r.peNextYear !== null ? `，对应PE分别为${r.peThisYear.toFixed(2)}倍、${r.peNextYear.toFixed(2)}倍` : ''
  const target = r.target === null ? '' : r.targetLow === null ? `，目标价${r.target.toFixed(2)}元` : `，目标价${r.targetLow.toFixed(2)}-${r.target.toFixed(2)}元`
  out.push(`盈利预测与投资建议：我们预计公司${r.year}-${r.year + 1}年EPS分别为${r.epsThisYear.toFixed(2)}元、${r.epsNextYear.toFixed(2)}元${pe}，${verb}“${r.rating}”评级${target}。`)
  out.push('风险提示：行业竞争加剧；原材料价格大幅波动；下游需求不及预期。')
  out.push('请务必阅读正文之后的免责声明部分。')
  return out
}

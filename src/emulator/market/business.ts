/**
 * What each simulated company does: its industry board, its concept boards, its main-business
 * composition (主营构成) and its company profile text. Pure and deterministic: a function of the
 * stock's code and, for the composition, of the fundamentals model's published annual revenue.
 *
 * One market, many views: the composition of year Y is the annual report of Y (fundamentals.ts)
 * split into product lines: the "by product" incomes add up to that report's revenue to the cent,
 * costs to its operating cost, and each product line is one the company's boards make
 * (business-catalog.ts), so board membership and compositions agree.
 */
import { beijing } from '../../domain/dates'
import { CONCEPT_BOARDS, INDUSTRY_PRODUCTS } from './business-catalog'
import { SECTORS } from './catalog'
import { industryOf } from './industries'
import { financialReport, hasFundamentals } from './fundamentals'
import { hashString, pickIndex, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'
import { cacheKeyOf } from './universe'

type BoardKind = 'industry' | 'concept'

export interface BusinessBoard {
  /** `BK` + four digits. */
  code: string
  name: string
  kind: BoardKind
  /** Product lines the board's companies make. */
  products: readonly string[]
}

const split = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean)

const INDUSTRY_BOARDS: BusinessBoard[] = Object.entries(SECTORS).map(([n, name]) => ({ code: 'BK' + n, name, kind: 'industry', products: split(INDUSTRY_PRODUCTS[name] ?? name) }))
const CONCEPTS: BusinessBoard[] = CONCEPT_BOARDS.map(([n, name, products]) => ({ code: 'BK' + n, name, kind: 'concept', products: split(products) }))
const BY_CODE = new Map([...INDUSTRY_BOARDS, ...CONCEPTS].map((b) => [b.code, b]))
const BY_NAME = new Map([...INDUSTRY_BOARDS, ...CONCEPTS].map((b) => [b.name, b]))

/** Every concept board, in catalogue order. */
export const conceptBoards = (): readonly BusinessBoard[] => CONCEPTS

/** One product line of a composition: its share of revenue, a fraction. */
interface Line {
  name: string
  ratio: number
}

/** The real stocks the emulator names: boards and product lines as the companies report them. */
const REAL_BUSINESS: Record<string, { industry: string; concepts: string[]; lines: Line[] }> = {
  sh600519: { industry: '酿酒行业', concepts: [], lines: [{ name: '茅台酒(白酒)', ratio: 0.8641 }, { name: '系列酒(白酒)', ratio: 0.1343 }, { name: '其他业务', ratio: 0.0016 }] },
  sz000858: { industry: '酿酒行业', concepts: [], lines: [{ name: '五粮液(白酒)', ratio: 0.7755 }, { name: '其他酒品(白酒)', ratio: 0.1712 }, { name: '其他业务', ratio: 0.0533 }] },
  sz300750: { industry: '电池', concepts: ['锂电池', '储能', '新能源车', '钠离子电池', '固态电池'], lines: [{ name: '动力电池系统', ratio: 0.6972 }, { name: '储能电池系统', ratio: 0.1531 }, { name: '电池材料及回收', ratio: 0.0956 }, { name: '其他业务', ratio: 0.0541 }] },
  sz002594: { industry: '汽车零部件', concepts: ['新能源车', '锂电池', '汽车芯片'], lines: [{ name: '新能源汽车及相关产品', ratio: 0.7734 }, { name: '手机部件及组装', ratio: 0.2241 }, { name: '其他业务', ratio: 0.0025 }] },
  sh688981: { industry: '半导体', concepts: ['半导体概念', '国产芯片', '华为概念'], lines: [{ name: '晶圆代工', ratio: 0.9412 }, { name: '其他业务', ratio: 0.0588 }] },
  sh600900: { industry: '电力行业', concepts: ['绿色电力', '抽水蓄能'], lines: [{ name: '水力发电', ratio: 0.9521 }, { name: '其他业务', ratio: 0.0479 }] },
  sh600036: { industry: '银行', concepts: ['金融科技'], lines: [{ name: '公司贷款', ratio: 0.41 }, { name: '个人贷款', ratio: 0.37 }, { name: '理财及手续费', ratio: 0.22 }] },
  sh601398: { industry: '银行', concepts: [], lines: [{ name: '公司贷款', ratio: 0.52 }, { name: '个人贷款', ratio: 0.31 }, { name: '理财及手续费', ratio: 0.17 }] },
  sz000001: { industry: '银行', concepts: ['金融科技', '数字货币'], lines: [{ name: '公司贷款', ratio: 0.38 }, { name: '个人贷款', ratio: 0.44 }, { name: '理财及手续费', ratio: 0.18 }] },
  sh601318: { industry: '保险', concepts: ['金融科技'], lines: [{ name: '寿险及健康险', ratio: 0.56 }, { name: '财险', ratio: 0.26 }, { name: '银行业务', ratio: 0.13 }, { name: '资管业务', ratio: 0.05 }] },
  bj830799: { industry: '软件开发', concepts: ['金融科技', '信创'], lines: [{ name: '银行IT解决方案', ratio: 0.64 }, { name: '行业软件', ratio: 0.36 }] },
}

/** True for the stocks that have boards and a composition: A-shares. */
export const hasBusiness = (inst: EmuInstrument) => inst.kind === 'stock' && inst.board !== undefined

// Purpose tags local to this file.
const S = { nConcepts: 2, concept: 3, product: 4, weight: 5, region: 6 } as const

interface Business {
  industry: BusinessBoard
  concepts: BusinessBoard[]
  lines: Line[]
}

const memo = new Map<string, Business>()

function build(inst: EmuInstrument): Business {
  const real = REAL_BUSINESS[inst.code]
  if (real) return { industry: BY_NAME.get(real.industry)!, concepts: real.concepts.map((n) => BY_NAME.get(n)!).filter(Boolean), lines: real.lines }
  const seed = hashString('business:' + inst.code)
  // The one industry assignment of the market (industries.ts), which the valuation reports use too.
  const industry = BY_CODE.get('BK' + industryOf(inst)!)!
  const concepts: BusinessBoard[] = []
  const want = 2 + pickIndex(seed, 3, S.nConcepts)
  for (let k = 0; concepts.length < want && k < 20; k++) {
    const c = CONCEPTS[pickIndex(seed, CONCEPTS.length, S.concept, k)]
    if (!concepts.includes(c)) concepts.push(c)
  }
  // Product lines: one from the industry, one or two from each concept; weights decide shares.
  const names: string[] = []
  const add = (b: BusinessBoard, k: number) => {
    const p = b.products[pickIndex(seed, b.products.length, S.product, k)]
    if (!names.includes(p)) names.push(p)
  }
  add(industry, 0)
  concepts.forEach((c, i) => {
    add(c, 10 + i)
    if (uniform(seed, S.product, 20 + i) < 0.5) add(c, 30 + i)
  })
  const weights = names.map((_, i) => 0.2 + uniform(seed, S.weight, i) * (i === 0 ? 2 : 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const lines = names.map((name, i) => ({ name, ratio: weights[i] / total }))
  if (uniform(seed, S.weight, 99) < 0.4) {
    // Some companies report a small "other" line.
    const other = 0.01 + 0.04 * uniform(seed, S.weight, 98)
    lines.forEach((l) => (l.ratio *= 1 - other))
    lines.push({ name: '其他业务', ratio: other })
  }
  return { industry, concepts, lines }
}

function businessOf(inst: EmuInstrument): Business {
  let b = memo.get(cacheKeyOf(inst))
  if (!b) memo.set(cacheKeyOf(inst), (b = build(inst)))
  return b
}

/** The boards a stock belongs to: its industry board first, then its concept boards. */
export function boardsOf(inst: EmuInstrument): BusinessBoard[] {
  if (!hasBusiness(inst)) return []
  const b = businessOf(inst)
  return [b.industry, ...b.concepts]
}

/** Whether the stock is a member of the board with `BK` code `code`. */
export function inBoard(inst: EmuInstrument, code: string): boolean {
  return boardsOf(inst).some((b) => b.code === code)
}

/** One row of a composition, money in CNY, ratios as fractions. */
export interface CompositionItem {
  name: string
  income: number
  ratio: number
  cost: number
}

export interface Composition {
  /** The annual report period it splits, `YYYY-12-31`. */
  reportDate: string
  /** By product (MAINOP_TYPE 2), largest first; incomes sum to the report's revenue. */
  products: CompositionItem[]
  /** By industry (MAINOP_TYPE 1): one row, the industry board's name. */
  industries: CompositionItem[]
  /** By region (MAINOP_TYPE 3): 境内 and, for exporters, 境外. */
  regions: CompositionItem[]
}

const cents = (x: number) => Math.round(x * 100) / 100
const round4 = (x: number) => Math.round(x * 1e4) / 1e4

/** Splits `income` and `cost` by `lines` so the parts sum exactly to the whole (last part takes the rest). */
function splitBy(lines: readonly Line[], income: number, cost: number): CompositionItem[] {
  let restI = income
  let restC = cost
  return lines.map((l, i) => {
    const last = i === lines.length - 1
    const inc = last ? cents(restI) : cents(income * l.ratio)
    const cst = last ? cents(restC) : cents(cost * l.ratio)
    restI -= inc
    restC -= cst
    return { name: l.name, income: inc, ratio: round4(l.ratio), cost: cst }
  })
}

/**
 * The composition of the latest annual report published by `now`, or null when the company has
 * published none yet (a new listing) or is not an A-share stock.
 */
export function compositionOf(market: MarketModel, inst: EmuInstrument, now: number): Composition | null {
  if (!hasBusiness(inst) || !hasFundamentals(inst)) return null
  const year = +beijing(now).date.slice(0, 4)
  for (const y of [year - 1, year - 2]) {
    const report = financialReport(market, inst, `${y}-12-31`, now)
    if (!report) continue
    const { revenue, operatingCost } = report.income
    if (!(revenue > 0)) return null
    const b = businessOf(inst)
    const lines = [...b.lines].sort((p, q) => q.ratio - p.ratio)
    const exportShare = uniform(hashString('business:' + inst.code), S.region) < 0.5 ? 0 : 0.05 + 0.4 * uniform(hashString('business:' + inst.code), S.region, 1)
    const regions: Line[] = exportShare ? [{ name: '境内', ratio: 1 - exportShare }, { name: '境外', ratio: exportShare }] : [{ name: '境内', ratio: 1 }]
    return {
      reportDate: `${y}-12-31`,
      products: splitBy(lines, revenue, operatingCost),
      industries: splitBy([{ name: b.industry.name, ratio: 1 }], revenue, operatingCost),
      regions: splitBy(regions, revenue, operatingCost),
    }
  }
  return null
}

/** The company survey (公司概况) text fields. */
export interface CompanyProfile {
  orgName: string
  industry: string
  /** 公司简介. */
  profile: string
  /** 经营范围. */
  scope: string
}

/** A profile that says what the company makes, in the words of its product lines. */
export function companyProfileOf(inst: EmuInstrument): CompanyProfile | null {
  if (!hasBusiness(inst)) return null
  const b = businessOf(inst)
  const made = b.lines.filter((l) => l.name !== '其他业务').map((l) => l.name)
  const base = inst.name.replace(/^\*?ST/, '')
  return {
    orgName: `${base}股份有限公司`,
    industry: b.industry.name,
    profile: `${base}股份有限公司主要从事${made.join('、')}的研发、生产和销售，所属行业为${b.industry.name}。`,
    scope: `${made.join('、')}的研发、生产、销售；技术咨询与技术服务；货物及技术进出口。`,
  }
}

/**
 * Who holds a stock, per quarterly report: the top ten holders, the top ten holders of float
 * shares, and the number of holders. Deterministic per stock and period; consistent with the
 * stock's shares (the ten hold less than all shares, float holdings less than the float) and
 * with its prices (market caps from the close on the period end). Pure.
 */
import { addDays } from '../../domain/dates'
import { hashString, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'

/** One holder in one period. */
export interface Holding {
  rank: number
  name: string
  /** 个人, 其他, 证券投资基金, … as Eastmoney classifies holders. */
  type: string
  shares: number
  /** Percent of total shares (top ten) or of float shares (float top ten). */
  ratio: number
  /** Shares more (+) or fewer (−) than the previous period; null for a holder new to the list. */
  change: number | null
  changeName: '新进' | '增加' | '减少' | '不变'
}

/** The holder count at one period end. */
export interface HolderCount {
  end: string
  holders: number
  /** Total A shares / holders, as Eastmoney's AVG_HOLD_NUM. */
  avgShares: number
  /** Close × total shares at the period end, CNY. */
  marketCap: number
  close: number
}

const SALT_HOLDERS = 0x5e11
const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'] as const
/** Days from a period end to its report: Q1 and Q3 reports come fast, the annual one last. */
const REPORT_LAG: Record<string, number> = { '03-31': 25, '06-30': 55, '09-30': 25, '12-31': 105 }

/** The date a period's holders are published. */
export const holderNoticeDate = (end: string) => addDays(end, REPORT_LAG[end.slice(5)])

/** Period ends whose report is out by `today`, newest first, from the first full quarter after listing. */
export const holderPeriods = (inst: EmuInstrument, today: string): string[] => reportedPeriods(inst, today, QUARTER_ENDS, holderNoticeDate)

/** Period ends (`MM-DD` of each year in `ends`) after listing whose report, out on `notice(end)`, is out by `today`; newest first. */
export function reportedPeriods(inst: EmuInstrument, today: string, ends: readonly string[], notice: (end: string) => string): string[] {
  const out: string[] = []
  for (let y = Number(today.slice(0, 4)); y >= Number(inst.listDate.slice(0, 4)); y--) {
    for (const q of [...ends].reverse()) {
      const end = `${y}-${q}`
      if (end > inst.listDate && notice(end) <= today) out.push(end)
    }
  }
  return out
}

const STATE_HOLDERS = ['中国证券金融股份有限公司', '中央汇金资产管理有限责任公司', '香港中央结算有限公司']
const FUNDS = [
  '全国社保基金一一八组合', '全国社保基金一零三组合', '易方达蓝筹精选混合型证券投资基金', '华夏上证50交易型开放式指数证券投资基金',
  '华泰柏瑞沪深300交易型开放式指数证券投资基金', '招商中证白酒指数证券投资基金', '中国人寿保险股份有限公司－传统－普通保险产品',
  '基本养老保险基金一二零二组合', '南方中证500交易型开放式指数证券投资基金', '兴全趋势投资混合型证券投资基金',
  '中欧医疗健康混合型证券投资基金', '景顺长城新兴成长混合型证券投资基金', '广发稳健增长混合型证券投资基金',
]
const PEOPLE = ['张建国', '李秀英', '王志强', '刘海燕', '陈伟', '杨明']

const periodIndex = (end: string) => Number(end.slice(0, 4)) * 4 + QUARTER_ENDS.indexOf(end.slice(5) as (typeof QUARTER_ENDS)[number])
const periodBefore = (end: string) => {
  const i = periodIndex(end) - 1
  return `${Math.floor(i / 4)}-${QUARTER_ENDS[i % 4]}`
}

interface Raw {
  name: string
  type: string
  fraction: number
}

/** The ten holders of a period as fractions of total shares, largest first. */
function rawTopTen(inst: EmuInstrument, end: string): Raw[] {
  const seed = hashString(inst.code) ^ SALT_HOLDERS
  const p = periodIndex(end)
  const controller = { name: `${inst.name.replace(/\s/g, '')}集团有限公司`, type: '其他', fraction: 0.2 + 0.4 * uniform(seed, 1) }
  const list: Raw[] = [controller]
  // Three long-term holders, then six that rotate from period to period.
  STATE_HOLDERS.forEach((name, k) => list.push({ name, type: '其他', fraction: (0.005 + 0.03 * uniform(seed, 2, k)) * (0.9 + 0.2 * uniform(seed, 3, k, p)) }))
  const pool = [...FUNDS.map((name) => ({ name, type: '证券投资基金' })), ...PEOPLE.map((name) => ({ name, type: '个人' }))]
  const start = Math.floor(uniform(seed, 4, Math.floor(p / 3)) * pool.length)
  const taken = new Set<string>()
  for (let k = 0, i = start; k < 6; i++) {
    // Four slots change slowly (every three periods), two every period.
    const h = pool[(i + (k >= 4 ? p : 0)) % pool.length]
    if (taken.has(h.name)) continue
    taken.add(h.name)
    list.push({ ...h, fraction: (0.001 + 0.008 * uniform(seed, 5, k)) * (0.8 + 0.4 * uniform(seed, 6, k, p)) })
    k++
  }
  return list.sort((a, b) => b.fraction - a.fraction)
}

function ranked(now: Raw[], before: Raw[], base: number, scale: number): Holding[] {
  const prev = new Map(before.map((h) => [h.name, Math.round(h.fraction * base * scale)]))
  return now.map((h, k) => {
    const shares = Math.round(h.fraction * base * scale)
    const was = prev.get(h.name)
    const change = was === undefined ? null : shares - was
    return {
      rank: k + 1,
      name: h.name,
      type: h.type,
      shares,
      ratio: Math.round((shares / base) * 1e6) / 1e4,
      change,
      changeName: change === null ? '新进' : change > 0 ? '增加' : change < 0 ? '减少' : '不变',
    }
  })
}

/** Top ten holders of all shares at `end`. */
export function topHolders(inst: EmuInstrument, end: string): Holding[] {
  return ranked(rawTopTen(inst, end), rawTopTen(inst, periodBefore(end)), inst.totalShares ?? 0, 1)
}

/**
 * Top ten holders of float shares at `end`: the same holders, each with the float part of its
 * holding (restricted shares in proportion to the stock's), ratios against the float.
 */
export function topFloatHolders(inst: EmuInstrument, end: string): Holding[] {
  const float = inst.floatShares ?? 0
  const total = inst.totalShares ?? 0
  return ranked(rawTopTen(inst, end), rawTopTen(inst, periodBefore(end)), float, total > 0 ? 1 : 0)
}

/** Holder count at `end`, with the close that day (the last session on or before it); null before the first bar. */
export function holderCount(market: MarketModel, inst: EmuInstrument, end: string, now: number): HolderCount | null {
  const bars = market.dailyBars(inst, addDays(end, -20), end, now)
  const last = bars.at(-1)
  if (!last || !inst.totalShares || !inst.floatShares) return null
  const seed = hashString(inst.code) ^ SALT_HOLDERS
  // A typical holder keeps a few thousand to a few tens of thousands of float shares; it drifts by period.
  const perHolder = (3_000 + 27_000 * uniform(seed, 7)) * (0.85 + 0.3 * uniform(seed, 8, periodIndex(end)))
  const holders = Math.max(100, Math.round(inst.floatShares / perHolder))
  return {
    end,
    holders,
    avgShares: Math.round((inst.totalShares / holders) * 100) / 100,
    marketCap: Math.round(last.close * inst.totalShares * 100) / 100,
    close: last.close,
  }
}

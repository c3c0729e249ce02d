/**
 * A stock's company calendar (Eastmoney 股市日历·公司动态, `RPT_ORGOP_ALL`): the events the model
 * already knows, told again as dated entries. Distribution plans and their dates come from the
 * corporate actions (dividend-plans.ts), periodic reports from the shareholder reports' publication
 * dates, suspensions from the days the stock has no bar. Nothing else is made up. Pure.
 */
import { addDays } from '../../domain/dates'
import { tradingDaysBetween } from '../../domain/trading-calendar'
import { planDates, planStage } from './dividend-plans'
import { holderNoticeDate, holderPeriods } from './shareholders'
import type { CorporateAction, EmuInstrument, MarketModel } from './types'

export interface CompanyEvent {
  date: string
  /** Eastmoney's EVENT_TYPE word. */
  type: string
  content: string
}

/** How far ahead scheduled report dates are listed. */
const REPORT_LOOKAHEAD_DAYS = 90
const PERIOD_NAME: Record<string, string> = { '03-31': '一季报', '06-30': '中报', '09-30': '三季报', '12-31': '年报' }

const plan = (a: CorporateAction) => {
  const cash = a.cash > 0 ? `派${Math.round(a.cash * 10 * 1e4) / 1e4}元(含税)` : ''
  const bonus = a.bonus > 0 ? `送${Math.round(a.bonus * 10 * 1e4) / 1e4}股` : ''
  return `10${bonus}${cash}`
}

function distributionEvents(market: MarketModel, inst: EmuInstrument, today: string): CompanyEvent[] {
  const out: CompanyEvent[] = []
  for (const a of market.actions(inst)) {
    const d = planDates(a)
    const stage = planStage(d, today)
    if (!stage) continue
    out.push({ date: d.planNotice, type: '分配预案', content: `董事会提议利润分配方案：${plan(a)}` })
    if (stage === 'proposed') continue
    out.push({ date: d.approval, type: '股东大会', content: `股东大会审议通过利润分配方案：${plan(a)}` })
    if (stage === 'approved') continue
    out.push({ date: d.record, type: '股权登记', content: `${plan(a)}，股权登记日` })
    out.push({ date: d.ex, type: '除权除息', content: `${plan(a)}，除权除息日` })
  }
  return out
}

function reportEvents(inst: EmuInstrument, today: string): CompanyEvent[] {
  const ahead = addDays(today, REPORT_LOOKAHEAD_DAYS)
  return holderPeriods(inst, ahead).map((end) => ({
    date: holderNoticeDate(end),
    type: '业绩披露',
    content: `${holderNoticeDate(end) <= today ? '披露' : '预约披露'}${end.slice(0, 4)}${PERIOD_NAME[end.slice(5)]}`,
  }))
}

/** A suspension per run of trading days without a bar, and the resumption on the next bar, from `from` on. */
function suspensionEvents(market: MarketModel, inst: EmuInstrument, from: string, today: string, now: number): CompanyEvent[] {
  const start = from > inst.listDate ? from : inst.listDate
  if (start > today) return []
  const traded = new Set(market.dailyBars(inst, start, today, now).map((b) => b.date))
  const out: CompanyEvent[] = []
  let runStart: string | null = null
  for (const day of tradingDaysBetween(start, today)) {
    if (!traded.has(day)) {
      runStart ??= day
      continue
    }
    if (runStart) {
      out.push({ date: runStart, type: '停牌', content: '因重要事项停牌' })
      out.push({ date: day, type: '复牌', content: '复牌' })
      runStart = null
    }
  }
  if (runStart && runStart < today) out.push({ date: runStart, type: '停牌', content: '因重要事项停牌' })
  return out
}

/**
 * Events of one stock dated from `from` on and known by the clock's date `today` (scheduled
 * report dates up to 90 days ahead included), in date order.
 */
export function companyEvents(market: MarketModel, inst: EmuInstrument, from: string, today: string, now: number): CompanyEvent[] {
  if (inst.kind !== 'stock') return []
  return [...distributionEvents(market, inst, today), ...reportEvents(inst, today), ...suspensionEvents(market, inst, from, today, now)]
    .filter((e) => e.date >= from)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
}

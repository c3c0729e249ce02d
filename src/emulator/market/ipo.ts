/**
 * New listings of the simulated market: every A-share stock of the Shanghai or Shenzhen exchange
 * has an IPO whose listing day is its `listDate`, so an IPO the calendar shows becomes a listed
 * stock with its first bar that very day. Dates and sizes are drawn from the code; the issue price
 * is set below the first day's open (new shares mostly open above it).
 */
import { dayNumber } from '../../domain/dates'
import { addTradingDays } from './trading-days'
import { hashString, uniform } from './random'
import type { EmuInstrument, MarketModel } from './types'

/** Salts of this module's draws (kept apart from random.ts's table). */
const SALT_IPO = { premium: 901, size: 902, online: 903, rate: 904, pe: 905, lead: 906 } as const

export interface IpoPlan {
  inst: EmuInstrument
  /** Prospectus and issue announcement: the IPO becomes public. */
  announceDate: string
  /** The price is fixed the trading day before subscription. */
  pricingDate: string
  /** Online subscription day (T). */
  applyDate: string
  /** Winning numbers published and payment due (T+2). */
  ballotDate: string
  /** The listing is announced three trading days ahead. */
  listingNoticeDate: string
  listDate: string
  /** CNY per share. */
  issuePrice: number
  /** Shares issued in total and online. */
  issueShares: number
  onlineShares: number
  /** Most shares one account may subscribe online. */
  applyLimit: number
  /** Online winning rate in percent. */
  winningRate: number
  /** Issue price over earnings per share. */
  issuePe: number
  /** The first day's bar: open and close (CNY). */
  firstOpen: number
  firstClose: number
}

/** Exchange-listed stocks (Beijing's new shares come through another report). */
const isCandidate = (i: EmuInstrument) => i.kind === 'stock' && (i.prefix === 'sh' || i.prefix === 'sz')

const round2 = (x: number) => Math.round(x * 100) / 100

/** The IPO of a stock, or undefined when it has none in the model (not a candidate, or no bar on its listing day). */
export function ipoPlan(market: MarketModel, inst: EmuInstrument): IpoPlan | undefined {
  if (!isCandidate(inst)) return undefined
  const endOfDay = Date.parse(`${inst.listDate}T15:30:00+08:00`)
  const first = market.dailyBars(inst, inst.listDate, inst.listDate, endOfDay)[0]
  if (!first || first.date !== inst.listDate) return undefined
  const seed = hashString('ipo:' + inst.code)
  const listDate = inst.listDate
  const applyDate = addTradingDays(listDate, -(7 + Math.floor(3 * uniform(seed, SALT_IPO.lead))))
  const issuePrice = round2(first.open / (1.3 + 1.5 * uniform(seed, SALT_IPO.premium)))
  const issueShares = Math.max(1e7, Math.round((inst.totalShares! * (0.1 + 0.15 * uniform(seed, SALT_IPO.size))) / 1e4) * 1e4)
  const onlineShares = Math.round((issueShares * (0.25 + 0.1 * uniform(seed, SALT_IPO.online))) / 500) * 500
  return {
    inst,
    announceDate: addTradingDays(applyDate, -4),
    pricingDate: addTradingDays(applyDate, -1),
    applyDate,
    ballotDate: addTradingDays(applyDate, 2),
    listingNoticeDate: addTradingDays(listDate, -3),
    listDate,
    issuePrice,
    issueShares,
    onlineShares,
    // One thousandth of the online tranche, in board lots of 500 shares.
    applyLimit: Math.max(500, Math.floor(onlineShares / 1000 / 500) * 500),
    // A-share online subscriptions are oversubscribed thousands of times: a few hundredths of a percent win.
    winningRate: Math.round((0.015 + 0.06 * uniform(seed, SALT_IPO.rate)) * 1e4) / 1e4,
    issuePe: round2(12 + 30 * uniform(seed, SALT_IPO.pe)),
    firstOpen: first.open,
    firstClose: first.close,
  }
}

/**
 * The IPOs announced by `today` whose subscription is on or after `from`, by subscription date.
 * Candidates are the stocks listing within the window the lead times allow.
 */
export function ipoPlans(market: MarketModel, from: string, today: string): IpoPlan[] {
  // Listing follows subscription by at most ten trading days, and announcement precedes it by four.
  const lo = dayNumber(from)
  const hi = dayNumber(today) + 30
  const out: IpoPlan[] = []
  for (const inst of market.instruments()) {
    if (!isCandidate(inst)) continue
    const d = dayNumber(inst.listDate)
    if (d < lo || d > hi) continue
    const plan = ipoPlan(market, inst)
    if (plan && plan.applyDate >= from && plan.announceDate <= today) out.push(plan)
  }
  return out.sort((a, b) => (a.applyDate < b.applyDate ? -1 : a.applyDate > b.applyDate ? 1 : a.inst.code < b.inst.code ? -1 : 1))
}



/**
 * One month of daily bars for one instrument, from its two anchors alone. The walk's daily
 * log-returns are r = w·(μ + s·z) with z bounded and centred, so they sum exactly to the anchor
 * step and |r| stays within LIMIT_SHARE of the limit by construction; a few days per month may be
 * fixed 涨停/跌停 days instead. Raw prices are walk × the cumulative action factor, so they drop
 * on ex-dates by exactly the exchange's reference-price rule.
 */
import { dateOf, monthDays, monthStartDay } from './calendars'
import { eventSpecs, specInMonth } from './events'
import { liquidity } from './futures'
import { limitOn, limitPrices, roundTo } from './limits'
import type { Profile } from './profiles'
import { bnorm, SALT, uniform } from './random'
import { sessionFor } from './sessions'
import { checkpoints, skeletonAverage } from './skeleton'
import { isSuspended } from './suspensions'
import type { EmuInstrument } from './types'
import { anchors, monthBound } from './walk'

/** An action as it happened: cash fixed from the close before the ex-date, and its factor k. */
export interface ComputedAction {
  exDate: string
  exDay: number
  cash: number
  bonus: number
  /** ((P − cash) / (1 + bonus)) / P, P = raw close of the bar before the ex-date. */
  k: number
}

/** A month of raw daily bars in columns (compact: the cache holds thousands of these). */
export interface MonthBars {
  n: number
  day: Int32Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  pre: Float64Array
  volume: Float64Array
  amount: Float64Array
  /** Percent of float shares; null for kinds without it. */
  turnover: Float64Array | null
  /** The action whose ex-date falls in this month. */
  action: ComputedAction | null
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))

// Scratch space reused by every call (computeMonth is synchronous and never re-entered).
const MAX_DAYS = 32
const susp = new Uint8Array(MAX_DAYS)
const half = new Uint8Array(MAX_DAYS)
const fixed = new Float64Array(MAX_DAYS)
const z = new Float64Array(MAX_DAYS)
const walk = new Float64Array(MAX_DAYS + 1)

/**
 * Bars of month `m`. `factor` is the product of k over actions with ex-dates before the month;
 * an action inside the month is applied here and reported in `action`.
 */
export function computeMonth(inst: EmuInstrument, p: Profile, m: number, factor: number): MonthBars {
  const days = monthDays(p.calendar, m)
  const n = days.length
  const A = anchors(inst, p)
  const a0 = A[m]
  const a1 = A[m + 1]
  const B = monthBound(inst, days)
  const spec = specInMonth(eventSpecs(inst, p), days[0], monthStartDay(m + 1))
  const seed = p.seed

  // Suspended days and the day after are half-weight: the two-day gap must fit one limit.
  susp.fill(0)
  half.fill(0)
  fixed.fill(0)
  for (let i = 0; i < n; i++) {
    if (isSuspended(p, days[i], days)) {
      susp[i] = 1
      half[i] = 1
      if (i + 1 < n) half[i + 1] = 1
    }
  }

  // Limit days: never the month's last day (it carries the anchor), an ex-date or a half day.
  let nFixed = 0
  let fixedSum = 0
  if (p.limitProb > 0 && inst.limit !== null) {
    const bias = 0.3 * Math.sign(a1 - a0)
    for (let i = 0; i < n - 1 && nFixed < 2; i++) {
      const d = days[i]
      if (half[i] || d === spec?.exDay || d <= p.firstDay || d > p.lastDay) continue
      if (uniform(seed, SALT.limitDay, d) >= p.limitProb) continue
      const l = limitOn(inst, d)!
      fixed[i] = Math.log(uniform(seed, SALT.limitDir, d) < 0.5 + bias ? 1 + l : 1 - l)
      fixedSum += fixed[i]
      nFixed++
    }
  }
  let W = 0
  const weight = (i: number) => (fixed[i] !== 0 ? 0 : half[i] ? 0.5 : 1)
  for (let i = 0; i < n; i++) W += weight(i)
  if (nFixed && Math.abs(a1 - a0 - fixedSum) / W > 0.7 * B) {
    // The month cannot absorb its limit days: drop them.
    fixed.fill(0)
    fixedSum = 0
    W = 0
    for (let i = 0; i < n; i++) W += weight(i)
  }

  // The bridge: centred bounded noise around the mean step.
  const mu = (a1 - a0 - fixedSum) / W
  let zMean = 0
  for (let i = 0; i < n; i++) {
    z[i] = bnorm(seed, SALT.day, days[i])
    zMean += weight(i) * z[i]
  }
  zMean /= W
  let zMax = 1e-9
  for (let i = 0; i < n; i++) if (weight(i) > 0) zMax = Math.max(zMax, Math.abs(z[i] - zMean))
  const s = Math.min(p.daily, Math.max(0, (B - Math.abs(mu)) / zMax))
  walk[0] = a0
  for (let i = 0; i < n; i++) walk[i + 1] = walk[i] + (fixed[i] !== 0 ? fixed[i] : weight(i) * (mu + s * (z[i] - zMean)))
  walk[n] = a1

  // Bars are counted first so the block gets one exactly-sized buffer.
  let bars = 0
  for (let i = 0; i < n; i++) if (!susp[i] && days[i] >= p.firstDay && days[i] <= p.lastDay) bars++
  const buf = new Float64Array(bars * 8)
  const col = (k: number) => buf.subarray(k * bars, (k + 1) * bars)
  const out: MonthBars = {
    n: 0,
    day: new Int32Array(bars),
    open: col(0),
    high: col(1),
    low: col(2),
    close: col(3),
    pre: col(4),
    volume: col(5),
    amount: col(6),
    turnover: inst.floatShares ? col(7) : null,
    action: null,
  }
  const dec = inst.decimals
  const minutes = sessionFor(inst.kind).minutes
  let last = roundTo(Math.exp(a0) * factor, dec)
  for (let i = 0; i < n; i++) {
    if (susp[i]) continue
    const d = days[i]
    let pre = last
    if (spec && d === spec.exDay) {
      const P = last
      const cash = spec.yield > 0 ? Math.max(0.01, roundTo(spec.yield * P, 2)) : 0
      const ref = (P - cash) / (1 + spec.bonus)
      factor *= ref / P
      pre = roundTo(ref, dec)
      out.action = { exDate: dateOf(d), exDay: d, cash, bonus: spec.bonus, k: ref / P }
    }
    const prev = walk[i]
    const c = walk[i + 1]
    let close = roundTo(Math.exp(c) * factor, dec)
    if (d < p.firstDay || d > p.lastDay) {
      last = close
      continue
    }

    // Open, high and low in walk space, inside the day's bound around the previous walk close.
    const r = c - prev
    const lim = fixed[i] !== 0 ? Math.log(1 + limitOn(inst, d)!) : half[i] ? B / 2 : B
    const loB = fixed[i] < 0 ? fixed[i] : -lim
    const hiB = fixed[i] > 0 ? fixed[i] : lim
    const sd = Math.max(s, p.daily * 0.2)
    const o = prev + clamp(0.3 * r + 0.5 * sd * bnorm(seed, SALT.open, d), loB, hiB)
    const h = Math.min(Math.max(o, c) + 0.5 * sd * Math.abs(bnorm(seed, SALT.high, d)), prev + hiB)
    const l = Math.max(Math.min(o, c) - 0.5 * sd * Math.abs(bnorm(seed, SALT.low, d)), prev + loB)
    let open = roundTo(Math.exp(o) * factor, dec)
    let high = roundTo(Math.exp(h) * factor, dec)
    let low = roundTo(Math.exp(l) * factor, dec)

    const limit = limitOn(inst, d)
    if (limit !== null) {
      // Rounding can nudge a price a tick past the limit; the exchange would not print it.
      const [dn, up] = limitPrices(pre, limit, dec)
      open = clamp(open, dn, up)
      high = clamp(high, dn, up)
      low = clamp(low, dn, up)
      close = clamp(close, dn, up)
      if (fixed[i] > 0) close = high = up
      if (fixed[i] < 0) close = low = dn
    }

    const ret = Math.abs(Math.log(close / pre))
    let volume = 0
    let amount = 0
    const zv = bnorm(seed, SALT.volume, d)
    if (p.volumeMode !== 'none') {
      // The day's average price follows its intraday skeleton (see skeleton.ts), give or take a little.
      const cps = checkpoints(seed, d, minutes, open, high, low, close)
      const vwap = clamp(skeletonAverage(cps) + 0.03 * (high - low) * bnorm(seed, SALT.vwap, d), low, high)
      if (p.volumeMode === 'float') {
        // Stocks rarely turn over more than ~12% a day; convertible bonds routinely do.
        const t = clamp(p.volBase * Math.exp(0.35 * zv) * (1 + 6 * ret) * (fixed[i] > 0 ? 0.6 : 1), 0.1, Math.max(12, 3 * p.volBase))
        volume = Math.max(p.lot, Math.round((inst.floatShares! * t) / 100 / p.lot) * p.lot)
        amount = roundTo(volume * vwap, 2)
      } else if (p.volumeMode === 'contracts') {
        const toDelivery = p.delivery - m - i / n
        volume = Math.max(1, Math.round(p.volBase * liquidity(toDelivery) * Math.exp(0.4 * zv) * (1 + 4 * ret)))
        amount = roundTo(volume * vwap, 2)
      } else {
        volume = Math.max(p.lot, Math.round((p.volBase * Math.exp(0.25 * zv) * (1 + 4 * ret)) / p.lot) * p.lot)
        amount = roundTo(volume * p.amountPx * Math.exp(0.08 * bnorm(seed, SALT.amountPx, d)), 2)
      }
    }

    const k = out.n++
    out.day[k] = d
    out.open[k] = open
    out.high[k] = high
    out.low[k] = low
    out.close[k] = close
    out.pre[k] = pre
    out.volume[k] = volume
    out.amount[k] = amount
    if (out.turnover) out.turnover[k] = roundTo((volume / inst.floatShares!) * 100, 4)
    last = close
  }
  return out
}

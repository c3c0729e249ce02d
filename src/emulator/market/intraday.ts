/**
 * Minute bars, derived from the daily bar (the daily bar is the source of truth): a path from
 * the open through the day's high and low to the close, a U-shaped volume profile that sums
 * exactly to the daily volume, and amounts that sum to the daily amount with every minute's
 * average price inside its own bar.
 */
import { dateOf } from './calendars'
import type { MonthBars } from './daily'
import { findBar } from './history'
import { roundTo } from './limits'
import { Lru } from './lru'
import { bnorm, hash, SALT } from './random'
import { hhmm, minuteEnds, sessionFor } from './sessions'
import { checkpoints } from './skeleton'
import type { EmuInstrument, RawBar } from './types'
import { cacheKeyOf, profileOf } from './universe'

/** One day's one-minute bars in columns; `ends` are end minutes of the exchange day. */
export interface MinuteDay {
  n: number
  ends: Int16Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  volume: Float64Array
  amount: Float64Array
  /**
   * The running aggregate of the first `j` minutes, as the day's last partial bar asked for it. Every
   * quote of an instant asks for the same minutes, and the next instant for a few more, so a live
   * quote extends this by the minutes since instead of adding up the day again.
   */
  upTo?: MinutesSoFar
}

/** The aggregate of minutes [0, j) of a day, added in minute order (so equal to {@link aggregate}'s). */
interface MinutesSoFar {
  j: number
  high: number
  low: number
  volume: number
  amount: number
}

/**
 * Room for every stock's day: a whole-market list in a session quotes each stock's bar as it stands,
 * and a smaller cache was emptied by every walk of the list (56 pages), so each walk rebuilt every
 * stock's minutes. About 13 KB a day, so 80 MB at most, in the emulator only.
 */
const cache = new Lru<string, MinuteDay>(6000)

/** The one-minute bars of the daily bar `i` of `block`. */
export function minuteDay(inst: EmuInstrument, block: MonthBars, i: number): MinuteDay {
  const day = block.day[i]
  const key = cacheKeyOf(inst) + day
  let md = cache.get(key)
  if (!md) {
    md = buildMinutes(inst, block, i)
    cache.set(key, md)
  }
  return md
}

function buildMinutes(inst: EmuInstrument, block: MonthBars, bi: number): MinuteDay {
  const p = profileOf(inst)
  const s = sessionFor(inst.kind)
  const N = s.minutes
  const day = block.day[bi]
  const O = block.open[bi]
  const H = block.high[bi]
  const L = block.low[bi]
  const C = block.close[bi]
  const V = block.volume[bi]
  const AMT = block.amount[bi]
  const dec = inst.decimals
  const tick = 10 ** -dec
  const seed = p.seed
  const md: MinuteDay = {
    n: N,
    ends: minuteEnds(s),
    open: new Float64Array(N),
    high: new Float64Array(N),
    low: new Float64Array(N),
    close: new Float64Array(N),
    volume: new Float64Array(N),
    amount: new Float64Array(N),
  }
  if (V > 0) allocateVolume(md, s.halves.length > 1 ? s.halves[0][1] - s.halves[0][0] : N, V, p.lot, seed, day)

  // Checkpoints: the open, the extremes not already at the open or close, the close.
  const cps = checkpoints(seed, day, N, O, H, L, C)

  // Brownian bridges between checkpoints, folded into [L, H].
  const x = new Float64Array(N + 1)
  const sigma = ((H - L) * 0.5) / Math.sqrt(N)
  for (let c = 0; c + 1 < cps.length; c++) {
    const [ta, va] = cps[c]
    const [tb, vb] = cps[c + 1]
    let w = 0
    const walk = new Float64Array(tb - ta + 1)
    for (let k = ta + 1; k <= tb; k++) walk[k - ta] = w += sigma * bnorm(seed, SALT.minute, day, k)
    const end = walk[tb - ta]
    for (let k = ta; k <= tb; k++) {
      const f = (k - ta) / (tb - ta)
      x[k] = fold(va + (vb - va) * f + walk[k - ta] - f * end, L, H)
    }
  }
  for (const [t, v] of cps) x[t] = v

  // Tilt the path so its volume-weighted average lands on the day's VWAP: a power map between
  // the fixed levels L, open, close, H keeps every checkpoint where it is.
  if (V > 0 && p.volumeMode !== 'index' && H > L) tilt(x, md.volume, AMT / V, [L, Math.min(O, C), Math.max(O, C), H])
  for (let k = 0; k <= N; k++) x[k] = roundTo(x[k], dec)
  for (const [t, v] of cps) x[t] = v

  for (let i = 0; i < N; i++) {
    const o = x[i]
    const c = x[i + 1]
    const wick = hash(seed, SALT.wick, day, i)
    md.open[i] = o
    md.close[i] = c
    md.high[i] = Math.min(H, roundTo(Math.max(o, c) + (wick % 3 === 0 ? tick : 0), dec))
    md.low[i] = Math.max(L, roundTo(Math.min(o, c) - ((wick >>> 2) % 3 === 0 ? tick : 0), dec))
  }
  if (V > 0) spreadAmount(md, p.volumeMode === 'index', V, AMT, L, H, dec)
  return md
}

/** The U shape of {@link allocateVolume} by session length and first afternoon minute: the same for every day of every instrument of a session. */
const volumeShapes = new Map<string, Float64Array>()

function volumeShape(N: number, afternoon: number): Float64Array {
  const key = `${N}:${afternoon}`
  let shape = volumeShapes.get(key)
  if (!shape) {
    shape = new Float64Array(N)
    for (let i = 0; i < N; i++) {
      let w = 1 + 2.2 * Math.exp(-i / 12) + 1.4 * Math.exp(-(N - 1 - i) / 18)
      if (i >= afternoon) w += 0.8 * Math.exp(-(i - afternoon) / 10)
      shape[i] = w
    }
    volumeShapes.set(key, shape)
  }
  return shape
}

/** U-shaped volume (busy open, busy close, a smaller rush after lunch) in whole lots, summing to V. */
function allocateVolume(md: MinuteDay, afternoon: number, V: number, lot: number, seed: number, day: number): void {
  const N = md.n
  const shape = volumeShape(N, afternoon)
  const weights = new Float64Array(N)
  let total = 0
  for (let i = 0; i < N; i++) {
    weights[i] = shape[i] * Math.exp(0.45 * bnorm(seed, SALT.minuteVolume, day, i))
    total += weights[i]
  }
  const lots = Math.round(V / lot)
  let cum = 0
  let prev = 0
  for (let i = 0; i < N; i++) {
    cum += weights[i]
    const upto = i === N - 1 ? lots : Math.round((lots * cum) / total)
    md.volume[i] = (upto - prev) * lot
    prev = upto
  }
}

/**
 * Maps the path through u ↦ u^γ inside each interval between consecutive `levels`, with γ chosen
 * (bisection on ln γ) so that Σ volume × minute mid / Σ volume ≈ `target`. Monotone in γ.
 */
function tilt(x: Float64Array, volume: Float64Array, target: number, levels: number[]): void {
  const N = volume.length
  const lv = [...new Set(levels)].sort((a, b) => a - b)
  // Per point: its interval's base and width, and its position u in [0, 1].
  const base = new Float64Array(N + 1)
  const width = new Float64Array(N + 1)
  const u = new Float64Array(N + 1)
  for (let k = 0; k <= N; k++) {
    let j = 0
    while (j < lv.length - 2 && x[k] > lv[j + 1]) j++
    base[k] = lv[j]
    width[k] = lv[j + 1] - lv[j]
    u[k] = width[k] > 0 ? Math.min(1, Math.max(0, (x[k] - lv[j]) / width[k])) : 0
  }
  let vol = 0
  for (let i = 0; i < N; i++) vol += volume[i]
  // u^γ as e^(γ ln u): the bisection evaluates it some 17 times a point, and Math.exp costs a
  // fraction of Math.pow. The two differ by an ulp at most, far below the tick the path is rounded to.
  const lnU = new Float64Array(N + 1)
  for (let k = 0; k <= N; k++) lnU[k] = Math.log(u[k])
  const avg = (g: number) => {
    let t = 0
    let prev = base[0] + width[0] * Math.exp(g * lnU[0])
    for (let i = 0; i < N; i++) {
      const next = base[i + 1] + width[i + 1] * Math.exp(g * lnU[i + 1])
      t += volume[i] * (prev + next)
      prev = next
    }
    return t / (2 * vol)
  }
  // Larger γ pulls every point down its interval, so avg falls as ln γ rises.
  // A bounded tilt: beyond it the path would hug the open or close; δ in spreadAmount takes the rest.
  let lo = -1
  let hi = 1
  if (avg(Math.exp(lo)) < target) hi = lo
  else if (avg(Math.exp(hi)) > target) lo = hi
  for (let it = 0; it < 30 && hi - lo > 1e-4; it++) {
    const mid = (lo + hi) / 2
    if (avg(Math.exp(mid)) > target) lo = mid
    else hi = mid
  }
  const g = Math.exp((lo + hi) / 2)
  for (let k = 0; k <= N; k++) x[k] = base[k] + width[k] * Math.exp(g * lnU[k])
}

/**
 * Splits the daily amount over the minutes. Index-like series: in proportion to volume. Traded
 * instruments: each minute at its mid shifted by a common δ (after the tilt, a fraction of a
 * tick) so the total matches; a minute's high/low widen to contain that price if needed.
 */
function spreadAmount(md: MinuteDay, proportional: boolean, V: number, AMT: number, L: number, H: number, dec: number): void {
  const N = md.n
  const px = new Float64Array(N)
  if (proportional) px.fill(AMT / V)
  else {
    const mid = new Float64Array(N)
    for (let i = 0; i < N; i++) mid[i] = (md.open[i] + md.close[i]) / 2
    const volume = md.volume
    let lo = L - H
    let hi = H - L
    for (let it = 0; it < 40; it++) {
      const d = (lo + hi) / 2
      // Summed inline with Math.min/max, which compile to branch-free instructions: a closure, or
      // comparisons that branch on where each minute falls, ran this loop three times slower.
      let total = 0
      for (let i = 0; i < N; i++) total += volume[i] * Math.min(H, Math.max(L, mid[i] + d))
      if (total < AMT) lo = d
      else hi = d
    }
    const d = (lo + hi) / 2
    for (let i = 0; i < N; i++) px[i] = Math.min(H, Math.max(L, mid[i] + d))
  }
  let sum = 0
  for (let i = 0; i < N; i++) sum += md.volume[i] * px[i]
  // Cumulative rounding to cents: each minute within a cent of volume × price, total exact.
  let cum = 0
  let prev = 0
  const f = 10 ** dec
  for (let i = 0; i < N; i++) {
    cum += md.volume[i] * px[i]
    const upto = i === N - 1 ? AMT : roundTo((AMT * cum) / sum, 2)
    md.amount[i] = roundTo(upto - prev, 2)
    prev = upto
    if (!proportional && md.volume[i] > 0) {
      md.high[i] = Math.max(md.high[i], Math.min(H, Math.ceil(px[i] * f - 1e-6) / f))
      md.low[i] = Math.min(md.low[i], Math.max(L, Math.floor(px[i] * f + 1e-6) / f))
    }
  }
}

/** Folds x into [lo, hi] by reflection: unlike clamping, a path near an extreme bounces off it instead of sticking. */
function fold(x: number, lo: number, hi: number): number {
  const r = hi - lo
  if (r <= 0) return lo
  let y = (x - lo) % (2 * r)
  if (y < 0) y += 2 * r
  return lo + (y > r ? 2 * r - y : y)
}

/** Aggregates minutes [from, to) of a day into one bar (`to` > `from`). */
function aggregate(inst: EmuInstrument, md: MinuteDay, from: number, to: number, date: string, preClose: number): RawBar {
  let high = -Infinity
  let low = Infinity
  let volume = 0
  let amount = 0
  for (let i = from; i < to; i++) {
    if (md.high[i] > high) high = md.high[i]
    if (md.low[i] < low) low = md.low[i]
    volume += md.volume[i]
    amount += md.amount[i]
  }
  return {
    date,
    open: md.open[from],
    high,
    low,
    close: md.close[to - 1],
    preClose,
    volume,
    amount: roundTo(amount, 2),
    turnover: inst.floatShares ? roundTo((volume / inst.floatShares) * 100, 4) : null,
  }
}

/**
 * The opening match of the day (09:25 for the auction kinds and indexes): a share of the first
 * minute's volume, in whole lots, traded at the open. The first one-minute bar (09:31) includes it,
 * as Eastmoney's and Tencent's first bars include the call auction's volume.
 */
export function openingMatch(inst: EmuInstrument, block: MonthBars, i: number): { volume: number; amount: number } {
  const md = minuteDay(inst, block, i)
  const p = profileOf(inst)
  const lots = Math.round(md.volume[0] / p.lot)
  const share = 0.3 + (hash(p.seed, SALT.auction, block.day[i]) % 40) / 100
  const volume = lots > 0 ? Math.max(1, Math.round(lots * share)) * p.lot : 0
  return { volume, amount: roundTo(volume * block.open[i], 2) }
}

/**
 * The day's bar as it stood at exchange minute `minute`: the aggregate of the minutes ended by
 * then. Before the first minute ends: the opening match when `matched` (volume and amount at the
 * open), else just the opening price with no volume.
 */
export function partialBar(inst: EmuInstrument, block: MonthBars, i: number, minute: number, matched = false): RawBar {
  const md = minuteDay(inst, block, i)
  const date = dateOf(block.day[i])
  const j = minutesEndedBy(md.ends, minute)
  if (j === 0) {
    const o = block.open[i]
    const { volume, amount } = matched ? openingMatch(inst, block, i) : { volume: 0, amount: 0 }
    const turnover = inst.floatShares ? roundTo((volume / inst.floatShares) * 100, 4) : null
    return { date, open: o, high: o, low: o, close: o, preClose: block.pre[i], volume, amount, turnover }
  }
  const so = minutesSoFar(md, j)
  return {
    date,
    open: md.open[0],
    high: so.high,
    low: so.low,
    close: md.close[j - 1],
    preClose: block.pre[i],
    volume: so.volume,
    amount: roundTo(so.amount, 2),
    turnover: inst.floatShares ? roundTo((so.volume / inst.floatShares) * 100, 4) : null,
  }
}

/** How many of the day's minutes (ascending `ends`) have ended by exchange minute `minute`. */
function minutesEndedBy(ends: Int16Array, minute: number): number {
  let lo = 0
  let hi = ends.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ends[mid] <= minute) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The aggregate of minutes [0, j), extending the day's running one when it stops at or before j. */
function minutesSoFar(md: MinuteDay, j: number): MinutesSoFar {
  let so = md.upTo
  if (!so || so.j > j) so = { j: 0, high: -Infinity, low: Infinity, volume: 0, amount: 0 }
  else if (so.j === j) return so
  else so = { ...so }
  for (let k = so.j; k < j; k++) {
    if (md.high[k] > so.high) so.high = md.high[k]
    if (md.low[k] < so.low) so.low = md.low[k]
    so.volume += md.volume[k]
    so.amount += md.amount[k]
  }
  so.j = j
  md.upTo = so
  return so
}

/** Allowed minute-bar lengths. */
export const MINUTE_LENGTHS = [1, 5, 15, 30, 60]

/**
 * Bars of `minutes` length for one day, ended by exchange minute `until` (Infinity: all).
 * Buckets never cross a session half: A-share 60-minute bars end 10:30, 11:30, 14:00, 15:00.
 */
export function dayMinuteBars(inst: EmuInstrument, day: number, minutes: number, until: number): RawBar[] {
  const found = findBar(inst, day)
  if (!found) return []
  const { block, i } = found
  const md = minuteDay(inst, block, i)
  const s = sessionFor(inst.kind)
  const date = dateOf(day)
  const out: RawBar[] = []
  let base = 0
  for (const [a, b] of s.halves) {
    for (let start = a; start < b; start += minutes) {
      const end = Math.min(start + minutes, b)
      if (end > until) return out
      const bar = aggregate(inst, md, base + start - a, base + end - a, `${date} ${hhmm(end)}`, 0)
      // A bucket's reference price is the close before it.
      bar.preClose = start === s.halves[0][0] ? block.pre[i] : md.close[base + start - a - 1]
      out.push(bar)
    }
    base += b - a
  }
  return out
}

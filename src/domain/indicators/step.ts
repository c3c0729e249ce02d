/**
 * The 52 numeric technical columns one bar at a time: `nextRow(state, bar)` is the row of the bar
 * after the state's last one, `nextState(state, bar)` the state that includes it. A state holds
 * what the whole-history computation (src/domain/indicators/row.ts) carries from bar to bar:
 *
 * - the running sums of every SUM/MA window with its count of undefined inputs (the same running
 *   sum `sum` in series.ts keeps, re-added from its window every n bars at the same bar indexes,
 *   which is why the state counts the bars it has seen);
 * - the recursive averages (EMA12/26, DEA, KDJ's K and D, RSI's six SMAs, TRIX's triple EMA) and OBV;
 * - the last 250 closes and the last 27 opens, highs, lows and volumes (the bar a window drops, the
 *   windows HHV/LLV/STD/AVEDEV read, the bar-derived inputs of the sums: TR, ±DM, TP, VR, BRAR, MFI);
 * - the last few values of the inputs that depend on earlier sums (DMI's DX and ADX, TRIX, PSY, DMA).
 *
 * Every value is computed with the same operations in the same order as the series functions, so
 * stepping gives the whole-history values bit for bit (step.test.ts), in constant time per symbol.
 * The live batch steps up to 1,000 symbols a request, so the step is written for speed too: plain
 * arrays read by bar index (no closure per window), each windowed sum handed its input at the bar
 * it adds and the bar it drops (it reads its whole window only on the bars it is re-added).
 *
 * The bars are forward-adjusted to the state's last date. A next bar after an ex-date does not fit
 * (every earlier price would be scaled): the caller must see that (the quote's previous close is
 * not the state's last close) and compute that symbol from its whole history instead.
 */
import type { Bar } from '../bar'
import type { StepState } from './step-state'
import { NUMERIC_COLUMNS, TECHNICAL_COLUMNS, type NumericColumn, type TechnicalColumn, type TechnicalRow } from './columns'
import { roundTo, type RowIdentity } from './row'
import { ratio } from './series'

/** One daily bar (qfq to its own date = the prices that traded). Volume in shares. */
export type StepBar = Pick<Bar, 'date' | 'open' | 'high' | 'low' | 'close' | 'volume'>

/** The version of the state's JSON form. */
const STEP_VERSION: StepState['v'] = 1


const CLOSE_KEEP = 250
/** BRAR's 26-bar sums drop bar i − 26, whose input reads the close before it. */
const BAR_KEEP = 27
/** How many past values each sum-dependent input keeps (the longest window or lag reading it). */
const KEEP = { dx: 6, adx: 6, trix: 20, psy: 6, dif: 10 } as const

/** The windowed sums, by name: [name, window]. Order is the state's `sums` order. */
const SUMS = [
  ['c3', 3], ['c5', 5], ['c6', 6], ['c10', 10], ['c12', 12], ['c20', 20], ['c24', 24], ['c30', 30], ['c50', 50], ['c60', 60], ['c120', 120], ['c250', 250],
  ['v5', 5], ['v10', 10], ['tr20', 20], ['tr14', 14], ['dmp', 14], ['dmm', 14], ['dx', 6], ['tp', 14], ['trix', 20],
  ['vrUp', 26], ['vrRest', 26], ['ups', 12], ['psy', 6], ['roc', 6], ['mtm', 6], ['dif', 10],
  ['ho', 26], ['ol', 26], ['hc', 26], ['cl', 26], ['mfPos', 14], ['mfNeg', 14],
] as const
type SumName = (typeof SUMS)[number][0]
/** Each sum's index in the state's `sums`, by name. */
const SUM = Object.fromEntries(SUMS.map(([name], k) => [name, k])) as Record<SumName, number>

/** The recursive averages, by name: [name, α] with α written as series.ts writes it. */
const SMOOTHS = [
  ['ema12', 2 / (12 + 1)], ['ema26', 2 / (26 + 1)], ['dea', 2 / (9 + 1)], ['k', 1 / 3], ['d', 1 / 3],
  ['up6', 1 / 6], ['all6', 1 / 6], ['up12', 1 / 12], ['all12', 1 / 12], ['up24', 1 / 24], ['all24', 1 / 24],
  ['tr1', 2 / (12 + 1)], ['tr2', 2 / (12 + 1)], ['tr3', 2 / (12 + 1)],
] as const
type SmoothName = (typeof SMOOTHS)[number][0]
/** Each recursive average's index in the state's `ys`, by name. */
const SMOOTH = Object.fromEntries(SMOOTHS.map(([name], k) => [name, k])) as Record<SmoothName, number>

/** The state before the first bar. */
function emptyState(): StepState {
  return {
    v: STEP_VERSION, date: '', i: 0, o: [], h: [], l: [], c: [], vol: [],
    sums: SUMS.map(() => 0), miss: SUMS.map(() => 0), ys: SMOOTHS.map(() => Number.NaN), obv: 0,
    dx: [], adx: [], trix: [], psy: [], dif: [],
  }
}

/** A copy that shares nothing with `s`. */
const copyState = (s: StepState): StepState => ({
  ...s, o: [...s.o], h: [...s.h], l: [...s.l], c: [...s.c], vol: [...s.vol], sums: [...s.sums], miss: [...s.miss], ys: [...s.ys],
  dx: [...s.dx], adx: [...s.adx], trix: [...s.trix], psy: [...s.psy], dif: [...s.dif],
})

/** Each sum's window, by the state's `sums` order. */
const WINDOW = SUMS.map(([, n]) => n)
/** Each recursive average's α, by the state's `ys` order. */
const ALPHA = SMOOTHS.map(([, alpha]) => alpha)

/**
 * A kept window (its last value the current bar's, bar i) read by absolute bar index j ≤ i: NaN
 * before its first kept value, as the whole history reads NaN before bar 0.
 */
function at(xs: readonly number[], i: number, j: number): number {
  const k = xs.length - 1 - (i - j)
  return k < 0 ? Number.NaN : xs[k]
}

/**
 * Where the last n values of a kept window start (an index into `xs`), or −1 when they are not all
 * defined: series.ts `windowed`, which gives f only windows without a NaN.
 */
function fullFrom(xs: readonly number[], i: number, n: number): number {
  const from = xs.length - n
  if (i < n - 1 || from < 0) return -1
  for (let k = from; k < xs.length; k++) if (Number.isNaN(xs[k])) return -1
  return from
}

/** series.ts `hhv` at the current bar of a kept window. */
function hhv(xs: readonly number[], i: number, n: number): number {
  const from = fullFrom(xs, i, n)
  if (from < 0) return Number.NaN
  let m = xs[from]
  for (let k = from + 1; k < xs.length; k++) if (xs[k] > m) m = xs[k]
  return m
}

/** series.ts `llv` at the current bar of a kept window. */
function llv(xs: readonly number[], i: number, n: number): number {
  const from = fullFrom(xs, i, n)
  if (from < 0) return Number.NaN
  let m = xs[from]
  for (let k = from + 1; k < xs.length; k++) if (xs[k] < m) m = xs[k]
  return m
}

/** series.ts `meanOf` over xs[from..]. */
function meanFrom(xs: readonly number[], from: number, n: number): number {
  let t = 0
  for (let k = from; k < xs.length; k++) t += xs[k]
  return t / n
}

/** series.ts `std` at the current bar of a kept window. */
function std(xs: readonly number[], i: number, n: number): number {
  const from = fullFrom(xs, i, n)
  if (from < 0) return Number.NaN
  const m = meanFrom(xs, from, n)
  let t = 0
  for (let k = from; k < xs.length; k++) t += (xs[k] - m) * (xs[k] - m)
  return Math.sqrt(t / n)
}

/** series.ts `avedev` at the current bar of a kept window. */
function avedev(xs: readonly number[], i: number, n: number): number {
  const from = fullFrom(xs, i, n)
  if (from < 0) return Number.NaN
  const m = meanFrom(xs, from, n)
  let t = 0
  for (let k = from; k < xs.length; k++) t += Math.abs(xs[k] - m)
  return t / n
}

/** One step in progress: the state (its windows already holding bar i) and the bar's index. */
class Step {
  constructor(
    readonly s: StepState,
    readonly i: number,
  ) {}

  o(j: number): number {
    return at(this.s.o, this.i, j)
  }
  h(j: number): number {
    return at(this.s.h, this.i, j)
  }
  l(j: number): number {
    return at(this.s.l, this.i, j)
  }
  c(j: number): number {
    return at(this.s.c, this.i, j)
  }
  vol(j: number): number {
    return at(this.s.vol, this.i, j)
  }

  /**
   * series.ts `sum` of the bar-derived input `input` (whose values at bar i and at bar i − n, the one
   * the window drops, the caller has at hand): add, drop, re-add the window every n bars.
   */
  sum(k: number, now: number, old: number, input: (t: Step, j: number) => number): number {
    const i = this.i
    const n = WINDOW[k]
    if (this.roll(k, n, now, old)) {
      let t = 0
      for (let j = i - n + 1; j <= i; j++) t += input(this, j)
      this.s.sums[k] = t
    }
    return this.total(k, n)
  }

  /** series.ts `sum` of a kept window (its last value bar i's). */
  sumOf(k: number, xs: readonly number[]): number {
    const n = WINDOW[k]
    if (this.roll(k, n, xs[xs.length - 1], at(xs, this.i, this.i - n))) {
      let t = 0
      for (let j = xs.length - n; j < xs.length; j++) t += xs[j]
      this.s.sums[k] = t
    }
    return this.total(k, n)
  }

  /** series.ts `ma` of a kept window. */
  maOf(k: number, xs: readonly number[]): number {
    return this.sumOf(k, xs) / WINDOW[k]
  }

  /** The running part of series.ts `sum`: adds `now`, drops `old` (read from bar n on); whether the window is due to be re-added. */
  private roll(k: number, n: number, now: number, old: number): boolean {
    const { sums, miss } = this.s
    if (Number.isNaN(now)) miss[k]++
    else sums[k] += now
    if (this.i >= n) {
      if (Number.isNaN(old)) miss[k]--
      else sums[k] -= old
    }
    return this.i % n === n - 1 && miss[k] === 0
  }

  private total(k: number, n: number): number {
    return this.i >= n - 1 && this.s.miss[k] === 0 ? this.s.sums[k] : Number.NaN
  }

  /** series.ts `smooth`. */
  smooth(k: number, v: number): number {
    const { ys } = this.s
    const y = ys[k]
    const alpha = ALPHA[k]
    if (!Number.isNaN(v)) ys[k] = Number.isNaN(y) ? v : alpha * v + (1 - alpha) * y
    return ys[k]
  }
}

/** The inputs of the bar-derived sums at bar j, as the series compute them (the whole-history names beside). */
type Input = (t: Step, j: number) => number
/** cci.ts `typicalPrice`. */
const tp: Input = (t, j) => (t.h(j) + t.l(j) + t.c(j)) / 3
/** atr.ts `trueRange`. */
const tr: Input = (t, j) => Math.max(t.h(j) - t.l(j), Math.abs(t.c(j - 1) - t.h(j)), Math.abs(t.c(j - 1) - t.l(j)))
/** dmi.ts `up`. */
const dmUp: Input = (t, j) => {
  const hd = t.h(j) - t.h(j - 1)
  const ld = t.l(j - 1) - t.l(j)
  return hd > 0 && hd > ld ? hd : 0
}
/** dmi.ts `down`. */
const dmDown: Input = (t, j) => {
  const hd = t.h(j) - t.h(j - 1)
  const ld = t.l(j - 1) - t.l(j)
  return ld > 0 && ld > hd ? ld : 0
}
/** vr.ts `up`, `rest`; psy.ts `ups`. */
const vrUp: Input = (t, j) => (t.c(j) > t.c(j - 1) ? t.vol(j) : 0)
const vrRest: Input = (t, j) => (t.c(j) <= t.c(j - 1) ? t.vol(j) : 0)
const up: Input = (t, j) => (t.c(j) > t.c(j - 1) ? 1 : 0)
/** roc.ts `r`, mtm.ts `x`. */
const rocAt: Input = (t, j) => ratio(t.c(j) - t.c(j - 12), t.c(j - 12)) * 100
const mtmAt: Input = (t, j) => t.c(j) - t.c(j - 12)
/** brar.ts `ho`, `ol`, `hc`, `cl`. */
const ho: Input = (t, j) => t.h(j) - t.o(j)
const ol: Input = (t, j) => t.o(j) - t.l(j)
const hc: Input = (t, j) => Math.max(0, t.h(j) - t.c(j - 1))
const cl: Input = (t, j) => Math.max(0, t.c(j - 1) - t.l(j))
/** mfi.ts `pos`, `neg`. */
const mfPos: Input = (t, j) => {
  const p = tp(t, j)
  return p > tp(t, j - 1) ? p * t.vol(j) : 0
}
const mfNeg: Input = (t, j) => {
  const p = tp(t, j)
  return p < tp(t, j - 1) ? p * t.vol(j) : 0
}

/**
 * Steps `s` (mutated) by one bar and writes the bar's values into `out` at their columns' indexes
 * ({@link NUMERIC_COLUMNS}; a typed array: 52 numbers a stock, a thousand stocks a live batch, with
 * no number allocated). The whole-history versions are named beside each block; the expressions are
 * theirs, in their order.
 */
function advance(s: StepState, bar: StepBar, out: Float64Array, mayTrim = true): void {
  const i = s.i
  s.o.push(bar.open)
  s.h.push(bar.high)
  s.l.push(bar.low)
  s.c.push(bar.close)
  s.vol.push(bar.volume)
  const t = new Step(s, i)
  const close = bar.close
  const prev = t.c(i - 1)

  // MA, EMA, MACD (macd.ts)
  const ma5 = t.maOf(SUM.c5, s.c), ma10 = t.maOf(SUM.c10, s.c), ma20 = t.maOf(SUM.c20, s.c), ma30 = t.maOf(SUM.c30, s.c)
  const ma60 = t.maOf(SUM.c60, s.c), ma120 = t.maOf(SUM.c120, s.c), ma250 = t.maOf(SUM.c250, s.c)
  const ma3 = t.maOf(SUM.c3, s.c), ma6 = t.maOf(SUM.c6, s.c), ma12 = t.maOf(SUM.c12, s.c), ma24 = t.maOf(SUM.c24, s.c), ma50 = t.maOf(SUM.c50, s.c)
  const ema12 = t.smooth(SMOOTH.ema12, close)
  const ema26 = t.smooth(SMOOTH.ema26, close)
  const dif = ema12 - ema26
  const dea = t.smooth(SMOOTH.dea, dif)

  // KDJ (kdj.ts), WR (wr.ts)
  const hi9 = hhv(s.h, i, 9)
  const lo9 = llv(s.l, i, 9)
  const rsv = ratio(close - lo9, hi9 - lo9) * 100
  const k = t.smooth(SMOOTH.k, rsv)
  const d = t.smooth(SMOOTH.d, k)
  const wrOf = (n: number) => {
    const hi = hhv(s.h, i, n)
    return ratio(hi - close, hi - llv(s.l, i, n)) * 100
  }

  // RSI (rsi.ts)
  const rsiOf = (upK: number, allK: number) => {
    const u = t.smooth(upK, Math.max(close - prev, 0))
    return ratio(u, t.smooth(allK, Math.abs(close - prev))) * 100
  }

  // BOLL (boll.ts)
  const sd = std(s.c, i, 20)

  // CCI (cci.ts): the window's typical prices, once
  const tps: number[] = []
  for (let j = i - 13; j <= i; j++) tps.push(tp(t, j))
  const tpNow = tps[13]
  const tpMa = t.sum(SUM.tp, tpNow, tp(t, i - 14), tp) / 14
  const tpDev = avedev(tps, i, 14)

  // ATR, DMI (atr.ts, dmi.ts)
  const trNow = tr(t, i)
  const atr = t.sum(SUM.tr20, trNow, tr(t, i - 20), tr) / 20
  const tr14 = t.sum(SUM.tr14, trNow, tr(t, i - 14), tr)
  const pdi = ratio(t.sum(SUM.dmp, dmUp(t, i), dmUp(t, i - 14), dmUp) * 100, tr14)
  const mdi = ratio(t.sum(SUM.dmm, dmDown(t, i), dmDown(t, i - 14), dmDown) * 100, tr14)
  s.dx.push(ratio(Math.abs(mdi - pdi), mdi + pdi) * 100)
  const adx = t.maOf(SUM.dx, s.dx)
  s.adx.push(adx)
  const adxr = (adx + at(s.adx, i, i - 6)) / 2

  // TRIX (trix.ts)
  const prevTr3 = s.ys[SMOOTH.tr3]
  const tr3 = t.smooth(SMOOTH.tr3, t.smooth(SMOOTH.tr2, t.smooth(SMOOTH.tr1, close)))
  const trixNow = ratio(tr3 - prevTr3, prevTr3) * 100
  s.trix.push(trixNow)
  const trma = t.maOf(SUM.trix, s.trix)

  // OBV (obv.ts), VR (vr.ts), PSY (psy.ts)
  s.obv += close > prev ? bar.volume : close < prev ? -bar.volume : 0
  const vrUps = t.sum(SUM.vrUp, vrUp(t, i), vrUp(t, i - 26), vrUp)
  const vrRests = t.sum(SUM.vrRest, vrRest(t, i), vrRest(t, i - 26), vrRest)
  const ups = t.sum(SUM.ups, up(t, i), up(t, i - 12), up)
  const psyNow = (ups / 12) * 100
  s.psy.push(psyNow)
  const psyma = t.maOf(SUM.psy, s.psy)

  // ROC, MTM (roc.ts, mtm.ts), DMA (dma.ts)
  const rocNow = rocAt(t, i)
  const mtmNow = mtmAt(t, i)
  const dmaDif = ma10 - ma50
  s.dif.push(dmaDif)
  const difma = t.maOf(SUM.dif, s.dif)

  // BRAR (brar.ts)
  const hos = t.sum(SUM.ho, ho(t, i), ho(t, i - 26), ho)
  const ols = t.sum(SUM.ol, ol(t, i), ol(t, i - 26), ol)
  const hcs = t.sum(SUM.hc, hc(t, i), hc(t, i - 26), hc)
  const cls = t.sum(SUM.cl, cl(t, i), cl(t, i - 26), cl)

  // MFI (mfi.ts)
  const pos = t.sum(SUM.mfPos, mfPos(t, i), mfPos(t, i - 14), mfPos)
  const neg = t.sum(SUM.mfNeg, mfNeg(t, i), mfNeg(t, i - 14), mfNeg)
  const mfi = Number.isNaN(pos) || Number.isNaN(neg) ? Number.NaN : neg === 0 ? (pos > 0 ? 100 : Number.NaN) : 100 - 100 / (1 + pos / neg)

  const bias = (m: number) => ratio(close - m, m) * 100
  out[AT.closePrice] = close
  out[AT.ma_MA_5] = ma5; out[AT.ma_MA_10] = ma10; out[AT.ma_MA_20] = ma20; out[AT.ma_MA_30] = ma30; out[AT.ma_MA_60] = ma60; out[AT.ma_MA_120] = ma120; out[AT.ma_MA_250] = ma250
  out[AT.ema_EMA_12] = ema12; out[AT.ema_EMA_26] = ema26
  out[AT.macd_DIF] = dif; out[AT.macd_DEA] = dea; out[AT.macd_MACD] = 2 * (dif - dea)
  out[AT.kdj_K] = k; out[AT.kdj_D] = d; out[AT.kdj_J] = 3 * k - 2 * d
  out[AT.rsi_RSI_6] = rsiOf(SMOOTH.up6, SMOOTH.all6); out[AT.rsi_RSI_12] = rsiOf(SMOOTH.up12, SMOOTH.all12); out[AT.rsi_RSI_24] = rsiOf(SMOOTH.up24, SMOOTH.all24)
  out[AT.boll_UPPER] = ma20 + 2 * sd; out[AT.boll_MID] = ma20; out[AT.boll_LOWER] = ma20 - 2 * sd
  out[AT.wr_WR_10] = wrOf(10); out[AT.wr_WR_6] = wrOf(6)
  out[AT.cci_CCI] = ratio(tpNow - tpMa, 0.015 * tpDev)
  out[AT.bias_BIAS_6] = bias(ma6); out[AT.bias_BIAS_12] = bias(ma12); out[AT.bias_BIAS_24] = bias(ma24)
  out[AT.atr_TR] = trNow; out[AT.atr_ATR] = atr
  out[AT.dmi_PDI] = pdi; out[AT.dmi_MDI] = mdi; out[AT.dmi_ADX] = adx; out[AT.dmi_ADXR] = adxr
  out[AT.trix_TRIX] = trixNow; out[AT.trix_TRMA] = trma
  out[AT.obv_OBV] = s.obv
  out[AT.vr_VR] = ratio(vrUps, vrRests) * 100
  out[AT.psy_PSY] = psyNow; out[AT.psy_PSYMA] = psyma
  out[AT.roc_ROC] = rocNow; out[AT.roc_MAROC] = t.sum(SUM.roc, rocNow, rocAt(t, i - 6), rocAt) / 6
  out[AT.mtm_MTM] = mtmNow; out[AT.mtm_MTMMA] = t.sum(SUM.mtm, mtmNow, mtmAt(t, i - 6), mtmAt) / 6
  out[AT.dma_DIF] = dmaDif; out[AT.dma_DIFMA] = difma
  out[AT.bbi_BBI] = (0 + ma3 + ma6 + ma12 + ma20) / 4
  out[AT.vol_MA_5] = t.maOf(SUM.v5, s.vol); out[AT.vol_MA_10] = t.maOf(SUM.v10, s.vol)
  out[AT.brar_AR] = ratio(hos, ols) * 100; out[AT.brar_BR] = ratio(hcs, cls) * 100
  out[AT.mfi_MFI] = mfi

  s.i = i + 1
  s.date = bar.date
  // Windows are read by bar index, so they may hold more than they need; cut them down now and then.
  if (mayTrim && s.c.length > 2 * CLOSE_KEEP) trim(s)
}

/** Keeps only what the next bar reads (what a stored state holds). */
function trim(s: StepState): StepState {
  for (const xs of [s.o, s.h, s.l, s.vol]) if (xs.length > BAR_KEEP) xs.splice(0, xs.length - BAR_KEEP)
  if (s.c.length > CLOSE_KEEP) s.c.splice(0, s.c.length - CLOSE_KEEP)
  for (const key of Object.keys(KEEP) as Array<keyof typeof KEEP>) if (s[key].length > KEEP[key]) s[key].splice(0, s[key].length - KEEP[key])
  return s
}

/** The state after `bar`; `state` is left as it was. */
export function nextState(state: StepState, bar: StepBar): StepState {
  const s = copyState(state)
  advance(s, bar, scratch)
  return trim(s)
}

/** Each numeric column's index in a step's values. */
const AT = Object.fromEntries(NUMERIC_COLUMNS.map((name, k) => [name, k])) as Record<NumericColumn, number>
/** Values written and read at once (the step runs to its end before anything reads them). */
const scratch = new Float64Array(NUMERIC_COLUMNS.length)

/** The windows of a state: a step appends one value to each. */
const WINDOWS = ['o', 'h', 'l', 'c', 'vol', 'dx', 'adx', 'trix', 'psy', 'dif'] as const

/**
 * The unrounded values of `bar`, the bar after `state`'s last one, written into `out` at their
 * columns' indexes ({@link NUMERIC_COLUMNS}); `state` is left as it was. The step appends to the
 * state's windows in place and takes the values off after (nothing else runs in between, and a step
 * does not throw), so a live row costs no copy of the 400 window values.
 */
export function nextValuesInto(state: StepState, bar: StepBar, out: Float64Array): Float64Array {
  advance({ ...state, sums: state.sums.slice(), miss: state.miss.slice(), ys: state.ys.slice() }, bar, out, false)
  for (const k of WINDOWS) state[k].pop()
  return out
}

/** {@link nextValuesInto} as a record by column name. */
export function nextValues(state: StepState, bar: StepBar): Record<NumericColumn, number> {
  return valuesRecord(nextValuesInto(state, bar, new Float64Array(NUMERIC_COLUMNS.length)))
}

/** The state after every bar of a history (oldest first): what the whole-history computation has in hand. */
export function stateThrough(bars: Iterable<StepBar>, each?: (values: Record<NumericColumn, number>, bar: StepBar) => void): StepState {
  const s = emptyState()
  for (const b of bars) {
    advance(s, b, scratch)
    each?.(valuesRecord(scratch), b)
  }
  return trim(s)
}

const valuesRecord = (values: Float64Array) => Object.fromEntries(NUMERIC_COLUMNS.map((name, k) => [name, values[k]])) as Record<NumericColumn, number>

/** Whether each numeric column, in row order, is a price level (rounded to the instrument's decimals, else to 4). */
const IS_PRICE = TECHNICAL_COLUMNS.filter(([, kind]) => kind !== 'id').map(([, kind]) => kind === 'price')

/**
 * A row with its keys in column order, every value null. Each row starts as a copy of it: setting 55
 * keys one by one on a fresh object grows its property store a few slots at a time (several times
 * slower to build, copy in GC and stringify).
 */
const BLANK_ROW = Object.fromEntries(TECHNICAL_COLUMNS.map(([name]) => [name, null])) as Record<TechnicalColumn, string | number | null>

/** The technical row of `bar` (rounded as technicalRow rounds), the bar after `state`'s last one. */
export function nextRow(state: StepState, bar: StepBar, id: RowIdentity): TechnicalRow {
  const values = nextValuesInto(state, bar, scratch)
  const row = { ...BLANK_ROW }
  row.code = id.code
  row.name = id.name
  row.date = bar.date
  for (let k = 0; k < NUMERIC_COLUMNS.length; k++) {
    const v = values[k]
    row[NUMERIC_COLUMNS[k]] = !Number.isFinite(v) ? null : IS_PRICE[k] ? roundTo(v, id.priceDecimals) : roundTo(v, 4)
  }
  return row as TechnicalRow
}

/** The numbers of a state that may be NaN, by field. */
const NUMBER_LISTS = ['o', 'h', 'l', 'c', 'vol', 'sums', 'miss', 'ys', 'dx', 'adx', 'trix', 'psy', 'dif'] as const

/** JSON text of a state (NaN is written null, as JSON.stringify does). */
export const encodeState = (s: StepState): string => JSON.stringify(s)

/** A state from {@link encodeState}'s text (null back to NaN); undefined when it is not one of this version. */
export function decodeState(value: unknown): StepState | undefined {
  const s = value as StepState
  if (!s || typeof s !== 'object' || s.v !== STEP_VERSION || typeof s.i !== 'number' || typeof s.date !== 'string') return undefined
  for (const key of NUMBER_LISTS) {
    const xs = s[key] as unknown
    if (!Array.isArray(xs)) return undefined
    s[key] = xs.map((x) => (typeof x === 'number' ? x : Number.NaN))
  }
  if (s.sums.length !== SUMS.length || s.ys.length !== SMOOTHS.length || typeof s.obv !== 'number') return undefined
  return s
}

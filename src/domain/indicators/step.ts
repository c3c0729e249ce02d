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
 *
 * The bars are forward-adjusted to the state's last date. A next bar after an ex-date does not fit
 * (every earlier price would be scaled): the caller must see that (the quote's previous close is
 * not the state's last close) and compute that symbol from its whole history instead.
 */
import type { Bar } from '../bar'
import { TECHNICAL_COLUMNS, type NumericColumn, type TechnicalRow } from './columns'
import { roundTo, type RowIdentity } from './row'
import { ratio } from './series'

/** One daily bar (qfq to its own date = the prices that traded). Volume in shares. */
export type StepBar = Pick<Bar, 'date' | 'open' | 'high' | 'low' | 'close' | 'volume'>

export const STEP_VERSION = 1

/** What carries a stock's indicators from one session to the next. JSON-safe via {@link encodeState}. */
export interface StepState {
  v: typeof STEP_VERSION
  /** Date of the last bar stepped. */
  date: string
  /** Bars stepped since the first of the history (the next bar's index). */
  i: number
  /** The last bars, oldest first: closes up to {@link CLOSE_KEEP}, the rest up to {@link BAR_KEEP}. */
  o: number[]
  h: number[]
  l: number[]
  c: number[]
  vol: number[]
  /** Running sum and undefined-input count of each of {@link SUMS}. */
  sums: number[]
  miss: number[]
  /** Each of {@link SMOOTHS}; NaN until its first defined input. */
  ys: number[]
  obv: number
  /** The last values of the inputs that depend on earlier sums, oldest first. */
  dx: number[]
  adx: number[]
  trix: number[]
  psy: number[]
  dif: number[]
}

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
const SUM_INDEX = Object.fromEntries(SUMS.map(([name], k) => [name, k])) as Record<SumName, number>

/** The recursive averages, by name: [name, α] with α written as series.ts writes it. */
const SMOOTHS = [
  ['ema12', 2 / (12 + 1)], ['ema26', 2 / (26 + 1)], ['dea', 2 / (9 + 1)], ['k', 1 / 3], ['d', 1 / 3],
  ['up6', 1 / 6], ['all6', 1 / 6], ['up12', 1 / 12], ['all12', 1 / 12], ['up24', 1 / 24], ['all24', 1 / 24],
  ['tr1', 2 / (12 + 1)], ['tr2', 2 / (12 + 1)], ['tr3', 2 / (12 + 1)],
] as const
type SmoothName = (typeof SMOOTHS)[number][0]
const SMOOTH_INDEX = Object.fromEntries(SMOOTHS.map(([name], k) => [name, k])) as Record<SmoothName, number>

/** The state before the first bar. */
export function emptyState(): StepState {
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

/** A kept window with the current value appended: read by absolute bar index (NaN before the first bar). */
function windowOf(xs: number[], i: number): (j: number) => number {
  const first = i + 1 - xs.length
  return (j) => (j < first || j > i ? Number.NaN : xs[j - first])
}

/**
 * Steps `s` (mutated) by one bar; returns the bar's values. The whole-history versions are named
 * beside each line; the expressions are theirs, in their order.
 */
function advance(s: StepState, bar: StepBar, mayTrim = true): Record<NumericColumn, number> {
  const i = s.i
  s.o.push(bar.open)
  s.h.push(bar.high)
  s.l.push(bar.low)
  s.c.push(bar.close)
  s.vol.push(bar.volume)
  const o = windowOf(s.o, i)
  const h = windowOf(s.h, i)
  const l = windowOf(s.l, i)
  const c = windowOf(s.c, i)
  const vol = windowOf(s.vol, i)

  /** series.ts `sum`: add, drop the value n back, re-add the window every n bars. */
  const sum = (name: SumName, n: number, at: (j: number) => number): number => {
    const k = SUM_INDEX[name]
    const v = at(i)
    if (Number.isNaN(v)) s.miss[k]++
    else s.sums[k] += v
    if (i >= n) {
      const old = at(i - n)
      if (Number.isNaN(old)) s.miss[k]--
      else s.sums[k] -= old
    }
    if (i % n === n - 1 && s.miss[k] === 0) {
      let t = 0
      for (let j = i - n + 1; j <= i; j++) t += at(j)
      s.sums[k] = t
    }
    return i >= n - 1 && s.miss[k] === 0 ? s.sums[k] : Number.NaN
  }
  const ma = (name: SumName, n: number, at: (j: number) => number) => sum(name, n, at) / n
  /** series.ts `smooth`. */
  const smooth = (name: SmoothName, v: number): number => {
    const k = SMOOTH_INDEX[name]
    const alpha = SMOOTHS[k][1]
    const y = s.ys[k]
    if (!Number.isNaN(v)) s.ys[k] = Number.isNaN(y) ? v : alpha * v + (1 - alpha) * y
    return s.ys[k]
  }
  /** series.ts `windowed`: whether the last n values are all defined (then f may read them). */
  const full = (n: number, at: (j: number) => number): boolean => {
    if (i < n - 1) return false
    for (let j = i - n + 1; j <= i; j++) if (Number.isNaN(at(j))) return false
    return true
  }
  const mean = (n: number, at: (j: number) => number) => {
    let t = 0
    for (let j = i - n + 1; j <= i; j++) t += at(j)
    return t / n
  }
  const extreme = (n: number, at: (j: number) => number, higher: boolean) => {
    if (!full(n, at)) return Number.NaN
    let m = at(i - n + 1)
    for (let j = i - n + 2; j <= i; j++) {
      const x = at(j)
      if (higher ? x > m : x < m) m = x
    }
    return m
  }
  const hhv = (n: number, at: (j: number) => number) => extreme(n, at, true)
  const llv = (n: number, at: (j: number) => number) => extreme(n, at, false)
  const std = (n: number, at: (j: number) => number) => {
    if (!full(n, at)) return Number.NaN
    const m = mean(n, at)
    let t = 0
    for (let j = i - n + 1; j <= i; j++) t += (at(j) - m) * (at(j) - m)
    return Math.sqrt(t / n)
  }
  const avedev = (n: number, at: (j: number) => number) => {
    if (!full(n, at)) return Number.NaN
    const m = mean(n, at)
    let t = 0
    for (let j = i - n + 1; j <= i; j++) t += Math.abs(at(j) - m)
    return t / n
  }

  const close = c(i)
  const mac = (name: SumName, n: number) => ma(name, n, c)

  // MA, EMA, MACD (macd.ts)
  const ma5 = mac('c5', 5), ma10 = mac('c10', 10), ma20 = mac('c20', 20), ma30 = mac('c30', 30)
  const ma60 = mac('c60', 60), ma120 = mac('c120', 120), ma250 = mac('c250', 250)
  const ma3 = mac('c3', 3), ma6 = mac('c6', 6), ma12 = mac('c12', 12), ma24 = mac('c24', 24), ma50 = mac('c50', 50)
  const ema12 = smooth('ema12', close)
  const ema26 = smooth('ema26', close)
  const dif = ema12 - ema26
  const dea = smooth('dea', dif)

  // KDJ (kdj.ts), WR (wr.ts)
  const hi9 = hhv(9, h)
  const lo9 = llv(9, l)
  const rsv = ratio(close - lo9, hi9 - lo9) * 100
  const k = smooth('k', rsv)
  const d = smooth('d', k)
  const wrOf = (n: number) => {
    const hi = hhv(n, h)
    return ratio(hi - close, hi - llv(n, l)) * 100
  }

  // RSI (rsi.ts)
  const rsiOf = (up: SmoothName, all: SmoothName) => {
    const u = smooth(up, Math.max(close - c(i - 1), 0))
    return ratio(u, smooth(all, Math.abs(close - c(i - 1)))) * 100
  }

  // BOLL (boll.ts)
  const sd = std(20, c)

  // CCI, MFI (cci.ts, mfi.ts): the typical price
  const tp = (j: number) => (h(j) + l(j) + c(j)) / 3
  const tpMa = ma('tp', 14, tp)
  const tpDev = avedev(14, tp)

  // ATR, DMI (atr.ts, dmi.ts)
  const tr = (j: number) => Math.max(h(j) - l(j), Math.abs(c(j - 1) - h(j)), Math.abs(c(j - 1) - l(j)))
  const atr = ma('tr20', 20, tr)
  const tr14 = sum('tr14', 14, tr)
  const dmUp = (j: number) => {
    const hd = h(j) - h(j - 1)
    const ld = l(j - 1) - l(j)
    return hd > 0 && hd > ld ? hd : 0
  }
  const dmDown = (j: number) => {
    const hd = h(j) - h(j - 1)
    const ld = l(j - 1) - l(j)
    return ld > 0 && ld > hd ? ld : 0
  }
  const pdi = ratio(sum('dmp', 14, dmUp) * 100, tr14)
  const mdi = ratio(sum('dmm', 14, dmDown) * 100, tr14)
  s.dx.push(ratio(Math.abs(mdi - pdi), mdi + pdi) * 100)
  const adx = ma('dx', 6, windowOf(s.dx, i))
  s.adx.push(adx)
  const adxr = (adx + windowOf(s.adx, i)(i - 6)) / 2

  // TRIX (trix.ts)
  const prevTr3 = s.ys[SMOOTH_INDEX.tr3]
  const tr3 = smooth('tr3', smooth('tr2', smooth('tr1', close)))
  s.trix.push(ratio(tr3 - prevTr3, prevTr3) * 100)
  const trixNow = s.trix.at(-1)!
  const trma = ma('trix', 20, windowOf(s.trix, i))

  // OBV (obv.ts), VR (vr.ts), PSY (psy.ts)
  const prev = c(i - 1)
  s.obv += close > prev ? bar.volume : close < prev ? -bar.volume : 0
  const vrUp = sum('vrUp', 26, (j) => (c(j) > c(j - 1) ? vol(j) : 0))
  const vrRest = sum('vrRest', 26, (j) => (c(j) <= c(j - 1) ? vol(j) : 0))
  const ups = sum('ups', 12, (j) => (c(j) > c(j - 1) ? 1 : 0))
  s.psy.push((ups / 12) * 100)
  const psyma = ma('psy', 6, windowOf(s.psy, i))

  // ROC, MTM (roc.ts, mtm.ts), DMA (dma.ts)
  const rocAt = (j: number) => ratio(c(j) - c(j - 12), c(j - 12)) * 100
  const mtmAt = (j: number) => c(j) - c(j - 12)
  s.dif.push(ma10 - ma50)
  const difma = ma('dif', 10, windowOf(s.dif, i))

  // BRAR (brar.ts)
  const ho = sum('ho', 26, (j) => h(j) - o(j))
  const ol = sum('ol', 26, (j) => o(j) - l(j))
  const hc = sum('hc', 26, (j) => Math.max(0, h(j) - c(j - 1)))
  const cl = sum('cl', 26, (j) => Math.max(0, c(j - 1) - l(j)))

  // MFI (mfi.ts)
  const pos = sum('mfPos', 14, (j) => (tp(j) > tp(j - 1) ? tp(j) * vol(j) : 0))
  const neg = sum('mfNeg', 14, (j) => (tp(j) < tp(j - 1) ? tp(j) * vol(j) : 0))
  const mfi = Number.isNaN(pos) || Number.isNaN(neg) ? Number.NaN : neg === 0 ? (pos > 0 ? 100 : Number.NaN) : 100 - 100 / (1 + pos / neg)

  const bias = (m: number) => ratio(close - m, m) * 100
  const values: Record<NumericColumn, number> = {
    closePrice: close,
    ma_MA_5: ma5, ma_MA_10: ma10, ma_MA_20: ma20, ma_MA_30: ma30, ma_MA_60: ma60, ma_MA_120: ma120, ma_MA_250: ma250,
    ema_EMA_12: ema12, ema_EMA_26: ema26,
    macd_DIF: dif, macd_DEA: dea, macd_MACD: 2 * (dif - dea),
    kdj_K: k, kdj_D: d, kdj_J: 3 * k - 2 * d,
    rsi_RSI_6: rsiOf('up6', 'all6'), rsi_RSI_12: rsiOf('up12', 'all12'), rsi_RSI_24: rsiOf('up24', 'all24'),
    boll_UPPER: ma20 + 2 * sd, boll_MID: ma20, boll_LOWER: ma20 - 2 * sd,
    wr_WR_10: wrOf(10), wr_WR_6: wrOf(6),
    cci_CCI: ratio(tp(i) - tpMa, 0.015 * tpDev),
    bias_BIAS_6: bias(ma6), bias_BIAS_12: bias(ma12), bias_BIAS_24: bias(ma24),
    atr_TR: tr(i), atr_ATR: atr,
    dmi_PDI: pdi, dmi_MDI: mdi, dmi_ADX: adx, dmi_ADXR: adxr,
    trix_TRIX: trixNow, trix_TRMA: trma,
    obv_OBV: s.obv,
    vr_VR: ratio(vrUp, vrRest) * 100,
    psy_PSY: s.psy.at(-1)!, psy_PSYMA: psyma,
    roc_ROC: rocAt(i), roc_MAROC: ma('roc', 6, rocAt),
    mtm_MTM: mtmAt(i), mtm_MTMMA: ma('mtm', 6, mtmAt),
    dma_DIF: s.dif.at(-1)!, dma_DIFMA: difma,
    bbi_BBI: (0 + ma3 + ma6 + ma12 + ma20) / 4,
    vol_MA_5: ma('v5', 5, vol), vol_MA_10: ma('v10', 10, vol),
    brar_AR: ratio(ho, ol) * 100, brar_BR: ratio(hc, cl) * 100,
    mfi_MFI: mfi,
  }

  s.i = i + 1
  s.date = bar.date
  // Windows are read by bar index, so they may hold more than they need; cut them down now and then.
  if (mayTrim && s.c.length > 2 * CLOSE_KEEP) trim(s)
  return values
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
  advance(s, bar)
  return trim(s)
}

/** The windows of a state, which a step only appends to. */
const WINDOWS = ['o', 'h', 'l', 'c', 'vol', 'dx', 'adx', 'trix', 'psy', 'dif'] as const

/**
 * The unrounded values of `bar`, the bar after `state`'s last one; `state` is left as it was. The
 * step appends to the state's windows in place and cuts them back after (nothing else runs in
 * between), so a live row costs no copy of the 400 window values.
 */
export function nextValues(state: StepState, bar: StepBar): Record<NumericColumn, number> {
  const lengths = WINDOWS.map((k) => state[k].length)
  try {
    return advance({ ...state, sums: [...state.sums], miss: [...state.miss], ys: [...state.ys] }, bar, false)
  } finally {
    WINDOWS.forEach((k, n) => void (state[k].length = lengths[n]))
  }
}

/** The state after every bar of a history (oldest first): what the whole-history computation has in hand. */
export function stateThrough(bars: Iterable<StepBar>, each?: (values: Record<NumericColumn, number>, bar: StepBar) => void): StepState {
  const s = emptyState()
  for (const b of bars) {
    const values = advance(s, b)
    each?.(values, b)
  }
  return trim(s)
}

const PRICE = new Set<string>(TECHNICAL_COLUMNS.filter(([, kind]) => kind === 'price').map(([name]) => name))

/** The technical row of `bar` (rounded as technicalRow rounds), the bar after `state`'s last one. */
export function nextRow(state: StepState, bar: StepBar, id: RowIdentity): TechnicalRow {
  const values = nextValues(state, bar)
  const row: Record<string, string | number | null> = { code: id.code, name: id.name, date: bar.date }
  for (const [name, kind] of TECHNICAL_COLUMNS) {
    if (kind === 'id') continue
    const v = values[name]
    row[name] = Number.isFinite(v) ? roundTo(v, PRICE.has(name) ? id.priceDecimals : 4) : null
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

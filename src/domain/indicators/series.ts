/**
 * The Tongdaxin primitives the indicators are written in (MyTT's MA, SUM, STD, AVEDEV, HHV, LLV,
 * REF, EMA, SMA), over Float64Array series. `NaN` marks a value that is not defined: before a
 * window is full, or where an input was missing. A window that holds a `NaN` gives `NaN`; the
 * recursive averages carry their last value over a `NaN` input instead.
 */

/** A series of numbers, one per bar, oldest first; `NaN` where undefined. */
export type Series = Float64Array

/** A series of `n` undefined values. */
const undefinedSeries = (n: number): Series => new Float64Array(n).fill(Number.NaN)

/** REF(X, k): the value `k` bars back. */
export function ref(x: Series, k: number): Series {
  const out = undefinedSeries(x.length)
  for (let i = k; i < x.length; i++) out[i] = x[i - k]
  return out
}

/**
 * SUM(X, n): the sum of the last `n` values, from bar n − 1. Kept as a running sum (linear in the
 * length, so MA250 over ten years stays cheap) and re-added from scratch every `n` bars so that
 * rounding never builds up; a window holding a `NaN` is `NaN`.
 */
export function sum(x: Series, n: number): Series {
  const out = undefinedSeries(x.length)
  let s = 0
  let missing = 0
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    if (Number.isNaN(v)) missing++
    else s += v
    if (i >= n) {
      const old = x[i - n]
      if (Number.isNaN(old)) missing--
      else s -= old
    }
    if (i % n === n - 1 && missing === 0) {
      s = 0
      for (let j = i - n + 1; j <= i; j++) s += x[j]
    }
    if (i >= n - 1 && missing === 0) out[i] = s
  }
  return out
}

/** MA(X, n): the simple mean of the last `n` values. */
export function ma(x: Series, n: number): Series {
  const out = sum(x, n)
  for (let i = 0; i < out.length; i++) out[i] /= n
  return out
}

/** STD(X, n): the population standard deviation (divide by n) of the last `n` values. */
export function std(x: Series, n: number): Series {
  return windowed(x, n, (from, to) => {
    const m = meanOf(x, from, to)
    let s = 0
    for (let j = from; j < to; j++) s += (x[j] - m) * (x[j] - m)
    return Math.sqrt(s / n)
  })
}

/** AVEDEV(X, n): the mean absolute deviation from the mean of the last `n` values. */
export function avedev(x: Series, n: number): Series {
  return windowed(x, n, (from, to) => {
    const m = meanOf(x, from, to)
    let s = 0
    for (let j = from; j < to; j++) s += Math.abs(x[j] - m)
    return s / n
  })
}

/** HHV(X, n): the highest of the last `n` values. */
export function hhv(x: Series, n: number): Series {
  return windowed(x, n, (from, to) => {
    let m = x[from]
    for (let j = from + 1; j < to; j++) if (x[j] > m) m = x[j]
    return m
  })
}

/** LLV(X, n): the lowest of the last `n` values. */
export function llv(x: Series, n: number): Series {
  return windowed(x, n, (from, to) => {
    let m = x[from]
    for (let j = from + 1; j < to; j++) if (x[j] < m) m = x[j]
    return m
  })
}

/**
 * The recursive average Y = α·X + (1 − α)·Y′, seeded with the first defined X (no warm-up, as
 * Tongdaxin does); an undefined X leaves Y where it was.
 */
export function smooth(x: Series, alpha: number): Series {
  const out = undefinedSeries(x.length)
  let y = Number.NaN
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    if (!Number.isNaN(v)) y = Number.isNaN(y) ? v : alpha * v + (1 - alpha) * y
    out[i] = y
  }
  return out
}

/** EMA(X, n): α = 2 / (n + 1). */
export const ema = (x: Series, n: number): Series => smooth(x, 2 / (n + 1))

/** The Chinese SMA(X, n, m): α = m / n. */
export const sma = (x: Series, n: number, m = 1): Series => smooth(x, m / n)

/** A series computed bar by bar from other series' values at the same bar. */
export function map(n: number, f: (i: number) => number): Series {
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) out[i] = f(i)
  return out
}

/** a / b, undefined where b is 0. */
export const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b)

function meanOf(x: Series, from: number, to: number): number {
  let s = 0
  for (let j = from; j < to; j++) s += x[j]
  return s / (to - from)
}

/** f(from, to) over each full window [from, to) of `n` values without a `NaN`. */
function windowed(x: Series, n: number, f: (from: number, to: number) => number): Series {
  const out = undefinedSeries(x.length)
  let lastMissing = -1
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i])) lastMissing = i
    if (i >= n - 1 && lastMissing <= i - n) out[i] = f(i - n + 1, i + 1)
  }
  return out
}

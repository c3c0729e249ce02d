// @ts-check
/**
 * MA and MACD for the chart, written as src/domain/indicators/series.ts and macd.ts write them
 * (Tongdaxin as MyTT states it: EMA seeded with the first value, no warm-up; MACD bar =
 * 2 × (DIF − DEA)), operation for operation, so that over the same bars the page draws the values
 * /v1/technical computes (test/chart.test.ts holds them equal). /v1/technical gives one row, the
 * latest bar's, so the page computes the series itself from the bars /v1/kline sent.
 * `NaN` marks a value that is not defined (a window not yet full).
 */

/**
 * MA(X, n): the mean of the last `n` values, from bar n − 1. A running sum re-added from scratch
 * every `n` bars, as ours is, so the two agree to the last bit.
 * @param {ArrayLike<number>} x
 * @param {number} n
 * @returns {Float64Array}
 */
export function ma(x, n) {
  const out = new Float64Array(x.length).fill(Number.NaN)
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
  for (let i = 0; i < out.length; i++) out[i] /= n
  return out
}

/**
 * EMA(X, n): Y = α·X + (1 − α)·Y′ with α = 2 / (n + 1), seeded with the first defined X; an
 * undefined X leaves Y where it was.
 * @param {ArrayLike<number>} x
 * @param {number} n
 * @returns {Float64Array}
 */
export function ema(x, n) {
  const alpha = 2 / (n + 1)
  const out = new Float64Array(x.length).fill(Number.NaN)
  let y = Number.NaN
  for (let i = 0; i < x.length; i++) {
    const v = x[i]
    if (!Number.isNaN(v)) y = Number.isNaN(y) ? v : alpha * v + (1 - alpha) * y
    out[i] = y
  }
  return out
}

/**
 * MACD(12, 26, 9): DIF = EMA12 − EMA26, DEA = EMA(DIF, 9), bar = 2 × (DIF − DEA). Defined from bar 0.
 * @param {ArrayLike<number>} close
 * @returns {{ dif: Float64Array, dea: Float64Array, macd: Float64Array }}
 */
export function macd(close, short = 12, long = 26, signal = 9) {
  const fast = ema(close, short)
  const slow = ema(close, long)
  const dif = new Float64Array(close.length)
  for (let i = 0; i < dif.length; i++) dif[i] = fast[i] - slow[i]
  const dea = ema(dif, signal)
  const bar = new Float64Array(close.length)
  for (let i = 0; i < bar.length; i++) bar[i] = 2 * (dif[i] - dea[i])
  return { dif, dea, macd: bar }
}

// @ts-check
/**
 * /v1/kline's bars (8 string columns, newest first) as the chart's series: candles, volume,
 * MA5/10/20 and MACD, oldest first, one point per bar on one time axis.
 */
import { ma, macd } from './indicators.js'

/** The periods the page offers, in the order of its switch; the minute ones need a key of tier standard. */
export const PERIODS = ['day', 'week', 'month', 'm5', 'm30', 'm60']
export const MINUTE_PERIODS = ['m5', 'm30', 'm60']

/** The moving averages drawn over the candles. */
export const MA_WINDOWS = [5, 10, 20]

/** Red for a rise, green for a fall, as Chinese charting software draws them. */
export const COLORS = {
  up: '#e03b3b',
  down: '#1a9c5b',
  ma: { 5: '#d9a400', 10: '#c13fd1', 20: '#2f7ed8' },
  dif: '#d9a400',
  dea: '#2f7ed8',
}

/**
 * @typedef {{ date: string, open: string, last: string, high: string, low: string, volume: string }} BarRow
 * @typedef {string | number} Time
 * @typedef {{ time: Time, value?: number, color?: string }} Point
 */

/**
 * A number column, or NaN where it is empty (a channel that does not carry it).
 * @param {string | null | undefined} s
 */
const num = (s) => (s === '' || s == null ? Number.NaN : Number(s))

/**
 * A bar's time on the chart's axis: the day as `YYYY-MM-DD`; a minute bar's end (exchange time,
 * `YYYY-MM-DD HH:MM`) as seconds since 1970 read as if it were UTC, so the axis shows Beijing time
 * whatever the viewer's zone.
 * @param {string} date
 * @returns {Time}
 */
export function timeOf(date) {
  if (date.length === 10) return date
  const [d, t] = date.split(' ')
  const [y, m, day] = d.split('-').map(Number)
  const [h, min] = t.split(':').map(Number)
  return Date.UTC(y, m - 1, day, h, min) / 1000
}

/**
 * Points of a computed series; an undefined value (a window not yet full) is a gap that keeps the
 * bar's place on the axis.
 * @param {Time[]} times
 * @param {Float64Array} values
 * @param {(v: number) => string} [colorOf]
 * @returns {Point[]}
 */
function points(times, values, colorOf) {
  return times.map((time, i) => {
    const value = values[i]
    if (!Number.isFinite(value)) return { time }
    return colorOf ? { time, value, color: colorOf(value) } : { time, value }
  })
}

/**
 * Everything the chart draws for one answer of /v1/kline.
 * @param {BarRow[]} rows newest first, as /v1/kline sends them
 */
export function chartData(rows) {
  const bars = [...rows].reverse()
  const times = bars.map((b) => timeOf(b.date))
  const open = bars.map((b) => num(b.open))
  const close = Float64Array.from(bars, (b) => num(b.last))
  const candles = bars.map((b, i) => ({ time: times[i], open: open[i], high: num(b.high), low: num(b.low), close: close[i] }))
  const volume = bars.map((b, i) => {
    const value = num(b.volume)
    const color = close[i] >= open[i] ? COLORS.up : COLORS.down
    return Number.isFinite(value) ? { time: times[i], value, color } : { time: times[i] }
  })
  const m = macd(close)
  return {
    candles,
    volume,
    ma: Object.fromEntries(MA_WINDOWS.map((n) => [n, points(times, ma(close, n))])),
    macd: {
      dif: points(times, m.dif),
      dea: points(times, m.dea),
      bar: points(times, m.macd, (v) => (v >= 0 ? COLORS.up : COLORS.down)),
    },
  }
}

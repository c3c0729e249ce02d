/**
 * The shape of a trading day, shared by the daily generator (which needs the day's average
 * price before any minute exists) and the minute generator (which draws the path): when the
 * day's high and low are reached, and the piecewise-linear "skeleton" through open, extremes and
 * close. The minute path is a bridge around this skeleton, so the daily VWAP taken from the
 * skeleton is one the minutes can honour without contortions.
 */
import { hash, SALT } from './random'

/** Checkpoints (minute index 0 … n, price) of a day, ascending in time. */
export function checkpoints(seed: number, day: number, n: number, o: number, h: number, l: number, c: number): Array<[number, number]> {
  const cps: Array<[number, number]> = [[0, o], [n, c]]
  const th = 1 + (hash(seed, SALT.extremes, day) % (n - 1))
  let tl = 1 + (hash(seed, SALT.extremes, day, 1) % (n - 1))
  if (tl === th) tl = th === n - 1 ? th - 1 : th + 1
  if (h > Math.max(o, c)) cps.push([th, h])
  if (l < Math.min(o, c)) cps.push([tl, l])
  return cps.sort((a, b) => a[0] - b[0])
}

/** Time-average of the piecewise-linear skeleton through the checkpoints. */
export function skeletonAverage(cps: Array<[number, number]>): number {
  let area = 0
  for (let k = 0; k + 1 < cps.length; k++) area += ((cps[k + 1][0] - cps[k][0]) * (cps[k][1] + cps[k + 1][1])) / 2
  return area / cps[cps.length - 1][0]
}

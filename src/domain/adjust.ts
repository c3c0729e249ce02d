/**
 * Price adjustment for corporate actions (除权除息). For an action e with ex-date E, cash c and
 * bonus b per share, and P the raw close of the last bar before E, the exchange's reference price
 * is (P − c) / (1 + b), so the action scales prices by
 *
 *   k_e = ((P − c) / (1 + b)) / P
 *
 * and, for a bar on date d:  qfq(d) = raw(d) × Π k_e over E > d   (forward: today's prices stay)
 *                            hfq(d) = raw(d) × Π 1/k_e over E ≤ d (backward: the first bar stays)
 *                            nofq(d) = raw(d)
 * rounded to 2 decimals. The products run in ascending ex-date order, the order the exchange
 * applied them, so every client that multiplies the same way gets the same last decimal.
 */

export const FQ_MODES = ['qfq', 'hfq', 'nofq'] as const
export type Fq = (typeof FQ_MODES)[number]

/** What adjustment needs of a history: bar dates (YYYYMMDD numbers, ascending), raw closes, actions. */
export interface AdjustInput {
  t: readonly number[]
  c: readonly number[]
  /** [ex-date `YYYY-MM-DD`, cash per share, bonus shares per share], ascending by ex-date. */
  act: ReadonlyArray<readonly [string, number, number]>
}

/** An action with its factor, ready to apply. */
export interface AdjustEvent {
  exDate: string
  /** Ex-date as a YYYYMMDD number, comparable with the bar dates. */
  exNum: number
  cash: number
  bonus: number
  /** The last raw close before the ex-date. */
  prevClose: number
  k: number
}

/** Rounds a positive price half up to 2 decimals (the epsilon absorbs binary noise such as 1.005). */
export function roundPrice(x: number): number {
  return Math.round(x * 100 + 1e-6) / 100
}

const num = (date: string) => Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10))

/**
 * The actions that apply to the bars, with their factors. An action is left out when there is no
 * bar before its ex-date (nothing to take P from: it predates the stored history) or no bar on or
 * after it (announced but not yet happened in the data).
 */
export function adjustEvents(x: AdjustInput): AdjustEvent[] {
  const out: AdjustEvent[] = []
  const n = x.t.length
  if (n === 0) return out
  for (const [exDate, cash, bonus] of x.act) {
    const e = num(exDate)
    if (e > x.t[n - 1]) continue
    const i = lastBefore(x.t, e)
    if (i < 0) continue
    const P = x.c[i]
    const k = (P - cash) / (1 + bonus) / P
    if (!(k > 0) || !Number.isFinite(k)) continue
    out.push({ exDate, exNum: e, cash, bonus, prevClose: P, k })
  }
  return out
}

/** Index of the last entry of ascending `t` strictly below `x`, -1 if none. */
function lastBefore(t: readonly number[], x: number): number {
  let lo = 0
  let hi = t.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (t[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/** The multiplier of a bar dated `d` (YYYYMMDD number) under `fq`. */
export function factorOn(events: readonly AdjustEvent[], fq: Fq, d: number): number {
  let f = 1
  if (fq === 'qfq') {
    for (const e of events) if (e.exNum > d) f *= e.k
  } else if (fq === 'hfq') {
    for (const e of events) if (e.exNum <= d) f /= e.k
  }
  return f
}

/**
 * Multipliers for the bars with index in [from, to). The factor only changes at an ex-date, so
 * it is recomputed once per stretch between ex-dates, not per bar.
 */
export function factors(x: AdjustInput, fq: Fq, from = 0, to = x.t.length): Float64Array {
  const out = new Float64Array(Math.max(0, to - from))
  if (fq === 'nofq') return out.fill(1)
  const events = adjustEvents(x)
  let next = 0
  let f = 0
  for (let i = from; i < to; i++) {
    const d = x.t[i]
    if (i === from || (next < events.length && d >= events[next].exNum)) {
      f = factorOn(events, fq, d)
      next = events.findIndex((e) => e.exNum > d)
      if (next < 0) next = events.length
    }
    out[i - from] = f
  }
  return out
}

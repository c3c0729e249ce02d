/**
 * Chip (cost) distribution, the CYQ algorithm of Eastmoney's chart as upstreams.md §5.15 describes
 * it: each day's turnover replaces that share of the old chips, and the new chips spread over the
 * day's price range as a triangle peaking at the day's average price. Checked against the copy of
 * Eastmoney's front-end code in akshare (akshare/stock_feature/stock_cyq_em.py): same grid, decay,
 * one-price weighting, cost walk and profit test; we also forgive float noise at bucket edges.
 * Pure: bars in, numbers out.
 */

/** What the algorithm reads of a daily bar (prices adjusted alike, turnover in percent of float shares). */
export interface ChipBar {
  date: string
  open: number
  high: number
  low: number
  close: number
  /** Turnover rate in percent. */
  turnover: number
}

export interface ChipOptions {
  /** Price buckets (Eastmoney: 150). */
  buckets?: number
  /** Price decimals for bucket prices and costs (2 for stocks). */
  decimals?: number
}

/** One price bucket and the fraction of all chips held at it. */
interface ChipBucket {
  price: number
  /** Fraction of all chips, 0..1; the buckets sum to 1. */
  share: number
}

export interface ChipResult {
  /** The day the distribution is for (the last bar's date). */
  date: string
  /** That day's close. */
  close: number
  /** Fraction of chips bought at or below the close, 0..1 (获利比例). */
  profitRatio: number
  /** The median cost (平均成本 as Eastmoney computes it). */
  averageCost: number
  /** Cost range holding the middle 90% of chips: [cost at 5%, cost at 95%]. */
  range90: [number, number]
  /** (high − low) / (high + low) of the 90% range, 0..1. */
  concentration90: number
  range70: [number, number]
  concentration70: number
  /** Every bucket, lowest price first. */
  distribution: ChipBucket[]
}

export const CHIP_BUCKETS = 150

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d
/** Index arithmetic on prices: forgive float noise like 2.9999999 buckets. */
const EPS = 1e-9

/**
 * The distribution as of the last bar of `bars` (oldest first), built over all of them. Throws on
 * an empty series; a bar with high below low or negative turnover is the caller's bug.
 */
export function chipDistribution(bars: readonly ChipBar[], opts: ChipOptions = {}): ChipResult {
  const n = opts.buckets ?? CHIP_BUCKETS
  const decimals = opts.decimals ?? 2
  if (bars.length === 0) throw new RangeError('chip distribution needs at least one bar')
  if (n < 2) throw new RangeError('chip distribution needs at least two buckets')

  let maxP = -Infinity
  let minP = Infinity
  for (const b of bars) {
    if (b.high < b.low) throw new RangeError(`high below low on ${b.date}`)
    maxP = Math.max(maxP, b.high)
    minP = Math.min(minP, b.low)
  }
  const step = Math.max(10 ** -decimals, (maxP - minP) / (n - 1))
  const priceAt = (k: number) => minP + k * step
  const chips = new Array<number>(n).fill(0)

  for (const b of bars) {
    const t = Math.min(1, Math.max(0, b.turnover) / 100)
    const avg = (b.open + b.close + b.high + b.low) / 4
    for (let k = 0; k < n; k++) chips[k] *= 1 - t
    if (b.high === b.low) {
      // A one-price day: all its chips sit in one bucket, weighted as the upstream weighs them.
      const k = Math.min(n - 1, Math.floor((avg - minP) / step + EPS))
      chips[k] += (t * (n - 1)) / 2
      continue
    }
    const peak = 2 / (b.high - b.low)
    const from = Math.max(0, Math.ceil((b.low - minP) / step - EPS))
    const to = Math.min(n - 1, Math.floor((b.high - minP) / step + EPS))
    for (let k = from; k <= to; k++) {
      const p = priceAt(k)
      if (p <= avg) chips[k] += avg === b.low ? t * peak : (t * peak * (p - b.low)) / (avg - b.low)
      else chips[k] += b.high === avg ? t * peak : (t * peak * (b.high - p)) / (b.high - avg)
    }
  }

  const last = bars[bars.length - 1]
  const total = chips.reduce((s, v) => s + v, 0)
  const prices = chips.map((_, k) => round(priceAt(k), decimals))
  /** The first bucket whose running total would pass `q` of all chips. */
  const costAt = (q: number) => {
    let sum = 0
    for (let k = 0; k < n; k++) {
      if (sum + chips[k] > q * total) return prices[k]
      sum += chips[k]
    }
    return prices[n - 1]
  }
  const concentration = (a: number, b: number) => (a + b === 0 ? 0 : (b - a) / (a + b))

  let below = 0
  for (let k = 0; k < n; k++) if (priceAt(k) <= last.close + EPS) below += chips[k]
  const range90: [number, number] = [costAt(0.05), costAt(0.95)]
  const range70: [number, number] = [costAt(0.15), costAt(0.85)]
  return {
    date: last.date,
    close: last.close,
    profitRatio: total > 0 ? below / total : 0,
    averageCost: costAt(0.5),
    range90,
    concentration90: concentration(...range90),
    range70,
    concentration70: concentration(...range70),
    distribution: prices.map((price, k) => ({ price, share: total > 0 ? chips[k] / total : 0 })),
  }
}

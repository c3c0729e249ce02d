/**
 * The trades of one playbook on one stock, from its masks (pure). The execution rules:
 *
 * - A signal is a close (row i) where the entry mask holds; the buy is at the next session's open
 *   (row i + 1). When that open is at limit-up the stock cannot be bought: the signal is lost
 *   (counted), and a later signal may still enter.
 * - One position per stock at a time: signals while it is held are ignored.
 * - The exit rule is checked on each close from the entry day on (the sell mask: the exit
 *   expression holds or the hold expression fails; the stop-loss, take-profit and max-days limits
 *   on the close against the entry price); the sale is at the next session's open.
 * - Fixed holding periods sell at the open H sessions after the entry.
 * - A sale due on an open at limit-down cannot happen: it waits for the next open that is not.
 * - A sale that the data ends before is an open trade: not a sample.
 * - Rows are the stock's own trading days: over a suspension "the next session" is the day it
 *   trades again, and a holding period counts sessions it traded.
 *
 * Returns are net of costs: (sell × (1 − commission − stamp duty)) / (buy × (1 + commission)) − 1.
 */
export interface Prices {
  open: ArrayLike<number>
  close: ArrayLike<number>
  upAtOpen: ArrayLike<number>
  downAtOpen: ArrayLike<number>
}

export interface ExitLimits {
  /** Percent, negative; null for none. */
  stop_loss_pct: number | null
  take_profit_pct: number | null
  max_days: number
}

export interface Costs {
  /** Fractions, not percent. */
  commission: number
  stampDuty: number
}

interface Sale {
  /** Row of the sale's open. */
  at: number
  /** Net return, a fraction. */
  ret: number
  /** Sessions the sale waited at limit-down. */
  waited: number
}

interface Trade {
  /** Row of the signal close and of the buy's open. */
  signal: number
  entry: number
  /** One per holding period; null when the data ends first. */
  fixed: Array<Sale | null>
  /** The exit rule's sale; null when the data ends first. */
  rule: Sale | null
}

export interface Simulation {
  trades: Trade[]
  /** Signals lost because the next open was at limit-up. */
  blockedUp: number
}

/** Net return of buying at `buy` and selling at `sell` after costs. */
export const netReturn = (buy: number, sell: number, c: Costs) => (sell * (1 - c.commission - c.stampDuty)) / (buy * (1 + c.commission)) - 1

/** The first row at or after `from` whose open is not at limit-down, or -1 when there is none. */
function saleRow(p: Prices, from: number, n: number): number {
  for (let x = from; x < n; x++) if (!p.downAtOpen[x]) return x
  return -1
}

export function simulate(p: Prices, entry: ArrayLike<number>, sell: ArrayLike<number>, limits: ExitLimits, periods: readonly number[], costs: Costs): Simulation {
  const n = p.open.length
  const trades: Trade[] = []
  let blockedUp = 0
  let free = 0
  for (let i = 0; i + 1 < n; i++) {
    if (i < free || !entry[i]) continue
    const e = i + 1
    if (p.upAtOpen[e]) {
      blockedUp++
      continue
    }
    const buy = p.open[e]
    const sale = (from: number): Sale | null => {
      const x = saleRow(p, from, n)
      return x < 0 ? null : { at: x, ret: netReturn(buy, p.open[x], costs), waited: x - from }
    }
    const fixed = periods.map((h) => sale(e + h))
    let due = -1
    for (let k = e; k < n; k++) {
      const r = (p.close[k] / buy - 1) * 100
      const stop = limits.stop_loss_pct !== null && r <= limits.stop_loss_pct
      const take = limits.take_profit_pct !== null && r >= limits.take_profit_pct
      if (sell[k] || stop || take || k - e + 1 >= limits.max_days) {
        due = k + 1
        break
      }
    }
    const rule = due < 0 ? null : sale(due)
    trades.push({ signal: i, entry: e, fixed, rule })
    // The next entry can come from the close of the sale's day on; none after an open trade.
    free = rule ? rule.at : n
  }
  return { trades, blockedUp }
}

/**
 * The daily returns of a trade held from its entry to sale row `at`, net of costs, keyed by row:
 * open → close on the entry day, close → close in between, previous close → open on the sale day.
 * Their product is the trade's net return.
 */
export function dailyReturns(p: Prices, entry: number, at: number, c: Costs): Array<[row: number, ret: number]> {
  const out: Array<[number, number]> = [[entry, p.close[entry] / (p.open[entry] * (1 + c.commission)) - 1]]
  for (let k = entry + 1; k < at; k++) out.push([k, p.close[k] / p.close[k - 1] - 1])
  out.push([at, (p.open[at] * (1 - c.commission - c.stampDuty)) / p.close[at - 1] - 1])
  return out
}

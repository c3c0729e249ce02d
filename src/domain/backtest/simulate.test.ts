import { describe, expect, it } from 'vitest'
import { dailyReturns, netReturn, simulate, type Costs } from './simulate'

const COSTS: Costs = { commission: 0.00025, stampDuty: 0.0005 }
/** The net return worked out by hand: sell × (1 − 0.025% − 0.05%) over buy × (1 + 0.025%), minus 1. */
const net = (buy: number, sell: number) => (sell * 0.99925) / (buy * 1.00025) - 1
const NO_LIMITS = { stop_loss_pct: null, take_profit_pct: null, max_days: 20 }

//            row:  0     1     2     3     4     5     6
const open = [10, 10, 11, 12, 11, 13, 14]
const close = [10, 10.5, 11.5, 11, 12, 13.5, 14]
const flat = (n: number, set: number[] = []) => Uint8Array.from({ length: n }, (_, i) => (set.includes(i) ? 1 : 0))
const prices = (up: number[] = [], down: number[] = []) => ({ open, close, upAtOpen: flat(7, up), downAtOpen: flat(7, down) })

describe('simulate', () => {
  it('buys at the next open, sells at the open after the exit close, and ignores signals while holding', () => {
    // Signals on the closes of rows 0, 2 (held: ignored) and 4; exit signal on the close of row 3.
    const sim = simulate(prices(), flat(7, [0, 2, 4]), flat(7, [3]), NO_LIMITS, [2, 4], COSTS)
    expect(sim.blockedUp).toBe(0)
    expect(sim.trades).toHaveLength(2)
    const [a, b] = sim.trades
    // Bought at row 1's open (10); the exit close is row 3, so sold at row 4's open (11).
    expect(a).toMatchObject({ signal: 0, entry: 1, rule: { at: 4, waited: 0 } })
    expect(a.rule!.ret).toBeCloseTo(net(10, 11), 12)
    expect(a.rule!.ret).toBeCloseTo(0.0989, 4)
    // Fixed periods: 2 sessions → row 3's open (12), 4 sessions → row 5's open (13).
    expect(a.fixed.map((s) => s?.at)).toEqual([3, 5])
    expect(a.fixed[0]!.ret).toBeCloseTo(net(10, 12), 12)
    expect(a.fixed[1]!.ret).toBeCloseTo(net(10, 13), 12)
    // The signal on row 4 (the sale's day) enters at row 5's open; the data ends before any sale.
    expect(b).toMatchObject({ signal: 4, entry: 5, rule: null, fixed: [null, null] })
  })

  it('cannot buy at limit-up: the signal is lost and a later one enters', () => {
    const sim = simulate(prices([1]), flat(7, [0, 1]), flat(7, [3]), NO_LIMITS, [2], COSTS)
    expect(sim.blockedUp).toBe(1)
    expect(sim.trades.map((t) => t.entry)).toEqual([2])
    expect(sim.trades[0].rule!.ret).toBeCloseTo(net(11, 11), 12)
  })

  it('cannot sell at limit-down: the sale waits for the next open that is not', () => {
    // Exit close row 3 → due at row 4, whose open is at limit-down (and so is row 5's): sold at row 6 (14).
    const sim = simulate(prices([], [4, 5]), flat(7, [0]), flat(7, [3]), NO_LIMITS, [3], COSTS)
    const t = sim.trades[0]
    expect(t.rule).toMatchObject({ at: 6, waited: 2 })
    expect(t.rule!.ret).toBeCloseTo(net(10, 14), 12)
    // The 3-session sale was due at row 4 too, and waits the same way.
    expect(t.fixed[0]).toMatchObject({ at: 6, waited: 2 })
  })

  it('applies the stop-loss, take-profit and max-days limits on the close against the entry price', () => {
    // Entry at 10 (row 1); row 2 closes at 11.5 (+15%): take profit at 12% → sold at row 3's open.
    const take = simulate(prices(), flat(7, [0]), flat(7), { ...NO_LIMITS, take_profit_pct: 12 }, [2], COSTS)
    expect(take.trades[0].rule!.at).toBe(3)
    // At 16% it first triggers on row 4's close (12, +20%): sold at row 5's open.
    expect(simulate(prices(), flat(7, [0]), flat(7), { ...NO_LIMITS, take_profit_pct: 16 }, [2], COSTS).trades[0].rule!.at).toBe(5)
    // A 5% take profit triggers on row 1's own close (10.5): sold at row 2's open.
    expect(simulate(prices(), flat(7, [0]), flat(7), { ...NO_LIMITS, take_profit_pct: 5 }, [2], COSTS).trades[0].rule!.at).toBe(2)
    // max_days 2: held rows 1 and 2, sold at row 3's open, like the 2-session fixed period.
    const max = simulate(prices(), flat(7, [0]), flat(7), { ...NO_LIMITS, max_days: 2 }, [2], COSTS).trades[0]
    expect(max.rule!.at).toBe(3)
    expect(max.rule!.ret).toBe(max.fixed[0]!.ret)
    // A stop at -1% never triggers on this rising stock.
    expect(simulate(prices(), flat(7, [0]), flat(7), { ...NO_LIMITS, stop_loss_pct: -1 }, [2], COSTS).trades[0].rule).toBeNull()
  })

  it('daily returns compound to the net return of the trade', () => {
    const days = dailyReturns(prices(), 1, 4, COSTS)
    expect(days.map(([row]) => row)).toEqual([1, 2, 3, 4])
    expect(days.reduce((eq, [, r]) => eq * (1 + r), 1) - 1).toBeCloseTo(netReturn(10, 11, COSTS), 12)
  })
})

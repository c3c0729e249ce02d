import { describe, expect, it } from 'vitest'
import type { Playbook } from '../../data/playbooks'
import { compilePlaybook, emptyPartial, evidenceOf, mergePartial, runStock } from './engine'
import { stockSeries } from './series'

// A made-up SH main-board stock of 30 sessions, the playbook "buy after a day up more than 5%,
// sell after a day down more than 3% or 5 sessions held", and every figure of its evidence worked
// out by hand below.
//
//   day 10  close 10.60 (+6%)            signal → buy day 11's open 10.80
//   day 13  close 10.80 (−3.6%)          exit signal → sell day 14's open 10.50
//   day 20  close 10.89 (+10%)           signal, but day 21 opens at limit-up 11.98: cannot buy
//   day 21  close 11.98 (+10%)           signal → buy day 22's open 11.98
//   day 26  5th session held             sale due at day 27's open, which is at limit-down 10.78:
//                                        it waits for day 28's open 10.78
const BARS: Array<[open: number, close: number]> = [
  ...Array.from({ length: 10 }, (): [number, number] => [10, 10]),
  [10, 10.6], [10.8, 11], [11, 11.2], [11.2, 10.8], [10.5, 10.2], [10.2, 10], [9.9, 9.9], [9.9, 9.9], [9.9, 9.9], [9.9, 9.9],
  [9.9, 10.89], [11.98, 11.98], [11.98, 11.98], [11.98, 11.98], [11.98, 11.98], [11.98, 11.98], [11.98, 11.98], [10.78, 10.78], [10.78, 10.78], [10.78, 10.78],
]
const day = (i: number) => new Date(Date.UTC(2026, 2, 2) + i * 86_400_000).toISOString().slice(0, 10)
const RAW = {
  t: BARS.map((_, i) => Number(day(i).replaceAll('-', ''))),
  o: BARS.map(([o]) => o),
  h: BARS.map(([o, c]) => Math.max(o, c)),
  l: BARS.map(([o, c]) => Math.min(o, c)),
  c: BARS.map(([, c]) => c),
  vol: BARS.map(() => 1000),
  amt: BARS.map(() => null),
  act: [] as Array<[string, number, number]>,
}

const PLAYBOOK: Playbook = {
  id: 'hand', name: 'hand', theme: 'momentum', description: '', signals: [{ name: 'up 5%', expr: 'ChangePCT > 5' }],
  stages: {
    entry: { rule: '', expr: 'ChangePCT > 5' },
    hold: { rule: '', expr: 'ClosePrice > 0' },
    exit: { rule: '', expr: 'ChangePCT < -3', stop_loss_pct: null, take_profit_pct: null, max_days: 5 },
  },
  periods: [2, 5],
}

const COSTS = { commission: 0.00025, stampDuty: 0.0005 }
const net = (buy: number, sell: number) => (sell * 0.99925) / (buy * 1.00025) - 1
const pct2 = (x: number) => Math.round(x * 10_000) / 100
/** The benchmark: flat at 4,000, so its return over every window is 0. */
const INDEX = new Map(BARS.map((_, i) => [day(i), { open: 4000, close: 4000 }]))

describe('backtest engine on a hand-made history', () => {
  const series = stockSeries('sh600000', RAW, 0, 'sh-main', '浦发银行')

  it('flags opens at the limit prices from the previous close', () => {
    expect(Array.from(series.upAtOpen).flatMap((v, i) => (v ? [i] : []))).toEqual([21])
    expect(Array.from(series.downAtOpen).flatMap((v, i) => (v ? [i] : []))).toEqual([27])
    expect(series.table.column('ChangePCT')[10]).toBeCloseTo(6, 4)
  })

  it('trades, returns, drawdown and losses avoided are the ones worked out by hand', () => {
    const p = emptyPartial(2)
    runStock(compilePlaybook(PLAYBOOK), series, INDEX, COSTS, p)
    const e = evidenceOf(p, PLAYBOOK.periods, INDEX)
    expect(e).toMatchObject({ signals: 3, samples: 2, blocked_limit_up: 1, open_at_end: 0, first_entry: day(11), last_entry: day(22) })
    // Two sales waited at limit-down: trade 2's exit-rule sale and its 5-session sale, both due on day 27.
    expect(e.sales_delayed_limit_down).toBe(2)
    const [two, five] = e.periods
    // 2 sessions: 10.80 → 11.20 (day 13's open); 11.98 → 11.98 (day 24's open).
    expect(two).toMatchObject({ sessions: 2, samples: 2, win_rate_pct: 50, mean_return_pct: pct2((net(10.8, 11.2) + net(11.98, 11.98)) / 2) })
    // 5 sessions: 10.80 → 9.90 (day 16's open); 11.98 → 10.78 (due day 27, sold day 28).
    expect(five).toMatchObject({ sessions: 5, samples: 2, win_rate_pct: 0, mean_return_pct: pct2((net(10.8, 9.9) + net(11.98, 10.78)) / 2) })
    // The median of two is their mean, from returns kept to 0.01 %: right to 0.01.
    expect(Math.abs(five.median_return_pct! - ((net(10.8, 9.9) + net(11.98, 10.78)) / 2) * 100)).toBeLessThanOrEqual(0.01)
    expect(five.index).toEqual({ samples: 2, win_rate_pct: 0, mean_return_pct: 0, median_return_pct: 0 })
    // Exit rule: 10.80 → 10.50 after 3 sessions; 11.98 → 10.78 after 6 (5 held, one waiting).
    expect(e.exit_rule).toMatchObject({ samples: 2, win_rate_pct: 0, mean_return_pct: pct2((net(10.8, 10.5) + net(11.98, 10.78)) / 2), mean_sessions_held: 4.5 })
    // Saved against holding 5 sessions: trade 1 sold at 10.50 instead of 9.90; trade 2 the same sale.
    const saved1 = net(10.8, 10.5) - net(10.8, 9.9)
    expect(e.losses_avoided).toEqual({ samples: 2, mean_saved_pct: pct2(saved1 / 2), losing_holds: 2, mean_saved_on_losing_holds_pct: pct2(saved1 / 2), exit_better_share_pct: 50 })
    // Drawdown: the peak is day 12's close of trade 1 (11.20 over a cost-laden 10.80 buy); the
    // trough is the end, after trade 1's sale at 10.50 and trade 2's loss 11.98 → 10.78.
    const trough = ((10.5 * 0.99925) / 11.2) * (1 / 1.00025) * (10.78 / 11.98) * 0.99925
    expect(e.max_drawdown_pct).toBe(pct2(trough - 1))
    expect(e.index_max_drawdown_pct).toBe(0)
  })

  it('two stocks merged give the figures of both', () => {
    const a = emptyPartial(2)
    const b = emptyPartial(2)
    const c = compilePlaybook(PLAYBOOK)
    runStock(c, series, INDEX, COSTS, a)
    runStock(c, stockSeries('sh600001', RAW, 0, 'sh-main', ''), INDEX, COSTS, b)
    mergePartial(a, b)
    const e = evidenceOf(a, PLAYBOOK.periods, INDEX)
    expect(e).toMatchObject({ signals: 6, samples: 4, blocked_limit_up: 2, periods: [{ samples: 4, win_rate_pct: 50 }, { samples: 4 }] })
  })
})

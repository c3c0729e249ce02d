/**
 * The backtest engine (pure): compiles the playbooks, runs them over one stock's series into a
 * partial that merges with others, and turns the merged partial into each playbook's evidence.
 * The job (src/jobs/playbook-backtest.ts) feeds it one chunk of stocks at a time.
 */
import type { Playbook } from '../../data/playbooks'
import { evaluate, ExpressionError, parseExpression, type SetExpr } from '../screen'
import { BACKTEST_FACTORS, type StockSeries } from './series'
import { dailyReturns, simulate, type Costs } from './simulate'
import type { PlaybookEvidence } from './evidence'
import { addReturn, emptyStats, maxDrawdownPct, mergeStats, pct, summarize, type ReturnStats } from './stats'

export interface CompiledPlaybook {
  playbook: Playbook
  entry: SetExpr
  hold: SetExpr
  exit: SetExpr
}

const FACTOR_SET = new Set(BACKTEST_FACTORS)

/** Set functions that rank across rows: over one stock's days they would rank against the future. */
function crossSectional(e: SetExpr): boolean {
  if (e.type === 'top' || e.type === 'bottom') return true
  if (e.type === 'intersect' || e.type === 'union') return e.sets.some(crossSectional)
  if (e.type === 'exclude') return crossSectional(e.from) || crossSectional(e.minus)
  return false
}

/** Parses one playbook expression against the backtest's factors; throws naming the playbook and stage. */
export function compileExpression(id: string, stage: string, src: string): SetExpr {
  let tree: SetExpr
  try {
    tree = parseExpression(src, { factors: FACTOR_SET })
  } catch (e) {
    if (e instanceof ExpressionError) throw new Error(`playbook ${id} ${stage}: at position ${e.pos}: ${e.message}`)
    throw e
  }
  if (crossSectional(tree)) throw new Error(`playbook ${id} ${stage}: top() and bottom() rank across stocks and cannot be backtested per stock`)
  return tree
}

export function compilePlaybook(p: Playbook): CompiledPlaybook {
  return {
    playbook: p,
    entry: compileExpression(p.id, 'entry', p.stages.entry.expr),
    hold: compileExpression(p.id, 'hold', p.stages.hold.expr),
    exit: compileExpression(p.id, 'exit', p.stages.exit.expr),
  }
}

/** A benchmark index's prices by date. */
export type IndexPrices = ReadonlyMap<string, { open: number; close: number }>

/** One playbook's figures over some stocks; partials of different stocks merge with {@link mergePartial}. */
export interface PlaybookPartial {
  signals: number
  entries: number
  blocked_up: number
  /** Sales (fixed or by the rule) that waited at least one session at limit-down. */
  waited_down: number
  /** Positions the data ended before the exit rule sold. */
  open: number
  first_entry: string | null
  last_entry: string | null
  fixed: ReturnStats[]
  fixed_index: ReturnStats[]
  rule: ReturnStats
  rule_index: ReturnStats
  rule_sessions: number
  /** The exit rule against holding to the end of the longest period, per trade where both sold. */
  avoided: { n: number; sum: number; better: number; losers: number; losers_sum: number }
  /** Per date: sum and count of the day's returns of the positions held (exit rule). */
  curve: Record<string, [number, number]>
}

export function emptyPartial(periods: number): PlaybookPartial {
  return {
    signals: 0, entries: 0, blocked_up: 0, waited_down: 0, open: 0, first_entry: null, last_entry: null,
    fixed: Array.from({ length: periods }, emptyStats), fixed_index: Array.from({ length: periods }, emptyStats),
    rule: emptyStats(), rule_index: emptyStats(), rule_sessions: 0,
    avoided: { n: 0, sum: 0, better: 0, losers: 0, losers_sum: 0 },
    curve: {},
  }
}

const minDate = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b)
const maxDate = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b)

/** Adds `b` into `a`. */
export function mergePartial(a: PlaybookPartial, b: PlaybookPartial): void {
  a.signals += b.signals
  a.entries += b.entries
  a.blocked_up += b.blocked_up
  a.waited_down += b.waited_down
  a.open += b.open
  a.first_entry = minDate(a.first_entry, b.first_entry)
  a.last_entry = maxDate(a.last_entry, b.last_entry)
  b.fixed.forEach((s, i) => mergeStats(a.fixed[i], s))
  b.fixed_index.forEach((s, i) => mergeStats(a.fixed_index[i], s))
  mergeStats(a.rule, b.rule)
  mergeStats(a.rule_index, b.rule_index)
  a.rule_sessions += b.rule_sessions
  for (const k of ['n', 'sum', 'better', 'losers', 'losers_sum'] as const) a.avoided[k] += b.avoided[k]
  for (const [d, [s, n]] of Object.entries(b.curve)) {
    const c = a.curve[d]
    if (c) {
      c[0] += s
      c[1] += n
    } else a.curve[d] = [s, n]
  }
}

/** The index's open-to-open return between two dates, or undefined when it lacks either. */
function indexReturn(index: IndexPrices, from: string, to: string): number | undefined {
  const a = index.get(from)
  const b = index.get(to)
  return a && b ? b.open / a.open - 1 : undefined
}

/** Runs one compiled playbook over one stock's series, adding its trades to `into`. */
export function runStock(c: CompiledPlaybook, s: StockSeries, index: IndexPrices, costs: Costs, into: PlaybookPartial): void {
  const entry = evaluate(c.entry, s.table)
  const hold = evaluate(c.hold, s.table)
  const exit = evaluate(c.exit, s.table)
  const sell = new Uint8Array(s.table.size)
  for (let i = 0; i < sell.length; i++) sell[i] = exit[i] || !hold[i] ? 1 : 0
  for (let i = 0; i + 1 < entry.length; i++) into.signals += entry[i]
  const periods = c.playbook.periods
  const sim = simulate(s, entry, sell, c.playbook.stages.exit, periods, costs)
  into.blocked_up += sim.blockedUp
  const longest = periods.length - 1
  for (const t of sim.trades) {
    const date = s.dates[t.entry]
    into.entries++
    into.first_entry = minDate(into.first_entry, date)
    into.last_entry = maxDate(into.last_entry, date)
    t.fixed.forEach((sale, i) => {
      if (!sale) return
      addReturn(into.fixed[i], sale.ret)
      if (sale.waited) into.waited_down++
      const r = indexReturn(index, date, s.dates[sale.at])
      if (r !== undefined) addReturn(into.fixed_index[i], r)
    })
    if (!t.rule) {
      into.open++
      continue
    }
    addReturn(into.rule, t.rule.ret)
    if (t.rule.waited) into.waited_down++
    into.rule_sessions += t.rule.at - t.entry
    const r = indexReturn(index, date, s.dates[t.rule.at])
    if (r !== undefined) addReturn(into.rule_index, r)
    const held = t.fixed[longest]
    if (held) {
      const saved = t.rule.ret - held.ret
      into.avoided.n++
      into.avoided.sum += saved
      if (saved > 0) into.avoided.better++
      if (held.ret < 0) {
        into.avoided.losers++
        into.avoided.losers_sum += saved
      }
    }
    for (const [row, ret] of dailyReturns(s, t.entry, t.rule.at, costs)) {
      const d = s.dates[row]
      const cell = into.curve[d]
      if (cell) {
        cell[0] += ret
        cell[1]++
      } else into.curve[d] = [ret, 1]
    }
  }
}

/** The index's maximum drawdown over [from, to] by its closes (from the close before `from`). */
function indexDrawdown(index: IndexPrices, from: string, to: string): number | null {
  const dates = [...index.keys()].sort()
  const daily: number[] = []
  let prev: number | undefined
  for (const d of dates) {
    const c = index.get(d)!.close
    if (d >= from && d <= to && prev !== undefined) daily.push(c / prev - 1)
    if (d > to) break
    prev = c
  }
  return daily.length ? maxDrawdownPct(daily) : null
}

const ratio = (a: number, n: number) => (n ? pct(a / n) : null)

export function evidenceOf(p: PlaybookPartial, periods: readonly number[], index: IndexPrices): PlaybookEvidence {
  const days = Object.keys(p.curve).sort()
  const daily = days.map((d) => p.curve[d][0] / p.curve[d][1])
  return {
    signals: p.signals,
    samples: p.entries,
    blocked_limit_up: p.blocked_up,
    sales_delayed_limit_down: p.waited_down,
    open_at_end: p.open,
    first_entry: p.first_entry,
    last_entry: p.last_entry,
    periods: periods.map((sessions, i) => ({ sessions, ...summarize(p.fixed[i]), index: summarize(p.fixed_index[i]) })),
    exit_rule: { ...summarize(p.rule), mean_sessions_held: p.rule.n ? Math.round((p.rule_sessions / p.rule.n) * 100) / 100 : null, index: summarize(p.rule_index) },
    max_drawdown_pct: maxDrawdownPct(daily),
    index_max_drawdown_pct: days.length ? indexDrawdown(index, days[0], days.at(-1)!) : null,
    losses_avoided: {
      samples: p.avoided.n,
      mean_saved_pct: ratio(p.avoided.sum, p.avoided.n),
      losing_holds: p.avoided.losers,
      mean_saved_on_losing_holds_pct: ratio(p.avoided.losers_sum, p.avoided.losers),
      exit_better_share_pct: ratio(p.avoided.better, p.avoided.n),
    },
  }
}

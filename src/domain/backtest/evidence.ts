/** What the backtest stores per playbook: the shape /v1/playbooks reads back from the store. */
import type { ReturnSummary } from './stats'

/** Figures of the same trades' windows on the benchmark index (no costs: an index is not traded). */
type IndexSummary = ReturnSummary

interface PeriodEvidence extends ReturnSummary {
  sessions: number
  index: IndexSummary
}

/** What the backtest stores per playbook. */
export interface PlaybookEvidence {
  /** Closes where every signal held (the last session's are not counted: there is no next open). */
  signals: number
  /** Positions opened. */
  samples: number
  /** Signals lost because the next open was at limit-up. */
  blocked_limit_up: number
  /** Sales that had to wait at least one session because the open was at limit-down. */
  sales_delayed_limit_down: number
  /** Positions still open when the data ends (not in the exit-rule figures). */
  open_at_end: number
  first_entry: string | null
  last_entry: string | null
  periods: PeriodEvidence[]
  exit_rule: ReturnSummary & { mean_sessions_held: number | null; index: IndexSummary }
  /** Of the equal-weight daily portfolio of the exit rule's positions. */
  max_drawdown_pct: number
  /** Of the benchmark index's closes from the first to the last day the portfolio held a position. */
  index_max_drawdown_pct: number | null
  losses_avoided: {
    /** Trades sold by the rule that also reached the end of the longest period. */
    samples: number
    /** Mean of (exit-rule return − return held to the end of the longest period), percentage points. */
    mean_saved_pct: number | null
    /** Trades that lost money when held to the end of the longest period. */
    losing_holds: number
    /** The same mean over those losing trades only: what the rule saved where holding lost. */
    mean_saved_on_losing_holds_pct: number | null
    /** Share of the trades where the rule did better than holding, percent. */
    exit_better_share_pct: number | null
  }
}

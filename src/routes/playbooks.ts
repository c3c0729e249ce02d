import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { BACKTEST_RULES, PLAYBOOK_THEMES, playbookById, PLAYBOOKS, type Playbook } from '../data/playbooks'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError } from '../http/validation'
import type { StoredEvidence } from '../store/shapes'
import type { Services } from '../services/types'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/**
 * Pro tier and above. A static library between job runs with "no heavy quota": an
 * ordinary counted call of cost 1 (not 0: it is still data a key draws on), never heavy.
 */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'pro', cost: 1, counted: true }

const IDS = PLAYBOOKS.map((p) => p.id) as [string, ...string[]]

const Query = z.object({
  category: z
    .enum(PLAYBOOK_THEMES, { error: `category must be one of: ${PLAYBOOK_THEMES.join(', ')}` })
    .optional()
    .openapi({ description: `Only the playbooks of this theme: ${PLAYBOOK_THEMES.join(', ')}`, example: 'trend-following' }),
  id: z
    .enum(IDS, { error: `id must be one of: ${IDS.join(', ')}` })
    .optional()
    .openapi({ description: `One playbook by its id: ${IDS.join(', ')}`, example: 'ma-alignment' }),
})

const pctOrNull = (d: string) => z.number().nullable().openapi({ description: `${d}, percent (2 decimals); null without samples` })

const ReturnSummary = z
  .object({
    samples: z.number().int().openapi({ description: 'Trades in the figures' }),
    win_rate_pct: pctOrNull('Share of the trades with a positive return'),
    mean_return_pct: pctOrNull('Mean return per trade'),
    median_return_pct: pctOrNull('Median return per trade (to 0.01 %)'),
  })
  .openapi('ReturnSummary')

const IndexSummary = ReturnSummary.openapi({ description: 'The benchmark index over the same windows (entry open to sale open), without costs' })

const Evidence = z
  .object({
    signals: z.number().int().openapi({ description: 'Closes where every signal held (a stock-day each)' }),
    samples: z.number().int().openapi({ description: 'Positions opened (one per stock at a time; signals while held are ignored)' }),
    blocked_limit_up: z.number().int().openapi({ description: 'Signals lost because the next open was at limit-up (cannot buy)' }),
    sales_delayed_limit_down: z.number().int().openapi({ description: 'Sales that waited at least a session because the open was at limit-down (cannot sell)' }),
    open_at_end: z.number().int().openapi({ description: 'Positions the exit rule had not sold when the data ends (not in exit_rule)' }),
    first_entry: z.string().nullable().openapi({ description: 'Date of the first buy, YYYY-MM-DD; null without trades' }),
    last_entry: z.string().nullable().openapi({ description: 'Date of the last buy, YYYY-MM-DD; null without trades' }),
    periods: z
      .array(ReturnSummary.extend({ sessions: z.number().int().openapi({ description: 'Holding period: sold at the open this many sessions after the entry' }), index: IndexSummary }).openapi('PeriodEvidence'))
      .openapi({ description: 'One entry per holding period, shortest first; net of costs' }),
    exit_rule: ReturnSummary.extend({
      mean_sessions_held: z.number().nullable().openapi({ description: 'Mean sessions from the buy to the sale' }),
      index: IndexSummary,
    }).openapi('ExitRuleEvidence', { description: 'Trades sold by the exit stage (expression, hold, stop-loss, take-profit, max_days); net of costs' }),
    max_drawdown_pct: z.number().openapi({ description: 'Maximum drawdown (≤ 0) of the equal-weight daily portfolio of the exit rule\'s positions (a day without positions counts as flat), percent' }),
    index_max_drawdown_pct: z.number().nullable().openapi({ description: 'Maximum drawdown of the benchmark\'s closes from the first to the last day the portfolio held a position, percent; null without trades' }),
    losses_avoided: z
      .object({
        samples: z.number().int().openapi({ description: 'Trades sold by the exit rule that also reached the end of the longest period' }),
        mean_saved_pct: pctOrNull('Mean of (exit-rule return − return held to the end of the longest period), percentage points'),
        losing_holds: z.number().int().openapi({ description: 'Of those, trades that lost money when held to the end' }),
        mean_saved_on_losing_holds_pct: pctOrNull('The same mean over the losing holds only: what the exit rule saved where holding on lost'),
        exit_better_share_pct: pctOrNull('Share of the trades where the exit rule beat holding on'),
      })
      .openapi({ description: 'What the exit stage saved against holding to the end of the longest period' }),
  })
  .openapi('PlaybookEvidence')

const Stage = z.object({ rule: z.string().openapi({ description: 'The rule in words' }), expr: z.string().openapi({ description: 'The rule in the /v1/screen factor language' }) })

const PlaybookSchema = z
  .object({
    id: z.string().openapi({ description: 'Stable id' }),
    name: z.string(),
    theme: z.enum(PLAYBOOK_THEMES).openapi({ description: 'Theme (the `category` filter)' }),
    description: z.string(),
    signals: z.array(z.object({ name: z.string(), expr: z.string().openapi({ description: 'An expression of the /v1/screen language' }) })).openapi({ description: 'The setup: every signal must hold on the same close' }),
    stages: z.object({
      entry: Stage.openapi({ description: 'The signals\' intersection; bought at the next session\'s open' }),
      hold: Stage.openapi({ description: 'Kept while this holds' }),
      exit: Stage.extend({
        stop_loss_pct: z.number().nullable().openapi({ description: 'Sell after a close this far below the entry price (percent, negative); null for none' }),
        take_profit_pct: z.number().nullable().openapi({ description: 'Sell after a close this far above the entry price (percent); null for none' }),
        max_days: z.number().int().openapi({ description: 'Sell after this many sessions held at most' }),
      }).openapi({ description: 'Sold at the open after the first close where the expression holds, hold fails, or a limit is crossed' }),
    }),
    periods: z.array(z.number().int()).openapi({ description: 'Fixed holding periods the evidence reports, sessions' }),
    evidence: Evidence.nullable().openapi({ description: 'Computed by the backtest job; null until it has run' }),
  })
  .openapi('Playbook')

const Backtest = z
  .object({
    through: z.string().openapi({ description: 'Last day of the history the backtest ran on' }),
    period: z.object({ from: z.string(), to: z.string(), sessions: z.number().int() }).openapi({ description: 'Signal days covered (from, to, trading sessions)' }),
    simulated: z.boolean().openapi({ description: 'true when computed on the emulator\'s simulated market, not real prices' }),
    note: z.string().openapi({ description: 'The provenance in words (says plainly when the data is simulated)' }),
    universe: z.object({ stocks: z.number().int(), with_history: z.number().int(), description: z.string() }).openapi({ description: 'The stocks the backtest ran over' }),
    index: z.object({ code: z.string(), name: z.string() }).openapi({ description: 'The benchmark' }),
    costs: z.object({ commission_pct: z.number(), stamp_duty_pct: z.number() }).openapi({ description: 'Commission per side and stamp duty on sales, percent' }),
    execution: z.string().openapi({ description: 'The execution rules in words' }),
  })
  .openapi('BacktestInfo')

const EXAMPLE_EVIDENCE = {
  signals: 5120, samples: 1388, blocked_limit_up: 21, sales_delayed_limit_down: 9, open_at_end: 97, first_entry: '2025-11-21', last_entry: '2026-11-20',
  periods: [
    { sessions: 5, samples: 1360, win_rate_pct: 51.2, mean_return_pct: 0.41, median_return_pct: 0.12, index: { samples: 1360, win_rate_pct: 53.1, mean_return_pct: 0.22, median_return_pct: 0.18 } },
    { sessions: 10, samples: 1321, win_rate_pct: 50.3, mean_return_pct: 0.66, median_return_pct: 0.05, index: { samples: 1321, win_rate_pct: 54, mean_return_pct: 0.45, median_return_pct: 0.31 } },
    { sessions: 20, samples: 1240, win_rate_pct: 49.8, mean_return_pct: 1.02, median_return_pct: -0.2, index: { samples: 1240, win_rate_pct: 55.4, mean_return_pct: 0.9, median_return_pct: 0.62 } },
  ],
  exit_rule: { samples: 1291, win_rate_pct: 44.1, mean_return_pct: 0.58, median_return_pct: -0.61, mean_sessions_held: 7.4, index: { samples: 1291, win_rate_pct: 52.2, mean_return_pct: 0.31, median_return_pct: 0.2 } },
  max_drawdown_pct: -14.3, index_max_drawdown_pct: -9.8,
  losses_avoided: { samples: 1190, mean_saved_pct: 0.35, losing_holds: 601, mean_saved_on_losing_holds_pct: 4.12, exit_better_share_pct: 47.9 },
}

/** The example's `backtest` (the tests store evidence with the same context). */
export const EXAMPLE_BACKTEST = {
  through: '2026-11-20',
  period: { from: '2025-11-20', to: '2026-11-20', sessions: 250 },
  simulated: false,
  note: 'Computed on the stored daily history of the A-share market.',
  universe: { stocks: 5572, with_history: 5561, description: 'A-share stocks (SH, SZ, BJ) of the market list of 2026-11-20 with a stored history; stocks delisted before that day are not in it (survivorship bias). ST limits from today\'s names.' },
  index: { code: 'sh000300', name: 'CSI 300 (沪深300)' },
  costs: { commission_pct: BACKTEST_RULES.commission_pct, stamp_duty_pct: BACKTEST_RULES.stamp_duty_pct },
  execution: 'Signals are evaluated on each close with factors computed from the bars up to that day; the buy is at the next session\'s open, …',
}

export const PlaybooksResponse = envelopeSchema('PlaybooksEnvelopeBase', z.array(PlaybookSchema).openapi({ description: 'The playbooks asked for, in library order' }), AS_OF.date('the last session the backtest evidence covers'))
  .extend({ backtest: Backtest.nullable().openapi({ description: 'What the evidence was computed on; null until the backtest job has run' }) })
  .openapi('PlaybooksEnvelope', {
    example: {
      ok: true,
      endpoint: 'playbooks',
      tier: 'pro',
      elapsed_ms: 4,
      source: 'store',
      as_of: '2026-11-20',
      data: [{ ...playbookById('ma-alignment')!, evidence: EXAMPLE_EVIDENCE }],
      backtest: EXAMPLE_BACKTEST,
    },
  })

/** The playbooks a query selects; a 422 when `id` is not of `category`. */
function selected(q: { category?: string; id?: string }): Playbook[] {
  if (q.id) {
    const p = playbookById(q.id)!
    if (q.category && p.theme !== q.category) throw new ValidationError([queryIssue('category', `playbook ${p.id} is of theme ${p.theme}, not ${q.category}`, q.category)])
    return [p]
  }
  return PLAYBOOKS.filter((p) => !q.category || p.theme === q.category)
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/playbooks',
    operationId: 'playbooks',
    tags: ['Pro'],
    summary: 'Library of 13 playbooks in 12 themes with computed backtest evidence',
    description:
      'Each playbook is executable: its signals are /v1/screen expressions, its stages (entry, hold, exit with stop-loss, take-profit and max_days) rules over the same factors. ' +
      `Its evidence is computed by the backtest job over the stored daily history of the whole A-share market (the last ${BACKTEST_RULES.sessions} sessions, point-in-time factors, ` +
      `buy at the next open, ${BACKTEST_RULES.commission_pct}% commission a side and ${BACKTEST_RULES.stamp_duty_pct}% stamp duty on sales, no buying at limit-up, no selling at limit-down): ` +
      `sample count, period, win rate, mean and median return per holding period, maximum drawdown, the same for the benchmark ${BACKTEST_RULES.index} over the same windows, and the losses the exit stage avoided. ` +
      '`category` filters by theme, `id` returns one (an unknown value is a 422 listing the valid ones). Static between job runs (the job runs after each close); ' +
      'before its first run every playbook is listed with `evidence: null` and a `notice`. Under the emulator `backtest.simulated` is true and the note says so.',
    request: { query: Query },
    responses: {
      200: { description: 'The playbooks with their evidence', content: { 'application/json': { schema: PlaybooksResponse } } },
      ...COMMON_ERRORS,
    },
  },
  { check: (_c, q) => void selected(q) }
)

/** The evidence's context as the answer shows it (everything but the per-playbook figures). */
function backtestInfo(e: StoredEvidence) {
  const { through, period, simulated, note, universe, index, costs, execution } = e
  return { through, period, simulated, note, universe, index, costs, execution }
}

/** GET /v1/playbooks */
export function registerPlaybooks(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const list = selected(c.req.valid('query'))
    const ev = await services.store.playbookEvidence(c)
    const data = list.map((p) => ({ ...p, evidence: ev?.playbooks[p.id] ?? null }))
    if (!ev) {
      const notice = 'evidence not computed yet: the backtest job runs once the history is built (npm run backfill) and after each close'
      return answer(c, 'playbooks', { ok: true, source: 'none', data, backtest: null, notice })
    }
    return answer(c, 'playbooks', { ok: true, source: 'store', data, backtest: backtestInfo(ev), as_of: ev.through })
  })
}

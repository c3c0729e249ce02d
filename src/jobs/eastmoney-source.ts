/**
 * The jobs' {@link HistorySource} on the Eastmoney channel: `clist` for the whole market,
 * `RPT_SHAREBONUS_DET` for corporate actions, `kline/get` with `fqt=0` for raw bars, the summary
 * statements `RPT_DMSK_FN_*` and the 业绩报表 `RPT_LICO_FN_CPD` for the fundamentals. The fetch
 * comes from `services.channelContext`, so under the emulator entry it is the emulator's.
 */
import { fetchCorporateActions } from '../channels/eastmoney/dividends'
import { fetchPeriodStatement, type PeriodStatement } from '../channels/eastmoney/finance-period'
import { fetchMarketSnapshot } from '../channels/eastmoney/market-list'
import { fetchPeriodPerformance, type PeriodPerformance } from '../channels/eastmoney/period-performance'
import { fetchRawDaily } from '../channels/eastmoney/raw-daily'
import { ChannelError } from '../channels/errors'
import { WHOLE_MARKET_WALK, type WalkBudget } from '../channels/page-walk'
import type { PeriodFigures } from '../domain/fundamental-factors'
import type { Services } from '../services/types'
import { pacedContext } from './pace'
import type { HistorySource } from './source'

/**
 * A job's whole-market walk: no caller waits on it (a request's walk must leave the next channel
 * time within the 15 s deadline), and its pages share the isolate with the requests served
 * meanwhile, so it may take up to two minutes.
 */
const JOB_WALK: WalkBudget = { ...WHOLE_MARKET_WALK, budgetMs: 120_000 }

/**
 * The Eastmoney-backed source. A range without bars (not listed yet, suspended) is `[]`, not an
 * error. Each answer is followed by a turn of the event loop (src/jobs/pace.ts).
 */
export function channelSource(services: Pick<Services, 'channelContext'>): HistorySource {
  const ctx = pacedContext(services.channelContext)
  return {
    snapshot: () => fetchMarketSnapshot(ctx, JOB_WALK),
    rawDaily: async (inst, from, to) => {
      try {
        return await fetchRawDaily(ctx, inst, from, to)
      } catch (e) {
        if (e instanceof ChannelError && e.kind === 'empty') return []
        throw e
      }
    },
    actions: (q) => fetchCorporateActions(ctx, q),
    statements: async (period, balance) => {
      const income = await fetchPeriodStatement(ctx, 'income', period)
      const cashflow = await fetchPeriodStatement(ctx, 'cashflow', period)
      const sheet = balance ? await fetchPeriodStatement(ctx, 'balance', period) : new Map<string, PeriodStatement>()
      const performance = balance ? await fetchPeriodPerformance(ctx, period) : new Map<string, PeriodPerformance>()
      return periodFigures(income, cashflow, sheet, performance)
    },
  }
}

/**
 * The three statements of a period merged per stock, with the 业绩报表's BPS beside them. A stock's
 * figures count from the latest of its statements' notice dates (a statement filed later must not
 * be read before it exists). The BPS keeps its own date, the row's update date: a 业绩报表 row is
 * re-dated when a later report restates the period, and that must not hold back the statements.
 * Only stocks with a statement are listed: a 业绩报表 row alone adds nothing.
 *
 * Parent equity is not a line: the summary balance sheet has total equity only, and the 业绩报表
 * gives it per share with no share count of the period end, so it stays per share
 * (src/domain/fundamental-factors.ts says what that means after a bonus-share issue).
 */
export function periodFigures(
  income: Map<string, PeriodStatement>, cashflow: Map<string, PeriodStatement>, balance: Map<string, PeriodStatement>,
  performance: Map<string, PeriodPerformance> = new Map()
): Map<string, PeriodFigures> {
  const out = new Map<string, PeriodFigures>()
  for (const code of new Set([...income.keys(), ...cashflow.keys(), ...balance.keys()])) {
    const [i, c, b, p] = [income.get(code), cashflow.get(code), balance.get(code), performance.get(code)]
    const notice = [i, c, b].reduce((d, s) => (s && s.notice > d ? s.notice : d), '')
    const bps = p?.bps ?? null
    out.set(code, {
      notice,
      revenue: i?.lines.revenue ?? null,
      operating_cost: i?.lines.operating_cost ?? null,
      parent_net_profit: i?.lines.parent_net_profit ?? null,
      operating_net_cash: c?.lines.operating_net_cash ?? null,
      total_assets: b?.lines.total_assets ?? null,
      total_liabilities: b?.lines.total_liabilities ?? null,
      bps,
      bps_notice: bps === null ? null : (p?.updated ?? null),
      bps_shares: bps === null ? null : (p?.shares ?? null),
    })
  }
  return out
}

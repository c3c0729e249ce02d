/**
 * The jobs' {@link HistorySource} on the Eastmoney channel: `clist` for the whole market,
 * `RPT_SHAREBONUS_DET` for corporate actions, `kline/get` with `fqt=0` for raw bars. The fetch
 * comes from `services.channelContext`, so under the emulator entry it is the emulator's.
 */
import { fetchCorporateActions } from '../channels/eastmoney/dividends'
import { fetchPeriodStatement, type PeriodStatement } from '../channels/eastmoney/finance-period'
import { fetchMarketSnapshot } from '../channels/eastmoney/market-list'
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
      return periodFigures(income, cashflow, sheet)
    },
  }
}

/**
 * The three statements of a period merged per stock. A stock's figures count from the latest of
 * its statements' notice dates (a statement filed later must not be read before it exists).
 * Parent equity is null: Eastmoney's summary balance sheet has no such column.
 */
export function periodFigures(income: Map<string, PeriodStatement>, cashflow: Map<string, PeriodStatement>, balance: Map<string, PeriodStatement>): Map<string, PeriodFigures> {
  const out = new Map<string, PeriodFigures>()
  for (const code of new Set([...income.keys(), ...cashflow.keys(), ...balance.keys()])) {
    const [i, c, b] = [income.get(code), cashflow.get(code), balance.get(code)]
    const notice = [i, c, b].reduce((d, s) => (s && s.notice > d ? s.notice : d), '')
    out.set(code, {
      notice,
      revenue: i?.lines.revenue ?? null,
      operating_cost: i?.lines.operating_cost ?? null,
      parent_net_profit: i?.lines.parent_net_profit ?? null,
      operating_net_cash: c?.lines.operating_net_cash ?? null,
      total_assets: b?.lines.total_assets ?? null,
      total_liabilities: b?.lines.total_liabilities ?? null,
      // RPT_DMSK_FN_BALANCE has total equity only, no parent share (src/channels/eastmoney/finance.ts).
      parent_equity: null,
    })
  }
  return out
}

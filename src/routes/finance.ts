import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { schemaColumns } from '../http/csv-answer'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { BALANCE_LINES, CASHFLOW_LINES, DEFAULT_PERIODS, INCOME_LINES, MAX_PERIODS, type StatementLine, type Statements } from '../domain/finance'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { statements } from '../services/finance'
import { notThisMarket, oneCode, StockCodeParam } from './shared/stock-code'
import { upstreamFailure } from '../http/outcome'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs (pro group, trial and above). */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const Query = z.object({
  code: StockCodeParam,
  num: IntParam('num', 1, MAX_PERIODS)
    .default(DEFAULT_PERIODS)
    .openapi({ description: `Latest N report periods per statement (default ${DEFAULT_PERIODS}, at most ${MAX_PERIODS}: ten years of quarters)`, example: 4, type: 'integer', minimum: 1, maximum: MAX_PERIODS }),
})

/**
 * When a line is null although the company has the figure: Eastmoney's summary reports
 * (src/channels/eastmoney/finance.ts) have no column for it. Sina, the second channel, sends them.
 */
const WHEN_NULL: Record<string, string> = {
  net_profit: 'from Eastmoney it is total_profit − income_tax (its report has no net-profit column); null when either is',
  basic_eps: 'always null from Eastmoney (its report has no EPS column, and the weighted share count basic EPS divides by is not known here); Sina sends it',
  current_assets: 'always null from Eastmoney (its report gives only the current ratio, no current totals); Sina sends it',
  current_liabilities: 'always null from Eastmoney (its report gives only the current ratio, no current totals); Sina sends it',
  parent_equity: 'always null from Eastmoney (its report has total equity only, no parent/minority split); Sina sends it',
  minority_equity: 'always null from Eastmoney (its report has total equity only, no parent/minority split); Sina sends it',
  begin_cash: 'null when the upstream sends none (Eastmoney sends null for some reports)',
  end_cash: 'null when the upstream sends none (Eastmoney sends null for some reports)',
}

/** A statement row's schema from its line table: `EndDate` plus every line, a number or null. */
function rowSchema(name: string, lines: readonly StatementLine[], title: string) {
  const shape: Record<string, z.ZodType> = {
    EndDate: z.string().openapi({ description: 'Report period end `YYYY-MM-DD` (03-31, 06-30, 09-30 or 12-31)' }),
  }
  for (const l of lines) shape[l.name] = z.number().nullable().openapi({ description: `${l.description}; ${WHEN_NULL[l.name] ?? 'null when the upstream has no value'}` })
  return z.object(shape).openapi(name, { description: title })
}

const IncomeRow = rowSchema('IncomeStatementRow', INCOME_LINES, 'Income statement of one period, cumulative from January 1 (Q3 = January to September)')
const BalanceRow = rowSchema('BalanceSheetRow', BALANCE_LINES, 'Balance sheet at the period end')
const CashflowRow = rowSchema('CashFlowRow', CASHFLOW_LINES, 'Cash-flow statement of one period, cumulative from January 1')

/** The statements of `data`, in order, with their row schemas (a CSV answer is one of them). */
const STATEMENTS = [['income', IncomeRow], ['balance', BalanceRow], ['cashflow', CashflowRow]] as const

const Data = z
  .union([
    z.tuple([z.array(IncomeRow), z.array(BalanceRow), z.array(CashflowRow)]),
    z.array(z.unknown()).max(0),
  ])
  .openapi({ description: '`[income, balance, cashflow]`, each latest period first (at most `num` rows each); `[]` for a code that is not an A-share stock' })

const Response = envelopeSchema('FinanceEnvelopeBase', Data, AS_OF.date('the newest report period\'s end')).openapi('FinanceEnvelope', {
  example: {
    ok: true,
    endpoint: 'finance',
    tier: 'pro',
    elapsed_ms: 38,
    source: 'eastmoney',
    as_of: '2026-09-30',
    data: [
      [{ EndDate: '2026-09-30', revenue: 120452389012.55, operating_cost: 9012345678.9, selling_expense: 3456789012.3, admin_expense: 5678901234.5, finance_expense: -1234567890.1, total_operating_cost: 34773711021.35, operating_profit: 85678678001.2, total_profit: 85432109876.5, income_tax: 21358027469.13, net_profit: 64074082407.37, parent_net_profit: 60827990123.4, deducted_parent_net_profit: 60812345678.9, basic_eps: null }],
      [{ EndDate: '2026-09-30', cash: 59321456789.12, accounts_receivable: 41234567.8, inventory: 45678901234.5, current_assets: null, fixed_assets: 19876543210.9, total_assets: 298765432109.8, accounts_payable: 2345678901.2, advance_receipts: 9876543210.1, current_liabilities: null, total_liabilities: 50123456789.0, parent_equity: null, minority_equity: null, total_equity: 248641975320.8 }],
      [{ EndDate: '2026-09-30', sales_cash: 132456789012.3, operating_net_cash: 45678901234.5, capital_expenditure: 3456789012.3, investing_net_cash: -3123456789.0, financing_net_cash: -52345678901.2, net_cash_change: -9790234455.7, begin_cash: 69111691244.82, end_cash: 59321456789.12 }],
    ],
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/finance',
  operationId: 'finance',
  tags: ['Pro'],
  summary: 'Financial statements of one A-share stock',
  description:
    '`data` is `[income, balance, cashflow]`: three arrays of `{EndDate, …lines}`, latest report period first, ' +
    'at most `num` periods each. Amounts in CNY; income and cash-flow lines are cumulative from January 1 as Chinese statements are ' +
    '(the 09-30 row covers January to September); balance-sheet lines are period-end values. Only published reports appear. ' +
    'A-share stocks only: any other code answers ok:true with an empty `data` and a `notice`. A stock with no published statements ' +
    '(unknown code) answers ok:false, code NO_DATA (not counted). Channels: Eastmoney datacenter (RPT_DMSK_FN_INCOME / BALANCE / CASHFLOW), then Sina (getFinanceReport2022). ' +
    'Eastmoney\'s summary reports have no EPS, current totals or parent/minority equity split: from it `basic_eps`, `current_assets`, ' +
    '`current_liabilities`, `parent_equity` and `minority_equity` are null, and `net_profit` is `total_profit − income_tax`.',
  request: { query: Query },
  responses: {
    200: { description: 'Statements (ok:false when the upstream failed or had nothing; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, {
  check: (_c, q) => void oneCode(q.code),
  // `data` is [income, balance, cashflow]: a CSV answer is one statement (`[]` for a code that has none: a header alone).
  csv: {
    sections: ['income', 'balance', 'cashflow'],
    table: (body, section) => {
      const k = STATEMENTS.findIndex(([name]) => name === section)
      return k < 0 ? undefined : { rows: body.data[k] ?? [], columns: schemaColumns(STATEMENTS[k][1]) }
    },
  },
})


/** Which channels serve statements, in order. */
const FINANCE_CHANNELS: readonly ChannelName[] = ['eastmoney', 'sina']

/** GET /v1/finance */
export function registerFinance(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const inst = oneCode(q.code)
    const notice = notThisMarket('finance', inst)
    if (notice) return answer(c, 'finance', { ok: true, source: 'none', data: [], notice })

    const r = await services.market.fetch('finance:cn', FINANCE_CHANNELS, statements(inst, q.num))
    if (!r.ok) return answer(c, 'finance', { ok: false, source: 'none', data: [], ...upstreamFailure(r.attempts, inst.code) })
    const data: Statements = r.value
    const asOf = data.map((rows) => rows[0]?.EndDate ?? '').sort().pop()
    return answer(c, 'finance', { ok: true, source: services.sourcePrefix + r.channel, data, ...(asOf ? { as_of: asOf } : {}) })
  })
}

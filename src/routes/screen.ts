import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { FACTORS, SCREEN_MARKETS, type ScreenMarket } from '../data/factors'
import { PRESET_NAMES, PRESETS } from '../data/screen-presets'
import { EXPRESSION_LIMITS, planScreen, runScreen, SCREEN_DEFAULT_LIMIT, ScreenQueryError, type ScreenPlan } from '../domain/screen'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { markdownTable } from '../http/markdown-table'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { IntParam } from './shared/schemas'
import { AS_OF, BuildProgressSchema, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { buildingMessage } from '../domain/build-progress'

const MAX_LIMIT = 500
const TRUE = ['true', '1'] as const
const FALSE = ['false', '0'] as const

const Query = z.object({
  expr: z.string().optional().openapi({ description: `A factor expression (grammar below; at most ${EXPRESSION_LIMITS.maxLength} characters). Give expr or preset.`, example: 'intersect([PE_TTM < 15, GrossMargin > 30])' }),
  // The names are an enum in the document (generated clients get their union); the lookup itself
  // ignores case, and an unknown name is a 422 listing them (src/domain/screen/plan.ts).
  preset: z.string().optional().openapi({ description: "A preset's name instead of expr (the list below says what each selects)", enum: PRESET_NAMES, example: 'LowPE' }),
  limit: IntParam('limit', 1, MAX_LIMIT).optional().openapi({ description: `Rows returned, 1..${MAX_LIMIT}, default ${SCREEN_DEFAULT_LIMIT}`, example: 30, type: 'integer', minimum: 1, maximum: MAX_LIMIT }),
  orderby: z.string().optional().openapi({ description: "Sort by this factor (any of the market's); default the preset's, else the expression's first factor", example: 'PE_TTM' }),
  desc: z.enum([...TRUE, ...FALSE], { error: 'desc must be true or false' }).optional().openapi({ description: "true = descending (default; a preset's own order when a preset is used)", example: 'false' }),
  market: z
    .enum([...SCREEN_MARKETS, ''], { error: `market must be one of ${SCREEN_MARKETS.join(', ')} (blank = hs)` })
    .optional()
    .openapi({ description: "hs = A-shares (default, also when blank), hk (prices in HKD), us (USD): each has its own factor table; hk and us carry only the factors their whole-market list prints (market caps in 100 million of the local currency)", example: 'hs' }),
})

const Row = z.record(z.string(), z.string()).openapi('ScreenRow', {
  description: 'One stock: `code`, `name`, then each factor the expression uses, then `ClosePrice`, `ChangePCT` (and the orderby factor); every value a string, empty where the stock has no value',
})

const Response = envelopeSchema('ScreenEnvelopeBase', z.string().openapi({ description: 'The rows as a Markdown table (paste-ready); empty with ok:false' }), AS_OF.date('the session of the factor table screened'))
  .extend({
    structured: z.array(Row).openapi({ description: 'The same rows as objects, all values strings' }),
    tables: z.array(z.object({ title: z.string(), columns: z.array(z.string()), rows: z.array(Row) })).openapi({ description: 'The same content as one table with its title and column order' }),
    market: z.enum(SCREEN_MARKETS).openapi({ description: 'Market screened' }),
    date: z.string().optional().openapi({ description: "Date of the factor table: the latest session built by the after-close job, in the exchange's own calendar (US Eastern for us)" }),
    expr: z.string().openapi({ description: 'The expression run (a preset shows its own)' }),
    preset: z.string().optional().openapi({ description: 'The preset used, if any', enum: PRESET_NAMES }),
    orderby: z.string().openapi({ description: 'Sort factor' }),
    desc: z.boolean().openapi({ description: 'Descending sort' }),
    matched: z.number().int().openapi({ description: 'Stocks that matched, before limit' }),
    returned: z.number().int().openapi({ description: 'Rows in this answer' }),
    progress: BuildProgressSchema.optional().openapi({ description: 'With code BUILDING: how far the first build, which writes the factor tables, is' }),
  })
  .openapi('ScreenEnvelope', {
    example: {
      ok: true,
      endpoint: 'screen',
      tier: 'trial',
      elapsed_ms: 6,
      source: 'store',
      data: '| code | name | PE_TTM | GrossMargin | ClosePrice | ChangePCT |\n| --- | --- | --- | --- | --- | --- |\n| sh600519 | 贵州茅台 | 21.4 | 91.53 | 1520.00 | 0.76 |\n',
      structured: [{ code: 'sh600519', name: '贵州茅台', PE_TTM: '21.4', GrossMargin: '91.53', ClosePrice: '1520.00', ChangePCT: '0.76' }],
      tables: [{ title: 'intersect([PE_TTM < 25, GrossMargin > 30])', columns: ['code', 'name', 'PE_TTM', 'GrossMargin', 'ClosePrice', 'ChangePCT'], rows: [{ code: 'sh600519', name: '贵州茅台', PE_TTM: '21.4', GrossMargin: '91.53', ClosePrice: '1520.00', ChangePCT: '0.76' }] }],
      market: 'hs',
      date: '2026-11-20',
      expr: 'intersect([PE_TTM < 25, GrossMargin > 30])',
      orderby: 'PE_TTM',
      desc: false,
      matched: 1,
      returned: 1,
    },
  })

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const marketsOf = (m: Partial<Record<ScreenMarket, unknown>>) => Object.keys(m).join(', ')

const DESCRIPTION = [
  'Screens a market with a factor expression or a preset, over the factor table the after-close job builds (prices of the day, ',
  'fundamentals of the latest report published by then, dividends of the last 12 months, technicals of the day). ',
  'Result: `data` a Markdown table, `structured` the rows as objects (all values strings), `tables` the same as one table; the three agree. ',
  'An expression that matches nothing answers ok:false with code NO_MATCH (not counted).\n\n',
  '**Grammar** (no eval: our own parser):\n```\nexpr := set\nset  := cmp | intersect([set, …]) | union([set, …]) | exclude(set, set) | top(sum, N) | bottom(sum, N)\n',
  'cmp  := sum (< | <= | > | >= | == | !=) sum\nsum  := term ((+ | -) term)*      term := atom ((* | /) atom)*\natom := NUMBER | FACTOR | ( sum ) | - atom\nNUMBER := digits [. digits]        N := 1..5000\n```\nFunction names are lower case; intersect and union take a bracketed list.\n',
  `A comparison with a null value is false; x / 0 is null. Bounds: ${EXPRESSION_LIMITS.maxLength} characters, nesting depth ${EXPRESSION_LIMITS.maxDepth}, `,
  `${EXPRESSION_LIMITS.maxComparisons} comparisons, top/bottom N up to ${EXPRESSION_LIMITS.maxTop}. A syntax error, an unknown factor or a factor the market `,
  'lacks is a 422 whose msg gives the position (0-based) and, for a misspelt name, the nearest factors.\n\n',
  '**Factors** (name — unit — markets — meaning):\n',
  ...FACTORS.map((f) => `- \`${f.name}\` — ${f.unit} — ${marketsOf(f.sources)} — ${f.meaning}\n`),
  '\nhk and us: prices and amounts in HKD / USD, TotalMV and FloatMV in 100 million HKD / USD, PE_TTM and PB as the market list prints them (none for a loss-maker); their tables are built after each close (HK 16:10 Beijing, US 16:00 Eastern).\n',
  '\n**Presets** (name — market — expression — default order):\n',
  ...PRESETS.map((p) => `- \`${p.name}\` — ${p.market} — \`${p.expr}\` — ${p.orderby} ${p.desc ? 'desc' : 'asc'}: ${p.meaning}\n`),
].join('')

/** The plan of a query, or the 422. */
function checkQuery(q: z.output<typeof Query>): ScreenPlan {
  try {
    return planScreen({
      expr: q.expr,
      preset: q.preset,
      market: q.market === '' ? undefined : q.market,
      orderby: q.orderby,
      desc: q.desc === undefined ? undefined : (TRUE as readonly string[]).includes(q.desc),
      limit: q.limit,
    })
  } catch (e) {
    if (!(e instanceof ScreenQueryError)) throw e
    throw new ValidationError([queryIssue(e.field, e.message, null)])
  }
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/screen',
    operationId: 'screen',
    tags: ['Pro'],
    summary: `Factor screening with an expression language and ${PRESETS.length} presets`,
    description: DESCRIPTION,
    request: { query: Query },
    responses: {
      200: { description: 'Screening result (ok:false NO_MATCH when nothing matched, NO_DATA when the factor table is not built yet, FACTOR_UNAVAILABLE when the table lacks a factor used; none is counted)', content: { 'application/json': { schema: Response } } },
      ...COMMON_ERRORS,
    },
  },
  {
    check: (_c, q) => void checkQuery(q),
    // `data` is the Markdown table; `structured` the same rows, `tables[0].columns` their order.
    csv: { table: (body) => ({ rows: body.structured, columns: body.tables[0]?.columns }) },
  }
)

/** GET /v1/screen */
export function registerScreen(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const plan = checkQuery(c.req.valid('query'))
    const meta = { market: plan.market, expr: plan.expr, ...(plan.preset ? { preset: plan.preset } : {}), orderby: plan.orderby, desc: plan.desc }
    const empty = { data: '', structured: [], tables: [], returned: 0 }
    const table = await services.store.factorTable(c, plan.market)
    if (!table) {
      // The first build writes the factor tables last: while it runs, say how far it is rather than "run the backfill".
      const build = await services.store.buildUnderWay(c)
      if (build) {
        const { progress } = build
        const error = buildingMessage(`the ${plan.market} factor table`, progress)
        return answer(c, 'screen', { ok: false, source: 'store', ...empty, ...meta, matched: 0, code: 'BUILDING', error, progress })
      }
      const error = `the ${plan.market} factor table has not been built yet (the after-close job builds it; locally, run the backfill)`
      return answer(c, 'screen', { ok: false, source: 'store', ...empty, ...meta, matched: 0, code: 'NO_DATA', error })
    }
    // A factor the table does not carry yet would make every comparison false: say so instead.
    const absent = [...new Set([...plan.columns, plan.orderby])].filter((f) => !table.has(f))
    if (absent.length) {
      const error = `the ${plan.market} factor table of ${table.date} does not carry ${absent.join(', ')} yet (their source is not built into it); use other factors`
      return answer(c, 'screen', { ok: false, source: 'store', ...empty, ...meta, date: table.date, matched: 0, code: 'FACTOR_UNAVAILABLE', error })
    }
    const { rows, matched } = runScreen(plan, table)
    if (matched === 0) {
      const error = `no stock of ${plan.market} matches on ${table.date}; loosen the expression`
      return answer(c, 'screen', { ok: false, source: 'store', ...empty, ...meta, date: table.date, matched, code: 'NO_MATCH', error })
    }
    const columns = ['code', 'name', ...plan.columns]
    const body = {
      ok: true,
      source: 'store',
      data: markdownTable(columns, rows),
      structured: rows,
      tables: [{ title: plan.preset ?? plan.expr, columns, rows }],
      ...meta,
      date: table.date,
      as_of: table.date,
      matched,
      returned: rows.length,
    }
    return answer(c, 'screen', body)
  })
}

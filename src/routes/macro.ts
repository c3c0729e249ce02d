import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { MACRO_CATALOGUE, MACRO_REGIONS, macroNames, type MacroRegion, type MacroSeriesSpec } from '../data/macro-catalogue'
import { beijing } from '../domain/dates'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { groupOf, macroGroup, type MacroPoint } from '../services/macro'
import { staleOf } from '../services/reference'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { oldestAsOf } from '../domain/instant'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const CATALOGUE_TEXT = MACRO_REGIONS.map((r) => `**${r}**: ${MACRO_CATALOGUE[r].map((s) => `\`${s.name}\` (${s.title}; ${s.unit}; ${s.frequency})`).join(', ')}`).join('. ')

const Query = z.object({
  region: z
    .enum(MACRO_REGIONS, { error: `region must be one of ${MACRO_REGIONS.join(', ')}` })
    .default('cn')
    .openapi({ description: `Region: ${MACRO_REGIONS.join(', ')} (default cn). eu is served through Germany's series (named \`de_…\`).`, example: 'cn' }),
  names: z
    .string()
    .optional()
    .openapi({ description: 'Indicator short names of the region, comma-separated; blank = every series of the region. Catalogue: see the operation description.', example: 'cpi,pmi,lpr_1y' }),
  count: IntParam('count', 1, 120)
    .default(12)
    .openapi({ description: 'Observations per series, newest first, 1..120 (default 12)', example: 12, type: 'integer', minimum: 1, maximum: 120 }),
})

const PointSchema = z.object({
  period: z.string().openapi({ description: '`YYYY-MM` (monthly), `YYYY-Qn` (quarterly, year to date where the title says cumulative) or `YYYY-MM-DD` (daily)' }),
  value: z.number().openapi({ description: 'In the series\' `unit`' }),
  release_date: z.string().nullable().openapi({ description: 'Day it was published, YYYY-MM-DD; null where the upstream does not say (China\'s monthly and quarterly tables)' }),
})

const SeriesSchema = z
  .object({
    name: z.string().openapi({ description: 'Short name, as asked' }),
    region: z.enum(MACRO_REGIONS),
    title: z.string().openapi({ description: 'What the series measures' }),
    unit: z.string().openapi({ description: 'Unit of `value`, e.g. `%`, `100 million CNY`, `% a year`' }),
    frequency: z.enum(['daily', 'monthly', 'quarterly']),
    period: z.string().openapi({ description: 'Latest period' }),
    value: z.number().openapi({ description: 'Latest value, in `unit`' }),
    release_date: z.string().nullable().openapi({ description: 'When the latest value was published (null where the upstream does not say)' }),
    history: z.array(PointSchema).openapi({ description: 'The latest observations, newest first (the first is `period`/`value`)' }),
  })
  .openapi('MacroSeries')

const Response = envelopeSchema('MacroEnvelope', z.array(SeriesSchema).openapi({ description: 'One entry per series asked, in the order asked' }), AS_OF.instant('when the oldest of the series was fetched from the upstream (answers are kept for the whole service for hours)')).openapi('MacroEnvelope', {
  example: {
    ok: true,
    endpoint: 'macro',
    tier: 'trial',
    elapsed_ms: 6,
    source: 'eastmoney',
    as_of: '2026-11-20T10:30:00+08:00',
    data: [
      {
        name: 'cpi', region: 'cn', title: 'Consumer prices, national, year on year', unit: '%', frequency: 'monthly',
        period: '2026-10', value: 0.4, release_date: null,
        history: [{ period: '2026-10', value: 0.4, release_date: null }, { period: '2026-09', value: 0.2, release_date: null }],
      },
    ],
  },
})

/** The specs a query asks for; throws the 422 listing the valid names when one is unknown. */
function macroSpecs(region: MacroRegion, names: string | undefined): MacroSeriesSpec[] {
  const all = MACRO_CATALOGUE[region]
  const asked = (names ?? '').split(',').map((n) => n.trim()).filter(Boolean)
  if (asked.length === 0) return all
  const unknown = asked.filter((n) => !all.some((s) => s.name === n))
  if (unknown.length) {
    throw new ValidationError([queryIssue('names', `unknown indicator ${unknown.join(', ')} for region ${region}; valid names: ${macroNames(region).join(', ')}`, names)])
  }
  return [...new Set(asked)].map((n) => all.find((s) => s.name === n)!)
}

const route = admittedRoute(
  POLICY,
  {
    method: 'get',
    path: '/v1/macro',
    operationId: 'macro',
    tags: ['Pro'],
    summary: 'Macro series: GDP, CPI, PPI, PMI, LPR, money supply, fiscal revenue, yields',
    description:
      'Series of one region by short name, each with its unit, frequency, latest period, value and release date, and the latest `count` ' +
      'observations. An unknown name is a 422 listing the valid ones. From Eastmoney\'s datacenter (China\'s RPT_ECONOMY_* tables, ' +
      'RPTA_WEB_RATE, RPTA_WEB_TREASURYYIELD, and the RPT_ECONOMICVALUE_* country tables); cached for the whole service for hours ' +
      `(\`as_of\`). A series the upstream could not give is left out and named in \`errors\`. Catalogue — ${CATALOGUE_TEXT}.`,
    request: { query: Query },
    responses: {
      200: { description: 'Series (ok:false when no series could be served; not counted)', content: { 'application/json': { schema: Response } } },
      ...COMMON_ERRORS,
    },
  },
  { check: (_c, q) => void macroSpecs(q.region, q.names) }
)

const toPoint = (p: MacroPoint) => ({ period: p.period, value: p.value, release_date: p.release })

/** GET /v1/macro */
export function registerMacro(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const q = c.req.valid('query')
    const specs = macroSpecs(q.region, q.names)
    const today = beijing(services.now()).date
    // One request per report (or indicator), shared by every series it carries.
    const groups = new Map<string, MacroSeriesSpec[]>()
    for (const s of MACRO_CATALOGUE[q.region]) if (specs.some((x) => groupOf(x) === groupOf(s))) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s])
    const answers = await Promise.all(
      [...groups].map(async ([group, members]) => {
        const r = await services.reference.fetch(
          c,
          `macro?${q.region}&${group}&count=${q.count}&today=${today}`,
          ['eastmoney'],
          macroGroup(members, q.count),
          { cls: 'macro', key: `macro?${q.region}&${group}&count=${q.count}` }
        )
        return [group, r] as const
      })
    )
    const byGroup = new Map(answers)
    const data: z.infer<typeof SeriesSchema>[] = []
    const errors: Record<string, string> = {}
    const sources = new Set<string>()
    const asOf: string[] = []
    for (const spec of specs) {
      const r = byGroup.get(groupOf(spec))!
      if (!r.ok) {
        errors[spec.name] = r.error
        continue
      }
      const points = r.value[spec.name] ?? []
      if (points.length === 0) {
        errors[spec.name] = 'the upstream has no observation of this series'
        continue
      }
      sources.add(r.source)
      asOf.push(r.as_of)
      const [latest] = points
      data.push({ name: spec.name, region: q.region, title: spec.title, unit: spec.unit, frequency: spec.frequency, period: latest.period, value: latest.value, release_date: latest.release, history: points.map(toPoint) })
    }
    const failed = Object.keys(errors).length ? { errors } : {}
    if (data.length === 0) {
      const allEmpty = answers.every(([, r]) => r.ok || r.code === 'NO_DATA')
      return answer(c, 'macro', { ok: false, source: 'none', data, code: allEmpty ? 'NO_DATA' : 'UPSTREAM_UNAVAILABLE', error: Object.entries(errors).map(([n, e]) => `${n}: ${e}`).join('; '), ...failed })
    }
    // Each series counts its history's points.
    const rows = data.reduce((n, s) => n + s.history.length, 0)
    return answer(c, 'macro', { ok: true, source: sources.size === 1 ? [...sources][0] : 'multi', data, as_of: oldestAsOf(asOf), ...failed, ...staleOf(answers.map(([, r]) => r)) }, { rows })
  })
}

import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import type { Services } from '../services/types'
import { SEARCH_KINDS, SEARCH_MARKETS, suggestions, type SearchHit } from '../services/search'
import { staleOf } from '../services/reference'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** Rows asked of the upstream; a code's prefix may then narrow them. */
const UPSTREAM_COUNT = 20

const Query = z.object({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, { error: 'q must not be blank' })
    .max(40, { error: 'q must be at most 40 characters' })
    .openapi({ description: 'A code (with or without its prefix: `600519`, `sh600519`, `pt0477`, `hk00700`, `AAPL`), a Chinese name or part of one (`茅台`), or pinyin initials (`gzmt`)', example: 'gzmt' }),
})

const HitSchema = z
  .object({
    code: z.string().openapi({ description: 'Our prefixed code, usable with /v1/quote and /v1/kline: `sh600519`, `sz159915`, `pt0477` (industry board), `hk00700`, `usAAPL`' }),
    name: z.string().openapi({ description: 'Short name (证券简称)' }),
    kind: z.enum(SEARCH_KINDS).openapi({ description: '`stock` (A-share, HK or US share), `fund` (ETF), `index`, `sector` (Eastmoney industry board), `bond` (convertible bond)' }),
    market: z.enum(SEARCH_MARKETS).openapi({ description: 'Where it trades: `shanghai`, `shenzhen`, `beijing`, `a_share` (boards spanning both exchanges), `hong_kong`, `us`' }),
    pinyin: z.string().nullable().openapi({ description: 'Pinyin initials of the name as the upstream gives them (`GZMT`); null when the upstream gives none' }),
  })
  .openapi('SearchHit')

const Response = envelopeSchema('SearchEnvelope', z.array(HitSchema).openapi({ description: 'Matches, best first: exact code, then code or name prefix, then pinyin initials, then name substring' }), AS_OF.instant('when the answer was fetched from the upstream (answers are kept for the whole service for hours)')).openapi('SearchEnvelope', {
  example: {
    ok: true,
    endpoint: 'search',
    tier: 'trial',
    elapsed_ms: 4,
    source: 'eastmoney',
    as_of: '2026-11-20T10:30:00+08:00',
    data: [{ code: 'sh600519', name: '贵州茅台', kind: 'stock', market: 'shanghai', pinyin: 'GZMT' }],
  },
})

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/search',
  operationId: 'search',
  tags: ['Pro'],
  summary: 'Find stocks, ETFs, indexes, sectors, HK and US names',
  description:
    'Searches by code (with or without prefix), Chinese name, or pinyin initials (`gzmt` finds 贵州茅台). Each hit carries our ' +
    'prefixed code, name, kind and market. A code with its prefix keeps only hits of that market (`sz000001` is 平安银行, not 上证指数). ' +
    'Served from Eastmoney\'s suggest API, Sina\'s as fallback; answers are cached for the whole service for hours, `as_of` says when ' +
    'they were fetched. Nothing found: ok:false with code NO_DATA (not counted).',
  request: { query: Query },
  responses: {
    200: { description: 'Hits (ok:false NO_DATA when nothing matches, UPSTREAM_UNAVAILABLE when every upstream failed; neither counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
})

/** What to ask the upstream for `q`, and the prefix a hit must start with when `q` named one. */
function searchPlan(q: string): { keyword: string; prefix?: string } {
  const m = /^(sh|sz|bj|hk|pt)(\d{1,6})$/i.exec(q)
  if (!m) return { keyword: q }
  const prefix = m[1].toLowerCase()
  return { keyword: prefix === 'pt' ? 'BK' + m[2] : m[2], prefix: prefix + m[2] }
}

/** GET /v1/search */
export function registerSearch(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const { q } = c.req.valid('query')
    const plan = searchPlan(q)
    const r = await services.reference.fetch<SearchHit[]>(c, `search?k=${plan.keyword.toUpperCase()}`, ['eastmoney', 'sina'], suggestions(plan.keyword, UPSTREAM_COUNT), { cls: 'search' })
    if (!r.ok) return answer(c, 'search', { ...r, data: [] as SearchHit[] })
    const data = plan.prefix ? r.value.filter((h) => h.code.startsWith(plan.prefix!)) : r.value
    if (data.length === 0) {
      return answer(c, 'search', { ok: false, source: r.source, data, as_of: r.as_of, code: 'NO_DATA', error: `nothing matches ${JSON.stringify(q)}` })
    }
    return answer(c, 'search', { ok: true, source: r.source, data, as_of: r.as_of, ...staleOf([r]) })
  })
}

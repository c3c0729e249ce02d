import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { ChannelName } from '../domain/channel-name'
import { CHAIN_THEME_COUNT, type ChainTheme, type ChainThemes } from '../data/industry-chains'
import { editDistance } from '../domain/screen/suggest'
import type { Instrument } from '../domain/instrument'
import { parseSymbol, SymbolError } from '../domain/symbols'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import type { ReferenceRequest } from '../services/types'
import { companySurvey, type CompanySurvey } from '../services/company-profile'
import { notThisMarket } from './shared/stock-code'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'
import { reformInstant } from '../domain/instant'

/** Who may call it (pro group, trial and above). */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

/** Longest `topic` worth comparing with theme names. */
const MAX_TOPIC = 40
/** Company profiles are reference data: kept service-wide for a day. */
const PROFILE_TTL_MS = 24 * 3600_000
const PROFILE_CHANNELS: readonly ChannelName[] = ['eastmoney']

const POSITIONS = ['upstream', 'midstream', 'downstream'] as const

const Query = z.object({
  mode: z
    .enum(['list', 'graph', 'detail', 'stock'], { error: 'mode must be list, graph (or detail) or stock' })
    .default('list')
    .openapi({ description: '`list`: every theme with node and stock counts; `graph` (or `detail`): one theme\'s nodes, edges and stocks (needs `topic`); `stock`: the themes and nodes a stock belongs to (needs `code`)', example: 'graph' }),
  topic: z.string().optional().openapi({ description: 'Theme name (e.g. 锂电池) or id (e.g. lithium-battery); required with `mode=graph`', example: '锂电池' }),
  code: z.string().optional().openapi({ description: 'One A-share stock with its sh, sz or bj prefix; required with `mode=stock`', example: 'sz300750' }),
})
type Query = z.infer<typeof Query>

const Position = z.enum(POSITIONS).openapi({ description: 'Where the node sits in the chain: upstream (resources, materials, parts), midstream (making), downstream (using, selling)' })
const Relevance = z.number().nullable().openapi({ description: 'Share of the company\'s revenue from this node\'s business, 0..1, from its latest main-business composition (主营构成); null when the node selects by board membership alone' })

const ThemeSummary = z
  .object({
    id: z.string().openapi({ description: 'Theme id (English slug)' }),
    name: z.string().openapi({ description: 'Theme name, what `topic` takes' }),
    nodes: z.number().int().openapi({ description: 'Nodes in the chain' }),
    positions: z.object(Object.fromEntries(POSITIONS.map((p) => [p, z.number().int()]))).openapi({ description: 'Nodes per position' }),
    stocks: z.number().int().openapi({ description: 'Distinct stocks across the nodes' }),
  })
  .openapi('ChainThemeSummary')

const NodeStock = z
  .object({
    code: z.string().openapi({ description: 'Stock code with prefix' }),
    name: z.string().openapi({ description: 'Stock name' }),
    relevance: Relevance,
    via: z.string().openapi({ description: 'What found it: `board:<board name>` or `keyword:<word in its main business>`' }),
  })
  .openapi('ChainNodeStock')

const Node = z
  .object({
    id: z.string().openapi({ description: 'Node id within the theme (u1, m1, d1, …)' }),
    name: z.string().openapi({ description: 'Node name' }),
    position: Position,
    rule: z.string().openapi({ description: 'The rule that found the members, in words: the Eastmoney boards and the main-business keywords' }),
    computed_at: z.string().openapi({ description: 'When the scheduled job computed the members, an instant (ISO 8601 with its offset, `2026-11-24T01:00:00+08:00`)' }),
    stocks: z.array(NodeStock).openapi({ description: 'Members, most relevant first' }),
  })
  .openapi('ChainNode')

const Graph = z
  .object({
    id: z.string(),
    name: z.string(),
    nodes: z.array(Node),
    edges: z.array(z.tuple([z.string(), z.string()])).openapi({ description: 'Directed edges `[from, to]` between node ids: supply flows from → to' }),
  })
  .openapi('ChainGraph')

const Membership = z
  .object({
    theme_id: z.string(),
    theme: z.string().openapi({ description: 'Theme name' }),
    node_id: z.string(),
    node: z.string().openapi({ description: 'Node name' }),
    position: Position,
    relevance: Relevance,
    via: z.string().openapi({ description: 'What found it (as in graph mode)' }),
  })
  .openapi('ChainMembership')

const StockChains = z
  .object({
    code: z.string(),
    name: z.string().nullable().openapi({ description: 'Stock name as the board lists gave it; null when the stock is in no node' }),
    business: z.string().nullable().openapi({ description: 'Business description from the company profile (F10 公司概况 公司简介); null when it could not be had' }),
    business_scope: z.string().nullable().openapi({ description: 'Scope of business (经营范围) from the same profile' }),
    chains: z.array(Membership).openapi({ description: 'Every theme node the stock belongs to, most relevant first' }),
  })
  .openapi('StockChains')

const Coverage = z
  .object({
    boards: z.number().int().openapi({ description: 'Boards whose members the job holds' }),
    boards_named: z.number().int().openapi({ description: 'Boards the themes name' }),
    compositions: z.number().int().openapi({ description: 'Candidate stocks whose main-business composition the job holds' }),
    candidates: z.number().int().openapi({ description: 'Stocks in any named board (the ones whose composition is read)' }),
  })
  .openapi('ChainCoverage', { description: 'How much upstream data the members were computed from; `complete` says whether all of it' })

const Response = envelopeSchema(
  'IndustryChainEnvelopeBase',
  z.union([z.array(ThemeSummary), Graph, StockChains]).openapi({ description: 'list: array of themes; graph: one theme\'s graph; stock: the stock\'s chains' }),
  AS_OF.instant('when the scheduled job computed the members')
)
  .extend({
    mode: z.enum(['list', 'graph', 'stock']).optional().openapi({ description: 'The mode answered (`detail` answers as `graph`)' }),
    complete: z.boolean().optional().openapi({ description: 'False while the job has not yet read every board and composition (members may grow)' }),
    coverage: Coverage.optional(),
  })
  .openapi('IndustryChainEnvelope', {
    example: {
      ok: true,
      endpoint: 'industry-chain',
      tier: 'pro',
      elapsed_ms: 3,
      source: 'store',
      as_of: '2026-11-24T01:00:00+08:00',
      mode: 'stock',
      complete: true,
      coverage: { boards: 213, boards_named: 213, compositions: 5120, candidates: 5120 },
      data: {
        code: 'sz300750',
        name: '宁德时代',
        business: '宁德时代新能源科技股份有限公司主要从事动力电池及储能电池的研发、生产和销售。',
        business_scope: '锂离子电池、锂聚合物电池、燃料电池、动力电池、储能电池的研发、生产、销售。',
        chains: [
          { theme_id: 'lithium-battery', theme: '锂电池', node_id: 'm1', node: '锂电池电芯', position: 'midstream', relevance: 0.6972, via: 'keyword:动力电池' },
          { theme_id: 'energy-storage', theme: '储能', node_id: 'u1', node: '储能电芯', position: 'upstream', relevance: 0.1531, via: 'keyword:储能电池' },
        ],
      },
    },
  })

/** Theme names nearest `topic`: by edit distance, then by shared characters; five at most. */
function suggestThemes(topic: string, themes: readonly ChainTheme[]): string[] {
  const t = topic.trim().slice(0, MAX_TOPIC)
  const shared = (name: string) => [...new Set(name)].filter((ch) => t.includes(ch)).length
  return themes
    .map((th) => ({ name: th.name, d: editDistance(t, th.name), s: shared(th.name) }))
    .sort((a, b) => b.s - a.s || a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map((x) => x.name)
}

type Plan = { mode: 'list' } | { mode: 'graph'; theme: ChainTheme } | { mode: 'stock'; inst: Instrument }

/** The rules zod cannot see: `topic` with graph, `code` with stock, and that each names something. */
function plan(q: Query, themes: ChainThemes): Plan {
  if (q.mode === 'list') return { mode: 'list' }
  if (q.mode === 'graph' || q.mode === 'detail') {
    const topic = q.topic?.trim() ?? ''
    if (!topic) throw new ValidationError([queryIssue('topic', `topic is required with mode=${q.mode}`, q.topic ?? null)])
    const theme = topic.length <= MAX_TOPIC ? themes.of(topic) : undefined
    if (!theme) throw new ValidationError([queryIssue('topic', `unknown theme; nearest: ${suggestThemes(topic, themes.list).join(', ')}`, q.topic)])
    return { mode: 'graph', theme }
  }
  const raw = q.code?.trim() ?? ''
  if (!raw) throw new ValidationError([queryIssue('code', 'code is required with mode=stock', q.code ?? null)])
  if (raw.includes(',')) throw new ValidationError([queryIssue('code', 'one code per call (not a comma-separated list)', raw)])
  try {
    return { mode: 'stock', inst: parseSymbol(raw) }
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    throw new ValidationError([queryIssue('code', e.message, raw)])
  }
}

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/industry-chain',
  operationId: 'industryChain',
  tags: ['Pro'],
  summary: 'Industry-chain themes, graphs and a stock\'s place in them',
  description:
    `${CHAIN_THEME_COUNT} industry-chain themes (锂电池, 光伏, 半导体, 白酒, 创新药, 机器人, …), each a graph of upstream, midstream and ` +
    'downstream nodes. A node\'s stocks are not typed by hand: its rule names Eastmoney industry and concept boards and keywords of the ' +
    'company\'s main-business composition (主营构成), and a scheduled job materialises them; every node says its rule and `computed_at`. ' +
    '`mode=list` (default): themes with node and stock counts. `mode=graph` (or `detail`) with `topic`: nodes, edges and each node\'s stocks ' +
    'with relevance (share of revenue from that business, where the composition says so). `mode=stock` with `code`: every theme and node the ' +
    'stock belongs to, with position and relevance, and its business description from the company profile. An unknown topic is a 422 naming ' +
    'the nearest themes. Before the job has run: ok:false, code NOT_BUILT (not counted).',
  request: { query: Query },
  responses: {
    200: { description: 'Themes, a graph or a stock\'s chains (ok:false while the members are not built; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: async (c, q) => void plan(q, await c.get('services').store.chainThemes(c)) })

/** GET /v1/industry-chain */
export function registerIndustryChain(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const p = plan(c.req.valid('query'), await services.store.chainThemes(c))
    if (p.mode === 'stock') {
      const notice = notThisMarket('industry-chain', p.inst)
      if (notice) return answer(c, 'industry-chain', { ok: true, source: 'none', mode: 'stock' as const, data: { code: p.inst.code, name: null, business: null, business_scope: null, chains: [] }, notice })
    }
    const doc = await services.store.chainMembers(c)
    if (!doc) {
      return answer(c, 'industry-chain', { ok: false, source: 'none', data: [], code: 'NOT_BUILT', error: 'industry-chain members are not built yet: the scheduled job (or POST /__jobs/industry-chain) has not run' })
    }
    const meta = { source: 'store', as_of: reformInstant(doc.computed_at), complete: doc.complete, coverage: doc.coverage }
    const nameOf = (code: string) => doc.names[code] ?? ''

    if (p.mode === 'list') {
      const data = doc.themes.map((t) => ({
        id: t.id,
        name: t.name,
        nodes: t.nodes.length,
        positions: Object.fromEntries(POSITIONS.map((pos) => [pos, t.nodes.filter((n) => n.position === pos).length])) as Record<(typeof POSITIONS)[number], number>,
        stocks: new Set(t.nodes.flatMap((n) => n.members.map((m) => m.code))).size,
      }))
      return answer(c, 'industry-chain', { ok: true, ...meta, mode: 'list' as const, data })
    }

    if (p.mode === 'graph') {
      const t = doc.themes.find((x) => x.id === p.theme.id)
      if (!t) return answer(c, 'industry-chain', { ok: false, source: 'none', data: [], code: 'NOT_BUILT', error: `theme ${p.theme.name} is not in the built members yet; the next job run adds it` })
      const nodes = t.nodes.map(({ members: ms, ...n }) => ({ ...n, computed_at: reformInstant(n.computed_at), stocks: ms.map((m) => ({ code: m.code, name: nameOf(m.code), relevance: m.relevance, via: m.via })) }))
      return answer(c, 'industry-chain', { ok: true, ...meta, mode: 'graph' as const, data: { id: t.id, name: t.name, nodes, edges: t.edges } })
    }

    const code = p.inst.code
    const chains = doc.themes
      .flatMap((t) => t.nodes.flatMap((n) => n.members.filter((m) => m.code === code).map((m) => ({ theme_id: t.id, theme: t.name, node_id: n.id, node: n.name, position: n.position, relevance: m.relevance, via: m.via }))))
      .sort((a, b) => (b.relevance ?? -1) - (a.relevance ?? -1) || a.theme_id.localeCompare(b.theme_id) || a.node_id.localeCompare(b.node_id))
    const survey = await profileOf(c, services, code)
    const data = { code, name: doc.names[code] || null, business: survey?.profile ?? null, business_scope: survey?.scope ?? null, chains }
    const notice = survey === undefined ? 'the company profile could not be had: business is null' : undefined
    return answer(c, 'industry-chain', { ok: true, ...meta, mode: 'stock' as const, data, ...(notice ? { notice } : {}) })
  })
}

/** The company survey, cached service-wide; null when the page knows no such company, undefined when it could not be had. */
async function profileOf(c: ReferenceRequest, services: Services, code: string): Promise<CompanySurvey | null | undefined> {
  try {
    return await services.reference.cached(c, `chain-profile:${code}`, async () => {
      const got = await services.market.fetch('profile:cn', PROFILE_CHANNELS, companySurvey(code))
      if (!got.ok) throw new Error('no profile')
      return { value: got.value, keep: true }
    }, PROFILE_TTL_MS)
  } catch {
    return undefined
  }
}

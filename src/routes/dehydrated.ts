import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import type { Attempt } from '../services/types'
import { reportPageUrl, reportPdfUrl, reportSummary, researchReports, type ResearchRow } from '../services/research'
import type { ChannelName } from '../domain/channel-name'
import { mapLimit } from '../domain/concurrency'
import { addDays, beijing } from '../domain/dates'
import { keyPoints, MAX_POINT_CHARS } from '../domain/digest'
import type { Instrument } from '../domain/instrument'
import { parseSymbol, SymbolError } from '../domain/symbols'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { queryIssue, ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { notThisMarket } from './shared/stock-code'
import { upstreamFailure } from '../http/outcome'
import { IntParam } from './shared/schemas'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

/** Who may call it and what it costs: pro group, trial and above. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 1, counted: true }

const DEFAULT_LIMIT = 30
const MAX_LIMIT = 100
/** How far back each mode looks: the market's latest month; one stock's latest year. */
const LIST_WINDOW_DAYS = 30
const DETAIL_WINDOW_DAYS = 365
/** Digests are reference data: kept service-wide for three hours. */
const DIGEST_TTL_MS = 3 * 3600_000
/** Report pages fetched at once. */
const PAGE_CONCURRENCY = 6

/** Eastmoney's unified rating names in our words. */
const RATING_OF: Record<string, Rating> = { 买入: 'buy', 增持: 'overweight', 中性: 'neutral', 减持: 'underweight', 卖出: 'sell' }
const RATINGS = ['buy', 'overweight', 'neutral', 'underweight', 'sell'] as const
type Rating = (typeof RATINGS)[number]

const Query = z.object({
  mode: z
    .enum(['list', 'detail'], { error: 'mode must be list or detail' })
    .default('list')
    .openapi({ description: '`list`: the latest digests of the whole market (of `symbol` when given); `detail`: the digests of `symbol` with a consensus line', example: 'list' }),
  symbol: z.string().optional().openapi({ description: 'One A-share stock with its sh, sz or bj prefix; required with `mode=detail`', example: 'sh600519' }),
  limit: IntParam('limit', 1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .openapi({ description: `Digests returned, newest first (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})`, example: 30, type: 'integer', minimum: 1, maximum: MAX_LIMIT }),
})
type Query = z.infer<typeof Query>

const RatingEnum = z.enum(RATINGS).nullable()

const Digest = z
  .object({
    info_code: z.string().openapi({ description: "Eastmoney's report id (`AP` + digits)" }),
    date: z.string().openapi({ description: 'Publication date `YYYY-MM-DD` (Beijing)' }),
    title: z.string().openapi({ description: 'Report title as published' }),
    broker: z.string().openapi({ description: 'Broker (short name) that published the report' }),
    analysts: z.array(z.string()).openapi({ description: 'Analysts who signed it' }),
    code: z.string().openapi({ description: 'The stock, with our prefix (e.g. `sh600519`)' }),
    name: z.string().openapi({ description: 'Stock name' }),
    rating: RatingEnum.openapi({ description: 'Rating in our words (买入 buy, 增持 overweight, 中性 neutral, 减持 underweight, 卖出 sell); null when the report has none or another wording' }),
    rating_text: z.string().nullable().openapi({ description: "Rating as Eastmoney's unified scale words it (e.g. 买入)" }),
    previous_rating: RatingEnum.openapi({ description: "The same broker's rating in its previous report on this stock; null for a first report (initiation)" }),
    previous_rating_text: z.string().nullable().openapi({ description: 'The previous rating as worded upstream' }),
    rating_changed: z.boolean().nullable().openapi({ description: 'True when the rating differs from the same broker\'s previous one; null for a first report' }),
    target_price: z.number().nullable().openapi({ description: 'Target price, CNY (the top of the range when the report gives a range); null when the report gives none' }),
    target_price_low: z.number().nullable().openapi({ description: 'Bottom of the target range, CNY; null unless the report gives a range' }),
    last: z.number().nullable().openapi({ description: 'Latest price of the stock, CNY, as /v1/quote serves it now (the close once the session has ended); null when no quote could be had' }),
    upside_pct: z.number().nullable().openapi({ description: 'Upside the target implies from `last`: (target_price / last − 1) × 100, percent, 2 decimals; null without a target or a price' }),
    forecast_year: z.number().int().openapi({ description: 'The year the "this year" forecasts are for; "next year" is the one after' }),
    eps_this_year: z.number().nullable().openapi({ description: 'EPS forecast for `forecast_year`, CNY per share' }),
    pe_this_year: z.number().nullable().openapi({ description: 'PE on that forecast, as the report computed it (price at publication / EPS)' }),
    eps_next_year: z.number().nullable().openapi({ description: 'EPS forecast for `forecast_year` + 1, CNY per share' }),
    pe_next_year: z.number().nullable().openapi({ description: 'PE on the next-year forecast' }),
    key_points: z.array(z.string()).nullable().openapi({
      description: `The summary reduced to its sentences that carry a claim or a number (at most five, each at most ${MAX_POINT_CHARS} characters; labels, boilerplate, disclaimers and the risk list dropped), in the summary's order. [] when the summary has none; null when the report page could not be read`,
    }),
    url: z.string().openapi({ description: 'The source report page' }),
    pdf_url: z.string().openapi({ description: 'The report PDF' }),
  })
  .openapi('Digest', { description: 'One broker report, dehydrated' })

const Consensus = z
  .object({
    code: z.string().openapi({ description: 'The stock' }),
    brokers: z.number().int().openapi({ description: 'Brokers counted: each broker once, by its latest digest among `data`' }),
    rating_counts: z.object(Object.fromEntries(RATINGS.map((r) => [r, z.number().int()]))).openapi({ description: 'Brokers per rating (latest digest of each)' }),
    median_target_price: z.number().nullable().openapi({ description: 'Median of those brokers\' target prices, CNY; null when none gives one' }),
    targets: z.number().int().openapi({ description: 'Brokers whose latest digest gives a target price' }),
    last: z.number().nullable().openapi({ description: 'Latest price, CNY (as in the digests)' }),
    upside_pct: z.number().nullable().openapi({ description: '(median_target_price / last − 1) × 100, percent' }),
  })
  .openapi('DigestConsensus', { description: 'Consensus of the brokers covering the stock, from the digests returned' })

const Response = envelopeSchema('DehydratedEnvelopeBase', z.array(Digest).openapi({ description: 'Digests, newest first' }), AS_OF.date('the newest digest\'s day'))
  .extend({ consensus: Consensus.optional().openapi({ description: 'With `mode=detail`: the consensus line' }) })
  .openapi('DehydratedEnvelope', {
    example: {
      ok: true,
      endpoint: 'dehydrated',
      tier: 'pro',
      elapsed_ms: 41,
      source: 'eastmoney',
      as_of: '2026-11-18',
      data: [
        {
          info_code: 'AP202611181234567890', date: '2026-11-18', title: '贵州茅台2026年三季报点评：业绩稳健增长，成长逻辑清晰', broker: '某证券', analysts: ['张三', '李四'],
          code: 'sh600519', name: '贵州茅台', rating: 'buy', rating_text: '买入', previous_rating: 'buy', previous_rating_text: '买入', rating_changed: false,
          target_price: 1980, target_price_low: null, last: 1520, upside_pct: 30.26, forecast_year: 2026, eps_this_year: 72.15, pe_this_year: 21.07,
          eps_next_year: 79.4, pe_next_year: 19.15,
          key_points: ['公司发布2026年三季报，实现营业收入1204.52亿元，同比增长12.31%', '我们预计公司2026-2027年EPS分别为72.15元、79.40元，对应PE分别为21.07倍、19.15倍，维持“买入”评级，目标价1980.00元'],
          url: 'https://data.eastmoney.com/report/info/AP202611181234567890.html', pdf_url: 'https://pdf.dfcfw.com/pdf/H3_AP202611181234567890_1.pdf',
        },
      ],
      consensus: { code: 'sh600519', brokers: 1, rating_counts: { buy: 1, overweight: 0, neutral: 0, underweight: 0, sell: 0 }, median_target_price: 1980, targets: 1, last: 1520, upside_pct: 30.26 },
    },
  })

/** The stock `symbol` names; the 422 when it is not a code. */
function symbolOf(raw: string): Instrument {
  if (raw.includes(',')) throw new ValidationError([queryIssue('symbol', 'one symbol per call (not a comma-separated list)', raw)])
  try {
    return parseSymbol(raw)
  } catch (e) {
    if (!(e instanceof SymbolError)) throw e
    throw new ValidationError([queryIssue('symbol', e.message, raw)])
  }
}

/** The rules zod cannot see: `symbol` is required with `detail` and must be a code. */
function plan(q: Query): { mode: 'list' | 'detail'; inst: Instrument | undefined; limit: number } {
  if (q.mode === 'detail' && (q.symbol === undefined || q.symbol.trim() === '')) {
    throw new ValidationError([queryIssue('symbol', 'symbol is required with mode=detail', q.symbol ?? null)])
  }
  const inst = q.symbol !== undefined && q.symbol.trim() !== '' ? symbolOf(q.symbol) : undefined
  return { mode: q.mode, inst, limit: q.limit }
}

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/dehydrated',
  operationId: 'dehydrated',
  tags: ['Pro'],
  summary: 'Broker research digests',
  description:
    'Broker research reports on A-share stocks, dehydrated: who said what, the rating and whether it changed from the same broker\'s ' +
    'previous one, the target price and the upside it implies from the latest price (/v1/quote\'s `last`), EPS and PE forecasts for this ' +
    'and next year, and `key_points`: the report summary reduced by fixed rules to its sentences that carry a claim or a number. ' +
    '`mode=list` (default): the whole market\'s latest digests (last 30 days; with `symbol`, that stock\'s). `mode=detail` with `symbol` ' +
    '(required): that stock\'s digests over the last year, newest first, plus `consensus` (each broker\'s latest rating counted once, the ' +
    'median target). Every digest links its source report (`url`). Reports are reference data, kept service-wide for hours; prices are live. ' +
    'A code that is not an A-share stock answers ok:true with empty `data` and a `notice`; a stock without reports answers ok:false, code NO_DATA. ' +
    'Upstream: Eastmoney research (reportapi report list, then each report page for its summary).',
  request: { query: Query },
  responses: {
    200: { description: 'Digests (ok:false when the upstream failed or had no reports; not counted)', content: { 'application/json': { schema: Response } } },
    ...COMMON_ERRORS,
  },
}, { check: (_c, q) => void plan(q) })

/** Which channels serve research reports (Eastmoney only: no other upstream has them). */
const DIGEST_CHANNELS: readonly ChannelName[] = ['eastmoney']

/** A digest as kept: `last` and `upside_pct` are null until the live price is joined in. */
type StoredDigest = z.infer<typeof Digest>

class NoDigests extends Error {
  constructor(readonly attempts: Attempt[]) {
    super('no digests')
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100
const upside = (target: number | null, last: number | null) => (target === null || last === null || last <= 0 ? null : round2((target / last - 1) * 100))

function toDigest(row: ResearchRow, summary: string | null): StoredDigest {
  return {
    info_code: row.infoCode,
    date: row.date,
    title: row.title,
    broker: row.broker,
    analysts: row.analysts,
    code: row.code,
    name: row.name,
    rating: row.rating === null ? null : (RATING_OF[row.rating] ?? null),
    rating_text: row.rating,
    previous_rating: row.lastRating === null ? null : (RATING_OF[row.lastRating] ?? null),
    previous_rating_text: row.lastRating,
    rating_changed: row.lastRating === null || row.rating === null ? null : row.lastRating !== row.rating,
    target_price: row.targetPrice,
    target_price_low: row.targetPriceLow,
    last: null,
    upside_pct: null,
    forecast_year: row.year,
    eps_this_year: row.epsThisYear,
    pe_this_year: row.peThisYear,
    eps_next_year: row.epsNextYear,
    pe_next_year: row.peNextYear,
    key_points: summary === null ? null : keyPoints(summary),
    url: reportPageUrl(row.infoCode),
    pdf_url: reportPdfUrl(row.infoCode),
  }
}

/** The median of non-empty `xs`. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : round2((s[m - 1] + s[m]) / 2)
}

/** Each broker's latest digest counted once (digests come newest first). */
function consensusOf(code: string, digests: ReadonlyArray<z.infer<typeof Digest>>, last: number | null): z.infer<typeof Consensus> {
  const latest = new Map<string, z.infer<typeof Digest>>()
  for (const d of digests) if (!latest.has(d.broker)) latest.set(d.broker, d)
  const counts = Object.fromEntries(RATINGS.map((r) => [r, 0])) as Record<Rating, number>
  const targets: number[] = []
  for (const d of latest.values()) {
    if (d.rating) counts[d.rating] += 1
    if (d.target_price !== null) targets.push(d.target_price)
  }
  const mid = targets.length ? median(targets) : null
  return { code, brokers: latest.size, rating_counts: counts, median_target_price: mid, targets: targets.length, last, upside_pct: upside(mid, last) }
}

/** GET /v1/dehydrated */
export function registerDehydrated(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const { mode, inst, limit } = plan(c.req.valid('query'))
    if (inst) {
      const notice = notThisMarket('dehydrated', inst)
      if (notice) return answer(c, 'dehydrated', { ok: true, source: 'none', data: [], notice })
    }
    const today = beijing(services.now()).date
    const begin = addDays(today, -(inst ? DETAIL_WINDOW_DAYS : LIST_WINDOW_DAYS))

    let stored: { digests: StoredDigest[]; channel: ChannelName }
    try {
      const key = `dehydrated:${inst?.code ?? '*'}:${limit}:${today}`
      stored = await services.reference.cached(c, key, async () => {
        const r = await services.market.fetch('research:cn', DIGEST_CHANNELS, researchReports({ inst, begin, end: today, limit }))
        if (!r.ok) throw new NoDigests(r.attempts)
        // A page that cannot be read leaves that digest without key points, not the answer without digests.
        const summaries = await mapLimit(r.value, PAGE_CONCURRENCY, (row) => services.market.ask('eastmoney', reportSummary(row.infoCode)).catch(() => null))
        const value = { digests: r.value.map((row, k) => toDigest(row, summaries[k])), channel: r.channel }
        // An answer with a digest whose page could not be read is served, not kept.
        return { value, keep: value.digests.every((d) => d.key_points !== null) }
      }, DIGEST_TTL_MS)
    } catch (e) {
      if (!(e instanceof NoDigests)) throw e
      return answer(c, 'dehydrated', { ok: false, source: 'none', data: [], ...upstreamFailure(e.attempts, inst?.code ?? 'research') })
    }

    // Live prices from the quote channels /v1/quote uses, so `last` is the same number.
    const codes = [...new Set(stored.digests.map((d) => d.code))].map((code) => parseSymbol(code))
    const quotes = await services.market.stockQuotes(codes)
    const lastOf = (code: string) => (quotes.ok ? (quotes.value.get(code)?.last ?? null) : null)
    const data = stored.digests.map((d) => {
      const last = lastOf(d.code)
      return { ...d, last, upside_pct: upside(d.target_price, last) }
    })
    const notice = quotes.ok ? undefined : 'no quote could be had: last and upside_pct are null'
    return answer(c, 'dehydrated', {
      ok: true,
      source: services.sourcePrefix + stored.channel,
      data,
      as_of: data[0].date,
      ...(mode === 'detail' && inst ? { consensus: consensusOf(inst.code, data, lastOf(inst.code)) } : {}),
      ...(notice ? { notice } : {}),
    })
  })
}

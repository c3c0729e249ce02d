import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { admittedRoute, registerAdmitted } from '../access/route'
import type { AccessPolicy } from '../access/tiers'
import { CHANGE_BAND_EDGES } from '../domain/change-distribution'
import type { AppEnv } from '../http/context'
import { sharedEnvelopeAnswer } from '../http/shared-envelope'
import type { Services } from '../services/types'
import { AS_OF, COMMON_ERRORS, envelopeSchema } from '../http/envelope-schema'

const ChangedistQuery = z.object({})

const BucketSchema = z
  .object({
    label: z.string().openapi({ description: 'Bucket name: `≤-9`, `-9~-7`, `-7~-5`, `-5~-3`, `-3~0`, `0` (unchanged), `0~3`, `3~5`, `5~7`, `7~9`, `≥9` (change percent)' }),
    min_pct: z.number().nullable().openapi({ description: 'Lower bound in percent (inclusive on the up side, exclusive on the down side); null = none' }),
    max_pct: z.number().nullable().openapi({ description: 'Upper bound in percent (exclusive on the up side, inclusive on the down side); null = none' }),
    count: z.number().int().openapi({ description: 'Stocks whose change percent (2 decimals, as quoted) falls in the bucket' }),
  })
  .openapi('ChangeBucket')

const ChangeDistributionSchema = z
  .object({
    date: z.string().openapi({ description: 'Trading date of the session counted, YYYY-MM-DD (Beijing): outside a session the latest one, whose final state the list keeps' }),
    computed_at: z.string().openapi({ description: 'When the count was made, an instant (ISO 8601 with its offset, `2026-11-20T10:30:00+08:00`)' }),
    total: z.number().int().openapi({ description: 'A-share stocks listed (SH, SZ, BJ), each counted once' }),
    traded: z.number().int().openapi({ description: 'Stocks that traded this session; = advancers + decliners + unchanged = the sum of the bucket counts' }),
    halted: z.number().int().openapi({ description: 'Suspended stocks (the upstream\'s suspension sign: Eastmoney "-" prices; on Tencent\'s rank list, no volume in a session others traded in)' }),
    untraded: z.number().int().openapi({ description: 'Listed stocks, not suspended, without a trade in the session; total = traded + halted + untraded' }),
    advancers: z.number().int().openapi({ description: 'Stocks above their previous close' }),
    decliners: z.number().int().openapi({ description: 'Stocks below their previous close' }),
    unchanged: z.number().int().openapi({ description: 'Stocks exactly at their previous close' }),
    limit_up: z.number().int().openapi({ description: 'Stocks at their limit-up price (previous close × (1 + limit), to the cent; limit 10% SH/SZ main board, 5% ST there, 20% STAR and ChiNext, 30% BSE). Listings in their first days without limits are not counted' }),
    limit_down: z.number().int().openapi({ description: 'Stocks at their limit-down price, same rules' }),
    buckets: z.array(BucketSchema).openapi({ description: `Change-percent buckets from the largest fall to the largest rise; band edges ${CHANGE_BAND_EDGES.join(', ')} percent each side` }),
    turnover: z
      .object({
        sh: z.number().openapi({ description: 'Shanghai A-share stocks, CNY' }),
        sz: z.number().openapi({ description: 'Shenzhen A-share stocks, CNY' }),
        bj: z.number().openapi({ description: 'Beijing Stock Exchange stocks, CNY' }),
        sh_sz: z.number().openapi({ description: 'The two markets (Shanghai + Shenzhen), CNY' }),
      })
      .openapi({ description: 'Amount traded this session by A-share stocks (funds, bonds and B shares excluded)' }),
  })
  .openapi('ChangeDistribution')

const ChangedistResponse = envelopeSchema(
  'ChangedistEnvelope',
  ChangeDistributionSchema.nullable().openapi({ description: 'The count; null with ok:false' }),
  AS_OF.instant('when the count was made (= `data.computed_at`)')
).openapi({
  example: {
    ok: true,
    endpoint: 'changedist',
    tier: 'free',
    elapsed_ms: 4,
    source: 'eastmoney',
    as_of: '2026-11-20T10:30:00+08:00',
    data: {
      date: '2026-11-20', computed_at: '2026-11-20T10:30:00+08:00', total: 5430, traded: 5301, halted: 129, untraded: 0,
      advancers: 3120, decliners: 2010, unchanged: 171, limit_up: 48, limit_down: 6,
      buckets: [
        { label: '≤-9', min_pct: null, max_pct: -9, count: 7 },
        { label: '-9~-7', min_pct: -9, max_pct: -7, count: 12 },
        { label: '-7~-5', min_pct: -7, max_pct: -5, count: 40 },
        { label: '-5~-3', min_pct: -5, max_pct: -3, count: 210 },
        { label: '-3~0', min_pct: -3, max_pct: 0, count: 1741 },
        { label: '0', min_pct: 0, max_pct: 0, count: 171 },
        { label: '0~3', min_pct: 0, max_pct: 3, count: 2380 },
        { label: '3~5', min_pct: 3, max_pct: 5, count: 420 },
        { label: '5~7', min_pct: 5, max_pct: 7, count: 160 },
        { label: '7~9', min_pct: 7, max_pct: 9, count: 70 },
        { label: '≥9', min_pct: 9, max_pct: null, count: 90 },
      ],
      turnover: { sh: 512345678901.23, sz: 634567890123.45, bj: 2345678901.5, sh_sz: 1146913569024.68 },
    },
  },
})

/** Who may call it and what it costs. */
const POLICY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/changedist',
  operationId: 'changedist',
  tags: ['Free'],
  summary: 'Up/down distribution of the current session',
  description:
    'Counts over the whole A-share market list (Eastmoney clist, every SH, SZ and BJ stock; Tencent\'s rank list when Eastmoney fails) at one moment: advancers, decliners, unchanged, ' +
    'limit-ups and limit-downs by each board\'s limit rule, change-percent buckets and turnover per exchange. The numbers add up: ' +
    'traded = advancers + decliners + unchanged = the sum of the buckets, total = traded + halted + untraded. Computed at most every 10 seconds for the whole service; ' +
    '`as_of` and `data.computed_at` say when. Outside a session (before the 09:25 opening match, lunch, after the close, nights, weekends, holidays) ' +
    'the counts are the latest session\'s, `data.date` says which. ' +
    'For the previous session\'s distribution use /v1/market-overview?type=updown.',
  request: { query: ChangedistQuery },
  responses: {
    200: { description: 'The distribution (ok:false when the market list failed or nothing traded; not counted)', content: { 'application/json': { schema: ChangedistResponse } } },
    ...COMMON_ERRORS,
  },
})

/** GET /v1/changedist */
export function registerChangedist(app: OpenAPIHono<AppEnv>, services: Services) {
  registerAdmitted(app, route, async (c) => {
    const { value } = await services.market.changedist({ waitUntil: (p) => c.executionCtx.waitUntil(p) })
    // One answer is one row (the envelope would count the arrays inside it).
    // The shared answer is serialised once (src/http/shared-envelope.ts).
    return sharedEnvelopeAnswer(c, 'changedist', { ok: value.ok, rows: value.ok ? 1 : 0 }, value, '', () => value)
  })
}

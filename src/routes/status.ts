import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../http/context'
import { jsonOnly, JsonOnlyQuery } from '../http/csv-answer'
import { COMMON_ERRORS, DEADLINE_ERROR, ErrorSchema } from '../http/envelope-schema'
import type { Services } from '../services/types'
import { cacheKind } from '../runtime/isolate-caches'

/** The budget object's count, as the status reads it. */
interface BudgetUse {
  used(): Promise<{ minute: number; granted: number }>
}

/** How long a client (or a cache in between) may keep the answer: the state moves in seconds. */
const MAX_AGE_S = 5

/**
 * The budget objects' counts this isolate read last, by family and clock minute, kept for the
 * answer's own max-age: a free, uncounted route must not cost a Durable Object call per family
 * on every call. At most some 50 reads.
 */
class BudgetReads {
  private readonly read = new Map<string, { at: number; granted: number | null }>()

  async used(objects: DurableObjectNamespace, channel: string, minute: number): Promise<number | null> {
    const key = `${channel} ${minute}`
    const kept = this.read.get(key)
    if (kept && Date.now() - kept.at < MAX_AGE_S * 1_000) return kept.granted
    const used = await (objects.getByName(channel) as unknown as BudgetUse).used().catch(() => null)
    const granted = used === null ? null : used.minute === minute ? used.granted : 0
    if (this.read.size > 50) this.read.clear()
    this.read.set(key, { at: Date.now(), granted })
    return granted
  }

  clear(): void {
    this.read.clear()
  }
}

/** The budget counts /v1/status read last in this isolate (one copy per `Services`). */
const BUDGET_READS = cacheKind("budget objects' counts read for /v1/status", () => new BudgetReads(), (r) => r.clear())

const CHANNELS = ['eastmoney', 'tencent', 'sina', 'ths', 'hkex'] as const
const Instant = (description: string) => z.string().nullable().openapi({ description, example: '2026-11-20T10:31:02+08:00' })

const HostSchema = z
  .object({
    channel: z.enum(CHANNELS).openapi({ description: 'The upstream host family: eastmoney, tencent, sina, ths (10jqka), hkex (hkexnews)' }),
    state: z.enum(['serving', 'backing_off', 'probing']).openapi({
      description:
        '`serving`: calls go to it. `backing_off`: it is skipped until `backoff_until`, after a ban (403, 429, 456, a captcha page) or three failures in a row; ' +
        'calls go to the next channel of their family, or answer ok:false. `probing`: the wait is over and the next call (one at a time) tries it again',
    }),
    backoff_until: Instant('While `backing_off`: when the wait ends (an instant, ISO 8601 with its offset, `2026-11-20T10:31:02+08:00`); else null'),
    backoff_step: z.number().int().min(1).nullable().openapi({
      description: 'While a ban lasts: its backoff step, 1 for the first wait (30 s, ±20 %), doubling with every failed probe up to 30 min; null without a ban',
    }),
    last_success: Instant('When the host last answered a request of this instance (an instant, ISO 8601 with its offset), or null'),
    requests_this_minute: z.number().int().min(0).openapi({ description: 'Requests this instance sent the host in the current clock minute' }),
    budget_per_minute: z.number().int().min(0).nullable().openapi({
      description: 'The request budget per minute the whole service keeps to for this host (every instance together; defaults in docs/upstreams.md, "Budgets"); null: none is set',
    }),
    budget_used_this_minute: z.number().int().min(0).nullable().openapi({
      description: 'Of that budget, the requests granted to the instances of the service in the current clock minute, as counted at most 5 s before; null without a budget, or when the count could not be read',
    }),
    error_rate: z
      .object({
        minutes: z.number().int().openapi({ description: 'The window, in minutes (the current one and those before it)' }),
        requests: z.number().int().min(0).openapi({ description: 'Requests sent in the window' }),
        failures: z.number().int().min(0).openapi({ description: 'Of them, those that failed at the wire: timeout, network, an error status, a ban page' }),
      })
      .openapi({ description: 'Requests and failures of the last few minutes' }),
  })
  .openapi('UpstreamHost')

const FamilySchema = z
  .object({
    key: z.string().openapi({ description: 'The data family: `quote:<group>`, `kline:<group>:day|minute` and every other family called since the instance started', example: 'kline:cn:day' }),
    chain: z.array(z.enum(CHANNELS)).openapi({ description: 'The channels that serve it, in the order they are tried' }),
    channel: z.enum(CHANNELS).nullable().openapi({ description: 'The channel the next call asks first: the last good one while it is fresh, skipping hosts backing off; null when every one is' }),
  })
  .openapi('UpstreamFamily')

const StatusSchema = z
  .object({
    ok: z.boolean().openapi({ description: 'The service answers (true; the hosts may all be backing off)' }),
    as_of: z.string().openapi({ description: 'When this was read (an instant, ISO 8601 with its offset, `2026-11-20T10:30:41+08:00`)' }),
    hosts: z.array(HostSchema).openapi({ description: 'Every upstream host, in a fixed order' }),
    families: z.array(FamilySchema).openapi({ description: 'Which channel serves each data family now' }),
  })
  .openapi('UpstreamStatus', {
    example: {
      ok: true,
      as_of: '2026-11-20T10:30:41+08:00',
      hosts: [
        {
          channel: 'eastmoney',
          state: 'backing_off',
          backoff_until: '2026-11-20T10:31:02+08:00',
          backoff_step: 1,
          last_success: '2026-11-20T10:29:58+08:00',
          requests_this_minute: 1,
          budget_per_minute: 120,
          budget_used_this_minute: 14,
          error_rate: { minutes: 5, requests: 214, failures: 1 },
        },
        {
          channel: 'tencent',
          state: 'serving',
          backoff_until: null,
          backoff_step: null,
          last_success: '2026-11-20T10:30:40+08:00',
          requests_this_minute: 37,
          budget_per_minute: 600,
          budget_used_this_minute: 212,
          error_rate: { minutes: 5, requests: 802, failures: 0 },
        },
      ],
      families: [
        { key: 'quote:cn', chain: ['tencent', 'eastmoney', 'sina'], channel: 'tencent' },
        { key: 'kline:cn:day', chain: ['eastmoney', 'tencent', 'sina'], channel: 'tencent' },
      ],
    },
  })

const route = createRoute({
  method: 'get',
  path: '/v1/status',
  operationId: 'status',
  tags: ['Free'],
  summary: 'Upstream hosts and which one serves each data family',
  description:
    'The state of every upstream host: serving, backing off after a ban or repeated failures (and until when), or being probed; its requests this minute and its ' +
    'failures over the last five minutes; and the channel each data family (`quote:cn`, `kline:cn:day`…) is served from now. ' +
    'What one instance of the service sees: each keeps its own counters and breakers, so two calls may be answered by two instances. ' +
    `Not counted; does not consume the anonymous rate limit. No envelope. Cached for ${MAX_AGE_S} s.`,
  'x-min-tier': 'free',
  'x-cost': 0,
  security: [{}],
  // `format` means the same here as on every route: json only, anything else a 422 (src/http/csv-answer.ts).
  request: { query: JsonOnlyQuery },
  middleware: [jsonOnly()] as const,
  responses: {
    422: COMMON_ERRORS[422],
    200: { description: 'Upstream status', content: { 'application/json': { schema: StatusSchema } } },
    405: { description: 'METHOD_NOT_ALLOWED: the path takes GET (and HEAD) only; `Allow` lists them', content: { 'application/json': { schema: ErrorSchema } } },
    ...DEADLINE_ERROR,
  },
})

/** GET /v1/status: every upstream host's state and traffic, and the channel serving each data family (free, not counted, like /v1/health). */
export function registerStatus(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, async (c) => {
    c.header('Cache-Control', `public, max-age=${MAX_AGE_S}`)
    const status = services.upstreamStatus()
    const objects = c.env.HOST_BUDGET as DurableObjectNamespace | undefined
    const minute = Math.floor(services.now() / 60_000)
    // The service-wide count lives in each family's budget object (src/runtime/host-budget-object.ts).
    if (objects) {
      const reads = services.caches.of(BUDGET_READS)
      await Promise.all(status.hosts.filter((h) => h.budget_per_minute !== null).map(async (h) => {
        h.budget_used_this_minute = await reads.used(objects, h.channel, minute)
      }))
    }
    return c.json({ ok: true, ...status }, 200)
  })
}

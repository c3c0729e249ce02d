import { z, type OpenAPIHono } from '@hono/zod-openapi'
import { KEY_LEASES, keyGuardOf } from '../access/key-lease'
import { admittedRoute, registerAdmitted } from '../access/route'
import { STREAM_LIMITS, TIER_LIMITS, TIERS, type AccessPolicy } from '../access/tiers'
import type { AppEnv } from '../http/context'
import { answer } from '../http/answer'
import { COMMON_ERRORS, envelopeSchema, ErrorSchema } from '../http/envelope-schema'

/** Any key may read its own usage; reading it costs nothing and is not counted. */
const POLICY: AccessPolicy = { group: 'keyed', minTier: 'trial', cost: 0, counted: false }

const Window = z.object({
  limit: z.number().int().openapi({ description: 'Calls allowed per minute' }),
  remaining: z.number().int().openapi({ description: 'Calls left in this minute' }),
  reset_seconds: z.number().int().openapi({ description: 'Seconds until the minute window resets (as X-RateLimit-Reset)' }),
})

const UsageSchema = z
  .object({
    tier: z.enum(TIERS),
    day: z.string().openapi({ description: 'Beijing date the daily counters belong to (they reset at midnight Beijing time)' }),
    endpoints: z.record(z.string(), z.object({ units: z.number().int(), calls: z.number().int() })).openapi({ description: "Today's usage units and calls per endpoint (ok:false calls are refunded and not shown)" }),
    units_today: z.number().int(),
    minute: Window,
    heavy: z.object({ limit: z.number().int(), used: z.number().int(), left: z.number().int() }).openapi({ description: 'market-kline calls today' }),
    pack: z.object({ cap: z.number().int(), used: z.number().int(), left: z.number().int() }).nullable().openapi({ description: 'Buyout pack: lifetime units; null for keys without a cap' }),
    stream: z
      .object({
        open: z.number().int().openapi({ description: 'Stream connections open now, across the service' }),
        max_connections: z.number().int().openapi({ description: 'Connections the tier allows at once' }),
        max_symbols: z.number().int().openapi({ description: 'Symbols per connection' }),
        minutes_today: z.number().int().openapi({ description: 'Stream minutes started today, one usage unit each (the first of each stream is its opening call)' }),
      })
      .openapi({ description: 'Push quotes (GET /v1/stream)' }),
  })
  .openapi('Usage')

const route = admittedRoute(POLICY, {
  method: 'get',
  path: '/v1/usage',
  operationId: 'usage',
  tags: ['Pro'],
  summary: 'Your usage and limits',
  description:
    "The calling key's tier, today's usage units by endpoint, the current minute window, heavy calls left today, pack units left and push-quote streams (open connections, minutes). Not counted. " +
    'Calls the service admitted elsewhere (another Worker isolate) in the last 2 seconds may not show yet, and slices of the minute leased there count as used.',
  responses: {
    200: {
      description: 'Usage',
      content: {
        'application/json': {
          schema: envelopeSchema('UsageEnvelope', UsageSchema).openapi({
            example: {
              ok: true, endpoint: 'usage', tier: 'pro', elapsed_ms: 3, source: 'service',
              data: {
                tier: 'pro', day: '2026-11-20', endpoints: { quote: { units: 12, calls: 12 }, 'market-kline': { units: 500, calls: 1 } },
                units_today: 512, minute: { limit: 300, remaining: 297, reset_seconds: 41 }, heavy: { limit: 200, used: 1, left: 199 }, pack: null,
                stream: { open: 1, max_connections: 5, max_symbols: 200, minutes_today: 12 },
              },
            },
          }),
        },
      },
    },
    401: { description: 'No key, or an unknown or revoked key', content: { 'application/json': { schema: ErrorSchema } } },
    ...COMMON_ERRORS,
  },
})

/** GET /v1/usage */
export function registerUsage(app: OpenAPIHono<AppEnv>) {
  registerAdmitted(app, route, async (c) => {
    const tier = c.get('tier')
    const limits = TIER_LIMITS[tier]
    const hash = c.get('keyHash')!
    // This isolate's slice of the minute and the usage it owes go back first (src/access/key-lease.ts).
    const report = await c.get('services').caches.of(KEY_LEASES).usage(() => keyGuardOf(c.env.KEY_GUARD, hash), hash, {
      now: c.get('services').now(),
      perMinute: limits.perMinute,
      heavyPerDay: limits.heavyPerDay,
      packUnits: c.get('packUnits') ?? null,
    })
    const { resetSeconds, ...minute } = report.minute
    // snake_case on the wire, like every other field of the answer
    const streams = STREAM_LIMITS[tier]
    const data = { tier, ...report, minute: { ...minute, reset_seconds: resetSeconds }, stream: { open: report.stream.open, max_connections: streams.connections, max_symbols: streams.symbols, minutes_today: report.stream.minutes_today } }
    return answer(c, 'usage', { ok: true, source: 'service', data })
  })
}

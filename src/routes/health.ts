import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { TIERS } from '../access/tiers'
import { ALL_CHANNELS } from '../domain/channel-name'
import type { AppEnv } from '../http/context'
import { jsonOnly, JsonOnlyQuery } from '../http/csv-answer'
import type { Services } from '../services/types'
import { COMMON_ERRORS, DEADLINE_ERROR, ErrorSchema } from '../http/envelope-schema'

const HealthSchema = z
  .object({
    ok: z.boolean().openapi({ description: 'The service answers' }),
    uptime_s: z.number().int().openapi({ description: 'Seconds this service instance has been running' }),
    data_ready: z.boolean().openapi({ description: 'false when every data channel is unavailable (circuits open); data endpoints may then answer ok:false' }),
    tiers: z.array(z.enum(TIERS)).openapi({ description: 'Supported tiers' }),
    upstream: z.enum(['live', 'emulator']).openapi({
      description: "Where the data comes from: `live`, the real upstream hosts; `emulator`, the built-in simulated market (`npm start` offline, the tests), whose every answer also says `simulated: true` and carries the header `X-Data-Simulated: true`",
    }),
  })
  .openapi('Health', { example: { ok: true, uptime_s: 3600, data_ready: true, tiers: [...TIERS], upstream: 'live' } })

const route = createRoute({
  method: 'get',
  path: '/v1/health',
  operationId: 'health',
  tags: ['Free'],
  summary: 'Service health',
  description: 'Whether the service answers and whether any data channel can serve. Not counted; does not consume the anonymous rate limit. No envelope.',
  'x-min-tier': 'free',
  'x-cost': 0,
  security: [{}],
  // `format` means the same here as on every route: json only, anything else a 422 (src/http/csv-answer.ts).
  request: { query: JsonOnlyQuery },
  middleware: [jsonOnly()] as const,
  responses: {
    422: COMMON_ERRORS[422],
    200: { description: 'Health', content: { 'application/json': { schema: HealthSchema } } },
    405: { description: 'METHOD_NOT_ALLOWED: the path takes GET (and HEAD) only; `Allow` lists them', content: { 'application/json': { schema: ErrorSchema } } },
    ...DEADLINE_ERROR,
  },
})

/** GET /v1/health: ok, uptime, data readiness and tiers, and where the data comes from (a simulated market must say so). */
export function registerHealth(app: OpenAPIHono<AppEnv>, services: Services) {
  app.openapi(route, (c) =>
    c.json(
      {
        ok: true,
        uptime_s: Math.floor((Date.now() - services.startedAt) / 1000),
        data_ready: services.failover.anyAvailable(ALL_CHANNELS),
        tiers: [...TIERS],
        upstream: services.simulated ? ('emulator' as const) : ('live' as const),
      },
      200
    )
  )
}

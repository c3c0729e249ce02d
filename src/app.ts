import { OpenAPIHono } from '@hono/zod-openapi'
import { swaggerUI } from '@hono/swagger-ui'
import { requestId } from 'hono/request-id'
import { publicCors } from './http/cors'
import { requestContext, type AppEnv } from './http/context'
import { notFound, onError } from './http/errors'
import { fromZodIssues, validationBody } from './http/validation'
import { registerChallenge } from './routes/challenge'
import { registerAdminJobs } from './routes/admin-jobs'
import { registerHealth } from './routes/health'
import { registerIpWhitelist } from './routes/ip-whitelist'
import { registerKline } from './routes/kline'
import { registerKlineFull } from './routes/kline-full'
import { registerMarketKline } from './routes/market-kline'
import { registerQuote } from './routes/quote'
import { registerTradeCalendar } from './routes/trade-calendar'
import { registerUsage } from './routes/usage'
import type { Services } from './services'

export const API_VERSION = '0.1.0'

const DESCRIPTION = `Market data for the Chinese A-share market (with HK, US, ETF, convertible-bond, futures and forex),
served from Eastmoney, Tencent and Sina with automatic failover. Every data response is an envelope
\`{ok, endpoint, tier, elapsed_ms, source, data}\`; \`source\` names the channel that answered.
Invalid parameters get HTTP 422 with a FastAPI-style body naming the field. Each operation carries
\`x-min-tier\` (the lowest tier that may call it) and \`x-cost\` (usage units per call).`

/**
 * Builds the application: pipeline middleware in order (request id → context → CORS), the route
 * registry, the error contract, and `/openapi.json` generated once from the routes' zod schemas.
 */
export function createApp(services: Services): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const target = result.target === 'json' ? 'body' : result.target === 'param' ? 'path' : 'query'
        const raw = target === 'query' ? c.req.query() : {}
        return c.json(validationBody(fromZodIssues(result.error.issues, target, raw)), 422)
      }
    },
  })

  app.use('*', requestId())
  app.use('*', requestContext(services))
  app.use('*', publicCors())

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key in `Authorization: Bearer <key>` (recommended)',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'queryKey', {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: 'API key as `?key=<key>`; works, but the key lands in logs and history',
  })

  registerHealth(app, services)
  registerQuote(app, services)
  registerKline(app, services)
  registerTradeCalendar(app, services)
  registerChallenge(app, services)
  registerUsage(app)
  registerKlineFull(app, services)
  registerMarketKline(app, services)
  registerAdminJobs(app, services)
  registerIpWhitelist(app)

  // The document only changes with the code, so it is generated on first request and kept.
  let openapi: string | undefined
  app.get('/openapi.json', (c) => {
    openapi ??= JSON.stringify(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'A-share market data API',
          version: API_VERSION,
          description: DESCRIPTION,
        },
        servers: [{ url: new URL(c.req.url).origin, description: 'This service' }],
        tags: [
          { name: 'Free', description: 'No key needed (anonymous limits apply)' },
          { name: 'Pro', description: 'API key required' },
        ],
      })
    )
    return c.body(openapi, 200, { 'content-type': 'application/json; charset=utf-8' })
  })
  app.get('/docs', swaggerUI({ url: '/openapi.json', title: 'A-share market data API' }))
  app.get('/', (c) => c.redirect('/docs'))

  app.notFound(notFound)
  app.onError(onError)
  return app
}

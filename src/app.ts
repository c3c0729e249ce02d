import { OpenAPIHono } from '@hono/zod-openapi'
import { requestId } from 'hono/request-id'
import { apiHeaders } from './http/cache-headers'
import { publicCors } from './http/cors'
import { deadlineContext, withDeadline } from './http/deadline'
import { requestContext, type AppEnv } from './http/context'
import { notFoundOrWrongMethod, onError } from './http/errors'
import { fromZodIssues, validationBody } from './http/validation'
import { registerCalendar } from './routes/calendar'
import { registerChallenge } from './routes/challenge'
import { registerChip } from './routes/chip'
import { registerDehydrated } from './routes/dehydrated'
import { registerSectorValuation } from './routes/sector-valuation'
import { registerPlaybooks } from './routes/playbooks'
import { registerDividend } from './routes/dividend'
import { registerEvents } from './routes/events'
import { registerShareholder } from './routes/shareholder'
import { registerAdminJobs } from './routes/admin-jobs'
import { registerIndustryChain } from './routes/industry-chain'
import { registerBlockTrade } from './routes/block-trade'
import { registerChangedist } from './routes/changedist'
import { registerFinance } from './routes/finance'
import { registerFund } from './routes/fund'
import { registerHealth } from './routes/health'
import { registerHot } from './routes/hot'
import { registerIpWhitelist } from './routes/ip-whitelist'
import { registerIpo } from './routes/ipo'
import { registerKline } from './routes/kline'
import { registerKlineFull } from './routes/kline-full'
import { registerMacro } from './routes/macro'
import { registerOrderbook } from './routes/orderbook'
import { registerSnapshot } from './routes/snapshot'
import { registerStatus } from './routes/status'
import { registerMarketKline } from './routes/market-kline'
import { registerMarketOverview } from './routes/market-overview'
import { registerQuote } from './routes/quote'
import { registerScreen } from './routes/screen'
import { registerTechnical } from './routes/technical'
import { registerTechnicalBatch } from './routes/technical-batch'
import { registerSearch } from './routes/search'
import { registerTradeCalendar } from './routes/trade-calendar'
import { registerUsage } from './routes/usage'
import { registerStream } from './routes/stream'
import { registerMcp } from './mcp/route'
import { registerOpenApiDocument } from './openapi/route'
import { API_VERSION } from './openapi/version'
import type { Services } from './services/types'

/**
 * Builds the application: pipeline middleware in order (request id → deadline scope → context →
 * CORS), the route registry (documented in `/openapi.json`, src/openapi/), the error contract, and
 * the request deadline around it all (src/http/deadline.ts).
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
  app.use('*', deadlineContext())
  app.use('*', requestContext(services))
  app.use('*', publicCors())
  app.use('/v1/*', apiHeaders())

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key in `Authorization: Bearer <key>` (recommended)',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API key as `X-API-Key: <key>` (same as Bearer; several places carrying different keys get 400 KEY_CONFLICT)',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'queryKey', {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: 'API key as `?key=<key>`; works, but the key lands in logs and history',
  })

  registerHealth(app, services)
  registerStatus(app, services)
  registerQuote(app, services)
  registerStream(app)
  registerKline(app, services)
  registerTradeCalendar(app, services)
  registerChallenge(app, services)
  registerUsage(app)
  registerKlineFull(app, services)
  registerFund(app, services)
  registerBlockTrade(app, services)
  registerMarketKline(app, services)
  registerAdminJobs(app, services)
  registerIpWhitelist(app)
  registerHot(app, services)
  registerChangedist(app, services)
  registerMarketOverview(app, services)
  registerScreen(app, services)
  registerTechnical(app, services)
  registerTechnicalBatch(app, services)
  registerChip(app, services)
  registerDividend(app, services)
  registerShareholder(app, services)
  registerEvents(app, services)
  registerSearch(app, services)
  registerIpo(app, services)
  registerCalendar(app, services)
  registerMacro(app, services)
  registerFinance(app, services)
  registerSnapshot(app, services)
  registerOrderbook(app, services)
  registerDehydrated(app, services)
  registerIndustryChain(app, services)
  registerSectorValuation(app, services)
  registerPlaybooks(app, services)
  // POST /mcp: the API for AI agents; each tool call runs as one of the routes above.
  registerMcp(app, API_VERSION)

  // Generated before the bundle (src/openapi/document.ts), served from the static assets.
  registerOpenApiDocument(app, services)
  // /docs itself is a static asset (wrangler.toml [assets], public/).
  app.get('/', (c) => c.redirect('/docs'))

  app.notFound(notFoundOrWrongMethod(app.routes))
  app.onError(onError)
  // Every request answers within services.deadlineMs (504 DEADLINE_EXCEEDED past it).
  app.fetch = withDeadline(app.fetch, () => services.deadlineMs)
  return app
}

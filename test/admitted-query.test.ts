// Admission parses a admitted route's query once, for itself and the handler (src/access/route.ts). In workerd: admission imports the guards (cloudflare:workers).
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../src/http/context'
import { onError } from '../src/http/errors'
import { admittedRoute, registerAdmitted } from '../src/access/route'
import { getJson } from './helpers'

/** An uncounted free route whose query schema counts its parses. */
function appWithCountingRoute() {
  const parses = { count: 0 }
  const Query = z.object({
    n: z.string().transform((v) => {
      parses.count++
      return Number(v)
    }),
  })
  const route = admittedRoute({ group: 'open', minTier: 'free', cost: 0, counted: false }, {
    method: 'get',
    path: '/v1/count',
    request: { query: Query },
    responses: { 200: { description: 'the parsed n', content: { 'application/json': { schema: z.object({ n: z.number() }) } } } },
  })
  const app = new OpenAPIHono<AppEnv>()
  app.use('*', async (c, next) => {
    c.set('tier', 'free')
    await next()
  })
  registerAdmitted(app, route, (c) => c.json({ n: c.req.valid('query').n }, 200))
  app.onError(onError)
  return { app, parses }
}

describe('admitted routes parse their query once', () => {
  it('hands admission\'s parse to the handler, without a second parse', async () => {
    const { app, parses } = appWithCountingRoute()
    const res = await app.request('/v1/count?n=7')
    expect(await res.json()).toEqual({ n: 7 })
    expect(parses.count).toBe(1)
  })

  it('still refuses an invalid query with the 422 naming it', async () => {
    const { app } = appWithCountingRoute()
    const res = await app.request('/v1/count')
    expect(res.status).toBe(422)
    expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(['query', 'n'])
  })

  it('documents a admitted route\'s query in the generated /openapi.json', async () => {
    const doc = (await getJson('/openapi.json')).body
    expect(doc.paths['/v1/quote'].get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'code', in: 'query', required: true })]))
  })

  it('records the route with its query schema in the registry /openapi.json is generated from', () => {
    const { app } = appWithCountingRoute()
    const recorded = app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' && d.route.path === '/v1/count' ? [d.route] : []))
    expect(recorded).toHaveLength(1)
    // Its own parameter, and `format`, which every route declares (json, or csv where it has a table).
    expect(Object.keys((recorded[0].request?.query as z.ZodObject<z.ZodRawShape>).shape)).toEqual(['n', 'format'])
  })
})

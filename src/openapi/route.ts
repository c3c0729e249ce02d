/**
 * GET /openapi.json: the document src/cli/build-openapi.mjs generated into the static assets
 * (public/_data/openapi.json, read once per isolate), with `servers` naming the origin it was asked
 * at, so that Swagger UI and generated clients call the host that served it.
 */
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../http/context'
import type { Services } from '../services/types'

/** The document's file among the owned tables (public/_data/). */
const OPENAPI_FILE = 'openapi.json'

/** `doc` (a JSON object's text) with `servers` set to `origin` alone. */
export const withServer = (doc: string, origin: string): string =>
  `{"servers":[{"url":${JSON.stringify(origin)},"description":"This service"}],${doc.slice(1)}`

export function registerOpenApiDocument(app: OpenAPIHono<AppEnv>, services: Services): void {
  app.get('/openapi.json', async (c) => {
    const doc = await services.store.ownedText(c, OPENAPI_FILE)
    return c.body(withServer(doc, new URL(c.req.url).origin), 200, { 'content-type': 'application/json; charset=utf-8' })
  })
}

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
  // The text served last, by origin: a deployment answers on one or two hosts, and joining the
  // 380 KB document to its server on every call would copy it each time.
  let last: { origin: string; text: string } | undefined
  app.get('/openapi.json', async (c) => {
    const origin = new URL(c.req.url).origin
    if (last?.origin !== origin) last = { origin, text: withServer(await services.store.ownedText(c, OPENAPI_FILE), origin) }
    return c.body(last.text, 200, { 'content-type': 'application/json; charset=utf-8' })
  })
}

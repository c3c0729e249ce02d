/**
 * `/openapi.json`: the document generated from the routes' zod schemas. It changes only with the
 * code, so it is generated in Node before the Worker is bundled (src/cli/build-openapi.mjs bundles
 * this module; wrangler.toml's [build] and the tests' set-up run it) and served from the Worker's
 * static assets (src/openapi/route.ts): the generator and this text stay out of the production
 * bundle, and no isolate spends its first `/openapi.json` call generating it. The Worker never
 * imports this module.
 */
import type { OpenAPIHono } from '@hono/zod-openapi'
import { createApp } from '../app'
import { REQUEST_DEADLINE_MS } from '../runtime/request-scope'
import { createServices } from '../services'
import { API_VERSION } from './version'

const DESCRIPTION = `Market data for the Chinese A-share market (with HK, US, ETF, convertible-bond, futures and forex),
served from Eastmoney, Tencent and Sina with automatic failover. Every data response is an envelope
\`{ok, endpoint, tier, elapsed_ms, source, data}\`; \`source\` names the channel that answered.
Invalid parameters get HTTP 422 with a FastAPI-style body naming the field. Every request answers within
${REQUEST_DEADLINE_MS / 1000} s: past that bound the answer is HTTP 504 with an \`ok:false\` envelope, \`code\` \`DEADLINE_EXCEEDED\`
and the \`stage\` still running; such a call is not counted. Each operation carries
\`x-min-tier\` (the lowest tier that may call it) and \`x-cost\` (usage units per call).`

/**
 * The project is private (package.json: "private": true, "license": "UNLICENSED"): no licence is
 * granted. `identifier` is OpenAPI 3.1's SPDX field (a LicenseRef for a proprietary licence); the
 * generator's types know only 3.0's fields, hence a constant rather than a literal.
 */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' }

/**
 * The document of `app`'s routes, without `servers`: the Worker names its own origin when it serves
 * the document (src/openapi/route.ts).
 */
function openApiDocument(app: OpenAPIHono<any>): string {
  return JSON.stringify(
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'A-share market data API', version: API_VERSION, description: DESCRIPTION, license: LICENSE },
      tags: [
        { name: 'Free', description: 'No key needed (anonymous limits apply)' },
        { name: 'Pro', description: 'API key required' },
      ],
    })
  )
}

/** The document of the Worker's routes (nothing is fetched: the routes are only described). */
export function documentText(): string {
  const noUpstream = () => Promise.reject(new Error('nothing is fetched while documenting'))
  return openApiDocument(createApp(createServices({ fetch: noUpstream })))
}

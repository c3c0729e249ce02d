/**
 * GET /docs — Swagger UI for /openapi.json, served entirely by this Worker from the pinned
 * `swagger-ui-dist` package (wrangler.toml's Text rule bundles its script and stylesheet), so the
 * page works with no network and runs no code from a CDN. A strict Content-Security-Policy says so
 * to the browser: everything from this origin only, nothing inline (the start-up lives in
 * /docs/assets/init.js); images may be `data:` URIs because the stylesheet draws its icons that way.
 * `npm run test:browser` checks in Chromium that the UI, "Try it out" included, needs nothing more.
 */
import type { Hono } from 'hono'
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js'
import swaggerCss from 'swagger-ui-dist/swagger-ui.css'
import type { AppEnv } from '../http/context'

/** The policy on the page and on each of its assets. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // "Try it out" calls this API, and the page fetches /openapi.json.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const ASSETS = '/docs/assets'

/** Starts Swagger UI on our document. `validatorUrl: null` keeps it from calling swagger.io. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})
`

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A-share market data API</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/init.js"></script>
</body>
</html>
`

/** Path → body and type; the set of files the page needs, in one place. */
export const DOCS_FILES: Record<string, { body: string; type: string }> = {
  '/docs': { body: PAGE, type: 'text/html; charset=utf-8' },
  [`${ASSETS}/swagger-ui.css`]: { body: swaggerCss, type: 'text/css; charset=utf-8' },
  [`${ASSETS}/swagger-ui-bundle.js`]: { body: swaggerBundle, type: 'text/javascript; charset=utf-8' },
  [`${ASSETS}/init.js`]: { body: INIT_JS, type: 'text/javascript; charset=utf-8' },
}

/** Registers /docs and its assets. The assets change only with the pinned package: cached a day. */
export function registerDocs(app: Hono<AppEnv>) {
  for (const [path, file] of Object.entries(DOCS_FILES)) {
    app.get(path, (c) =>
      c.body(file.body, 200, {
        'content-type': file.type,
        'content-security-policy': DOCS_CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': path === '/docs' ? 'no-cache' : 'public, max-age=86400',
      })
    )
  }
}

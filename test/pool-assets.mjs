// Loaded by vitest.config.ts, before the pool reads wrangler.toml's [assets]: /docs and /chart are
// served from public/, where wrangler.toml's [build] copies their third-party files, and the Worker
// serves /openapi.json from public/_data/, where that step generates it. The pool does not run that
// build step, so this does (a file already in place is left alone).
import { buildOpenApi } from '../src/cli/build-openapi.mjs'
import { copyVendorAssets } from '../src/cli/vendor-assets.mjs'

copyVendorAssets()
await buildOpenApi()

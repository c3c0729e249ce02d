// Loaded by vitest.config.ts, before the pool reads wrangler.toml's [assets]: /docs is served from
// public/, where wrangler.toml's [build] copies swagger-ui-dist's two files. The pool does not run
// that build step, so this does (a file already in place is left alone).
import { copyDocsAssets } from '../src/cli/docs-assets.mjs'

copyDocsAssets()

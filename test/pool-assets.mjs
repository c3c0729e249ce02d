// Loaded by vitest.config.ts, before the pool reads wrangler.toml's [assets]: /docs and /chart are
// served from public/, where wrangler.toml's [build] copies their third-party files, and the Worker
// serves /openapi.json from public/_data/, where that step generates it. The pool does not run that
// build step, so this does (a file already in place is left alone). A run of the Node project alone
// (`npm run test:quick`) serves nothing, so it skips the build: some 5 s of a one-minute run.
import { buildOpenApi } from '../src/cli/build-openapi.mjs'
import { copyVendorAssets } from '../src/cli/vendor-assets.mjs'

/** The projects named with `--project x` or `--project=x`; empty when the run has them all. */
function projectsAsked(argv) {
  const out = []
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1]) out.push(argv[i + 1])
    else if (arg.startsWith('--project=')) out.push(arg.slice('--project='.length))
  })
  return out
}

const asked = projectsAsked(process.argv)
if (asked.length === 0 || asked.some((p) => p !== 'unit')) {
  copyVendorAssets()
  await buildOpenApi()
}

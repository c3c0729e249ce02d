// Generates /openapi.json from the routes' zod schemas into the static assets
// (public/_data/openapi.json), where the Worker serves it from (src/openapi/route.ts). The
// document changes only with the code, so it is made here, in Node, before the Worker is bundled:
// wrangler.toml's [build] runs this before every `wrangler dev` (npm start), `wrangler deploy` and
// the bench's build, and vitest.config.ts before the tests. The generator (@asteasolutions/
// zod-to-openapi's) and the document's own prose then stay out of the Worker's bundle, which
// wrangler.toml's [alias] keeps free of the generator (src/openapi/no-generator.ts).
//
// src/openapi/document.ts and the app's modules are bundled for Node with esbuild (wrangler's bundler, pinned with it), with
// zod resolved to the lean zod the Worker uses; `cloudflare:workers` (the Durable Object base
// class, which the document never runs) resolves to an empty class.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '../..')
/** Where the Worker reads the document from (its owned tables, src/store/owned-tables.ts). */
const OPENAPI_ASSET = join(ROOT, 'public/_data/openapi.json')

/** Resolves what only workerd has, and zod as wrangler.toml's [alias] does. */
const workerdModules = {
  name: 'workerd-modules',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, () => ({ path: join(ROOT, 'src/zod-lean.ts') }))
    b.onResolve({ filter: /^cloudflare:workers$/ }, () => ({ path: 'cloudflare:workers', namespace: 'workerd' }))
    b.onLoad({ filter: /.*/, namespace: 'workerd' }, () => ({ contents: 'export class DurableObject {}', loader: 'js' }))
  },
}

/**
 * A TypeScript module of ours bundled for Node (with the lean zod and workerd's modules resolved as
 * above) and imported: what the CLI commands run of the source (`npm run smoke` too).
 */
export async function importBundled(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-'))
  try {
    const outfile = join(dir, 'module.mjs')
    await build({ entryPoints: [join(ROOT, entry)], bundle: true, platform: 'node', format: 'esm', outfile, plugins: [workerdModules], logLevel: 'error' })
    return await import(pathToFileURL(outfile).href)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The document's text, generated from the current source. */
async function openApiText() {
  return (await importBundled('src/openapi/document.ts')).documentText()
}

/** Writes the document into the assets when it differs (so `wrangler dev` does not reload them for nothing); true when written. */
export async function buildOpenApi(target = OPENAPI_ASSET) {
  const text = await openApiText()
  let current
  try {
    current = readFileSync(target, 'utf8')
  } catch {
    // not built yet
  }
  if (current === text) return false
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, text)
  return true
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildOpenApi()

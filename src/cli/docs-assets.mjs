// Copies the pinned swagger-ui-dist's script and stylesheet into public/docs/assets/, beside the
// checked-in page and start-up script, so Workers static assets serve /docs whole (wrangler.toml
// [assets]). The copies are generated (.gitignore): wrangler.toml's [build] runs this before every
// `wrangler dev` (npm start), `wrangler deploy` and the bench's build, and vitest.config.ts before
// the tests. A file already identical is left alone, so `wrangler dev` does not reload its assets.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const ROOT = resolve(import.meta.dirname, '../..')
/** The directory wrangler.toml's [assets] serves. */
const ASSETS_DIR = join(ROOT, 'public')
/** swagger-ui-dist file → where it is served under the assets directory. */
export const SWAGGER_FILES = {
  'swagger-ui-bundle.js': 'docs/assets/swagger-ui-bundle.js',
  'swagger-ui.css': 'docs/assets/swagger-ui.css',
}

/** Writes the copies that are missing or differ; returns the paths it wrote. */
export function copyDocsAssets(assetsDir = ASSETS_DIR) {
  const dist = dirname(createRequire(join(ROOT, 'package.json')).resolve('swagger-ui-dist/package.json'))
  const written = []
  for (const [name, target] of Object.entries(SWAGGER_FILES)) {
    const bytes = readFileSync(join(dist, name))
    const to = join(assetsDir, target)
    let current
    try {
      current = readFileSync(to)
    } catch {
      // not copied yet
    }
    if (current?.equals(bytes)) continue
    mkdirSync(dirname(to), { recursive: true })
    writeFileSync(to, bytes)
    written.push(to)
  }
  return written
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) copyDocsAssets()

// Copies the pinned third-party files the static pages load into public/, beside the checked-in
// pages and scripts, so Workers static assets serve /docs and /chart whole (wrangler.toml
// [assets]): swagger-ui-dist's script and stylesheet, and lightweight-charts' standalone ES module
// with its licence. The copies are generated (.gitignore): wrangler.toml's [build] runs this before
// every `wrangler dev` (npm start), `wrangler deploy` and the bench's build, and vitest.config.ts
// before the tests. A file already identical is left alone, so `wrangler dev` does not reload its
// assets.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = resolve(import.meta.dirname, '../..')
/** The directory wrangler.toml's [assets] serves. */
const ASSETS_DIR = join(ROOT, 'public')
/** Package → its file → where it is served under the assets directory. */
export const VENDOR_FILES = {
  'swagger-ui-dist': {
    'swagger-ui-bundle.js': 'docs/assets/swagger-ui-bundle.js',
    'swagger-ui.css': 'docs/assets/swagger-ui.css',
  },
  // The standalone build has its one dependency (fancy-canvas) inside; Apache-2.0 §4 asks that
  // the licence travel with the copy.
  'lightweight-charts': {
    'dist/lightweight-charts.standalone.production.mjs': 'chart/assets/lightweight-charts.standalone.production.mjs',
    LICENSE: 'chart/assets/lightweight-charts-LICENSE.txt',
  },
}

/** The installed package's directory. */
export const packageDir = (name) => dirname(createRequire(join(ROOT, 'package.json')).resolve(`${name}/package.json`))

/** Writes the copies that are missing or differ; returns the paths it wrote. */
export function copyVendorAssets(assetsDir = ASSETS_DIR) {
  const written = []
  for (const [pkg, files] of Object.entries(VENDOR_FILES)) {
    const dir = packageDir(pkg)
    for (const [name, target] of Object.entries(files)) {
      const bytes = readFileSync(join(dir, name))
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
  }
  return written
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) copyVendorAssets()

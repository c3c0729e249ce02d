// Builds a worker entry with wrangler (the same bundle `wrangler deploy` would upload) and runs it
// in Miniflare directly, with the bindings wrangler.toml declares. Used by the benchmark and the
// OpenAPI lint: both need the real built worker, without `wrangler dev`'s proxy in the way.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync } from 'node:fs'
import { basename, extname, join, resolve } from 'node:path'
import { Miniflare } from 'miniflare'

export const ROOT = resolve(import.meta.dirname, '../..')

/** Environment that keeps wrangler quiet and offline. */
export const QUIET_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
}

/** Bundles `entry` into `outdir` and returns the path of the main module. */
export function buildWorker(entry, outdir) {
  mkdirSync(outdir, { recursive: true })
  execFileSync(process.execPath, [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', entry, '--dry-run', '--outdir', outdir], {
    cwd: ROOT,
    env: QUIET_ENV,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  // The main module is named after the entry; beside it are the Text modules (/docs assets).
  const main = `${basename(entry, extname(entry))}.js`
  if (!readdirSync(outdir).includes(main)) throw new Error(`wrangler produced no ${main} in ${outdir}`)
  return join(outdir, main)
}

/** A Miniflare instance running the bundle with in-memory KV, R2 and SQLite Durable Objects. */
export function startWorker(scriptPath) {
  return new Miniflare({
    modules: true,
    scriptPath,
    compatibilityDate: '2026-05-01',
    // wrangler.toml's Text rule, as the bundle names those modules (`<sha1>-swagger-ui.css`).
    modulesRules: [{ type: 'Text', include: ['**/*-swagger-ui-bundle.js', '**/*-swagger-ui.css'] }],
    compatibilityFlags: ['nodejs_als'],
    bindings: { UPSTREAM: 'emulator' },
    kvNamespaces: ['KEYS', 'CACHE'],
    r2Buckets: ['STORE'],
    durableObjects: {
      KEY_GUARD: { className: 'KeyGuard', useSQLite: true },
      ANON_GUARD: { className: 'AnonGuard', useSQLite: true },
    },
  })
}

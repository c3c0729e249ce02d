import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
// Copies swagger-ui-dist's files into public/ for /docs, as wrangler.toml's [build] would.
import './test/pool-assets.mjs'
// Drops the pool's one known line of noise (see the file); real failures stand out.
import './test/pool-noise.mjs'

// Pure modules' tests run in the Node project below under workerd's clock zone.
process.env.TZ = 'UTC'

/** Every `*.test.ts` under `dir`, as a path from the project's root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f))
    .sort()
}

/**
 * A test that imports a `cloudflare:` module uses the Workers runtime itself (bindings, Durable
 * Objects, KV, R2, the Worker behind SELF): it runs in workerd. So does everything under test/
 * (the Worker end to end) and the lean zod's test, which checks the bundle's module graph.
 */
const NEEDS_WORKERD = /from ['"]cloudflare:/
const unitFiles = testFiles('src').filter((f) => f !== 'src/zod-lean.test.ts' && !NEEDS_WORKERD.test(readFileSync(f, 'utf8')))
const workerdFiles = [...testFiles('src').filter((f) => !unitFiles.includes(f)), 'test/**/*.test.ts']

// Why two projects: workerd gives every test file its own runtime with the whole Worker and
// emulator loaded (some 7 s of a loaded 2-core machine per file); a pure module's test needs none of
// that, and the 190 of them run in Node threads in a fraction of the time.
export default defineConfig({
  // Vite resolves a path starting with / from the project's root. The same zod as the bundle
  // (wrangler.toml's [alias], which the pool does not read).
  resolve: { alias: [{ find: /^zod$/, replacement: '/src/zod-lean.ts' }] },
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          environment: 'node',
          pool: 'threads',
          // Through Vite, so that its zod is the alias above, as in the Worker.
          server: { deps: { inline: ['@hono/zod-openapi'] } },
        },
      },
      {
        extends: true,
        // Tests run inside workerd with real local KV, R2 and Durable Objects. The main module is
        // the emulator entry, so every upstream call is answered offline by src/emulator. The pool
        // reads wrangler.toml's [assets] (env.ASSETS serves public/).
        plugins: [
          cloudflareTest({
            main: './src/emulator/worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: { bindings: { UPSTREAM: 'emulator' } },
          }),
        ],
        test: {
          name: 'workerd',
          include: workerdFiles,
          // Vitest empties every stylesheet unless told otherwise; test/docs.test.ts reads this one.
          css: { include: [/swagger-ui\.css/] },
        },
      },
    ],
  },
})

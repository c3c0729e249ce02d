import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
// Copies swagger-ui-dist's files into public/ for /docs, as wrangler.toml's [build] would.
import './test/pool-assets.mjs'
// Drops the pool's one known line of noise (see the file); real failures stand out.
import './test/pool-noise.mjs'

// Tests run inside workerd with real local KV, R2 and Durable Objects. The main module is the
// emulator entry, so every upstream call is answered offline by src/emulator. The pool reads
// wrangler.toml's [assets] (env.ASSETS serves public/) but not its [alias]: the tests get the same
// zod as the bundle from the alias below.
export default defineConfig({
  // Vite resolves a path starting with / from the project's root.
  resolve: { alias: [{ find: /^zod$/, replacement: '/src/zod-lean.ts' }] },
  plugins: [
    cloudflareTest({
      main: './src/emulator/worker.ts',
      wrangler: { configPath: './wrangler.toml' },
      miniflare: { bindings: { UPSTREAM: 'emulator' } },
    }),
  ],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // Vitest empties every stylesheet unless told otherwise; test/docs.test.ts reads this one.
    css: { include: [/swagger-ui\.css/] },
  },
})

import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
// Drops the pool's one known line of noise (see the file); real failures stand out.
import './test/pool-noise.mjs'

/**
 * wrangler.toml's Text rule bundles swagger-ui-dist's script and stylesheet as strings for /docs.
 * Under Vite the same imports resolve to Vite's `?raw` form of the file, so the tests see exactly
 * what the Worker serves (the pool's own handling of the rule cannot find node_modules through a
 * symlink; a query string keeps the rule from applying).
 */
function docsAssetsAsText(): Plugin {
  const FILES = ['swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui-dist/swagger-ui.css']
  return {
    name: 'docs-assets-as-text',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!FILES.includes(source)) return
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      return resolved && `${resolved.id}?raw`
    },
  }
}

// Tests run inside workerd with real local KV, R2 and Durable Objects. The main module is the
// emulator entry, so every upstream call is answered offline by src/emulator.
export default defineConfig({
  plugins: [
    docsAssetsAsText(),
    cloudflareTest({
      main: './src/emulator/worker.ts',
      wrangler: { configPath: './wrangler.toml' },
      miniflare: { bindings: { UPSTREAM: 'emulator' } },
    }),
  ],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    // Vitest empties every stylesheet unless told otherwise; /docs serves this one.
    css: { include: [/swagger-ui\.css/] },
  },
})

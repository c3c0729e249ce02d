import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

// Tests run inside workerd with real local KV, R2 and Durable Objects. The main module is the
// emulator entry, so every upstream call is answered offline by src/emulator.
export default defineConfig({
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
  },
})

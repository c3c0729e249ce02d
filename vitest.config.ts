import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
// Copies swagger-ui-dist's files into public/ for /docs and generates /openapi.json there, as
// wrangler.toml's [build] would.
import './test/pool-assets.mjs'
// Mends the pinned pool's wrapper, whose every construction slowed every later call (see the file).
import { mendInstalledPool } from './test/pool-patch.mjs'
// Drops the pool's one known line of noise (see the file); real failures stand out.
import './test/pool-noise.mjs'
// Two projects: pure modules' tests in Node, the rest in workerd (see the file).
import { unitFiles, workerdFiles } from './test/test-projects.mjs'
// The heaviest files first, also on a fresh clone that has no durations to sort by (see the file).
import HeavyFirstSequencer from './test/heavy-first.mjs'

mendInstalledPool()

export default defineConfig({
  // Vite resolves a path starting with / from the project's root. The same zod as the bundle
  // (wrangler.toml's [alias], which the pool does not read).
  resolve: { alias: [{ find: /^zod$/, replacement: '/src/zod-lean.ts' }] },
  test: {
    // The run closes with its slowest files (setup, import and run apiece), so a slow newcomer shows.
    reporters: ['default', './test/slowest-files.mjs'],
    sequence: { sequencer: HeavyFirstSequencer },
    testTimeout: 30_000,
    // A beforeAll that builds a store day waits on the emulator like a test does: the same bound, not
    // vitest's 10 s default, which a loaded 2-core machine can pass.
    hookTimeout: 30_000,
    // Vitest's default on a 2-core machine is one file at a time (cores - 1), which leaves a core
    // idle while a workerd file loads the Worker or waits on the emulator's timers.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unitFiles,
          environment: 'node',
          pool: 'threads',
          // Pure modules: a thread keeps the modules it loaded for its next file, so the emulator's
          // universe and price history are built once a thread, not once a file. What the emulator's
          // control module holds (clock, faults, counters) is reset before each file.
          isolate: false,
          setupFiles: ['./test/fresh-unit-file.ts'],
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
        // The Worker's zod-to-openapi: the registry without the document generator (wrangler.toml's
        // [alias]; the document is generated before the tests, by test/pool-assets.mjs).
        resolve: { alias: [{ find: /^@asteasolutions\/zod-to-openapi$/, replacement: '/src/openapi/no-generator.ts' }] },
        test: {
          name: 'workerd',
          include: workerdFiles,
          // One runtime per vitest worker for all its files: loading the Worker and the emulator costs
          // about 6 s of a 2-core machine, more than most files' tests. Each file still starts from an
          // empty store, fresh guard objects and a reset emulator (test/fresh-file.ts).
          isolate: false,
          setupFiles: ['./test/fresh-file.ts'],
          // Vitest empties every stylesheet unless told otherwise; test/docs.test.ts reads this one.
          css: { include: [/swagger-ui\.css/] },
        },
      },
    ],
  },
})

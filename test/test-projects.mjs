// Loaded by vitest.config.ts: which test files run in Node and which in workerd.
//
// workerd gives every test file its own runtime with the whole Worker and emulator loaded (some
// 7 s of a loaded 2-core machine per file). A pure module's test needs none of that, so it runs in
// Node threads, in a fraction of the time. A test that imports a `cloudflare:` module, or a module
// of test/ other than its fixtures (the helpers and the store app import one), uses the Workers
// runtime itself (bindings, Durable Objects, KV, R2, the Worker behind SELF) and runs in workerd,
// as does everything under test/ (the Worker end to end) and the lean zod's test, which checks the
// bundle's module graph.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// Node tests see workerd's clock zone.
process.env.TZ = 'UTC'

const NEEDS_WORKERD = /from ['"](cloudflare:|(\.\.\/)+test\/(?!fixtures\/))/
const ALWAYS_WORKERD = new Set(['src/zod-lean.test.ts'])

/** Every `*.test.ts` under `dir`, as a path from the project's root. */
function testFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f))
    .sort()
}

const sourceTests = testFiles('src')

/** Tests of pure modules: Node. */
export const unitFiles = sourceTests.filter((f) => !ALWAYS_WORKERD.has(f) && !NEEDS_WORKERD.test(readFileSync(f, 'utf8')))

/** Tests that need the Workers runtime: workerd. */
export const workerdFiles = [...sourceTests.filter((f) => !unitFiles.includes(f)), 'test/**/*.test.ts']

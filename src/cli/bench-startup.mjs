// `npm run bench`, startup rows (issue 20): the production bundle's size, and how long a fresh
// worker running it takes to give its first answer, against a minimal worker started the same way.
//
// Each start is a new Miniflare, hence a new workerd process: the time from `new Miniflare` to the
// end of the first answer of a bare route (`/`, the redirect to /docs: no storage, no upstream)
// holds the process start, the script's compilation and top-level evaluation (the route table,
// every zod schema) and one request. The minimal worker (a constant answer, the same bindings and
// assets) pays all of that but the script's own part; the two alternate, round after round, so the
// ratio and the difference (the bundle's own start) are measured under the same load.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Miniflare } from 'miniflare'
import { buildWorker, ROOT, workerOptions } from './harness.mjs'
import { median } from './bench-rounds.mjs'

const STARTS = Number(process.env.BENCH_STARTS || 11)
/** Issue 20's bar for the production bundle, gzip. */
const GZIP_GOAL_KB = 250

/** A worker that answers a constant, with the Durable Object classes the shared options bind. */
const MINIMAL = `export class KeyGuard { fetch() { return new Response('ok') } }
export class AnonGuard { fetch() { return new Response('ok') } }
export default { fetch: () => new Response('ok') }
`

/**
 * {@link workerOptions} with the script handed over as one module: given a `scriptPath`, Miniflare
 * parses the script in Node to find its imports (seconds for this bundle on a loaded machine), which
 * workerd never does; a module list it takes as is.
 */
function startOptions(scriptPath) {
  const { scriptPath: _, ...options } = workerOptions(scriptPath)
  return { ...options, modules: [{ type: 'ESModule', path: scriptPath, contents: readFileSync(scriptPath, 'utf8') }] }
}

/** Milliseconds from `new Miniflare` to the first answer of `/`, read in full; the process is gone after. */
async function timeStart(options) {
  const t0 = performance.now()
  const mf = new Miniflare(options)
  try {
    const res = await mf.dispatchFetch('http://127.0.0.1:8787/', { redirect: 'manual' })
    await res.arrayBuffer()
    if (res.status >= 400) throw new Error(`first answer ${res.status}`)
    return performance.now() - t0
  } finally {
    await mf.dispose()
  }
}

/** Builds the production entry as `wrangler deploy` would, prints its size, and times the starts. */
export async function startupBench() {
  const dir = join(ROOT, '.bench/startup')
  mkdirSync(dir, { recursive: true })
  const bundle = buildWorker('src/index.ts', join(dir, 'production'))
  const bytes = readFileSync(bundle)
  const gzip = gzipSync(bytes).length
  console.log(`\nproduction bundle (src/index.ts, minified): ${(bytes.length / 1024).toFixed(0)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip (${bytes.length} / ${gzip} bytes; goal at most ${GZIP_GOAL_KB} KB gzip)`)

  const minimalPath = join(dir, 'minimal.js')
  writeFileSync(minimalPath, MINIMAL)
  const options = { minimal: startOptions(minimalPath), production: startOptions(bundle) }
  await timeStart(options.minimal) // warm-up, discarded: the first start pays for reading workerd from disk
  const runs = { minimal: [], production: [] }
  for (let round = 0; round < STARTS; round++) {
    runs.minimal.push(await timeStart(options.minimal))
    runs.production.push(await timeStart(options.production))
  }
  const ratios = runs.production.map((ms, i) => ms / runs.minimal[i])
  const own = runs.production.map((ms, i) => ms - runs.minimal[i])
  console.log(`\nworker startup: a new workerd each time, until the first answer of / (${STARTS} rounds, median)`)
  console.log('worker'.padEnd(44) + 'ms'.padStart(8) + 'ratio'.padStart(8) + 'range'.padStart(13))
  console.log('minimal worker (baseline)'.padEnd(44) + median(runs.minimal).toFixed(0).padStart(8) + '1.00'.padStart(8))
  const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
  console.log('production bundle'.padEnd(44) + median(runs.production).toFixed(0).padStart(8) + median(ratios).toFixed(2).padStart(8) + range.padStart(13))
  console.log(`  the bundle's own start (production minus minimal, per round): ${median(own).toFixed(0)} ms (${Math.min(...own).toFixed(0)}–${Math.max(...own).toFixed(0)})`)
}

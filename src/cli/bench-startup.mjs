// `npm run bench`, startup rows (docs/performance.md): the production bundle's size, and how long a fresh
// worker running it takes to give its first answer, against a minimal worker started the same way.
//
// Each start is a new Miniflare, hence a new workerd process: the time from `new Miniflare` to the
// end of the first answer of a bare route (`/`, the redirect to /docs: no storage, no upstream)
// holds the process start, the script's compilation and top-level evaluation (the route table,
// every zod schema) and one request. The minimal worker (a constant answer, the same bindings and
// assets) pays all of that but the script's own part; the two alternate, round after round, so the
// ratio and the difference (the bundle's own start) are measured under the same load. Wall time on
// a busy machine moves with everyone else's work; the CPU time workerd spent until the first
// answer is printed beside it and moves far less.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Miniflare } from 'miniflare'
import { buildWorker, ROOT, workerdPid, workerOptions } from './harness.mjs'
import { median } from './bench-rounds.mjs'

const STARTS = Number(process.env.BENCH_STARTS || 11)
/** The goal for the production bundle, gzip (a smaller bundle starts faster). */
const GZIP_GOAL_KB = 250

/** A worker that answers a constant, with the Durable Object classes the shared options bind. */
const MINIMAL = `export class KeyGuard { fetch() { return new Response('ok') } }
export class AnonGuard { fetch() { return new Response('ok') } }
export class HostBudget { fetch() { return new Response('ok') } }
export class StreamShard { fetch() { return new Response('ok') } }
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

/** CPU time a process has used, all its threads (Linux's /proc, in clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10 // utime + stime
}

/**
 * From `new Miniflare` to the first answer of `/`, read in full: wall milliseconds, and the CPU
 * milliseconds workerd spent meanwhile (NaN without /proc), which other load on the machine moves
 * far less. The process is gone after.
 */
async function timeStart(options) {
  const t0 = performance.now()
  const mf = new Miniflare(options)
  try {
    const res = await mf.dispatchFetch('http://127.0.0.1:8787/', { redirect: 'manual' })
    await res.arrayBuffer()
    const ms = performance.now() - t0
    if (res.status >= 400) throw new Error(`first answer ${res.status}`)
    const pid = workerdPid()
    return { ms, cpu: pid ? cpuMs(pid) : NaN }
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
  const per = (field, f) => runs.production.map((r, i) => f(r[field], runs.minimal[i][field]))
  const spread = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`
  const [ratios, cpuRatios] = ['ms', 'cpu'].map((field) => per(field, (a, b) => a / b))
  const [own, ownCpu] = ['ms', 'cpu'].map((field) => per(field, (a, b) => a - b))
  console.log(`\nworker startup: a new workerd each time, until the first answer of / (${STARTS} rounds, median)`)
  console.log('worker'.padEnd(44) + 'ms'.padStart(8) + 'ratio'.padStart(8) + 'range'.padStart(13) + 'CPU ms'.padStart(9) + 'ratio'.padStart(8) + 'range'.padStart(13))
  const line = (name, rs, r, cr) => console.log(name.padEnd(44) + median(rs.map((x) => x.ms)).toFixed(0).padStart(8) + (r ? median(r).toFixed(2) : '1.00').padStart(8) + (r ? spread(r) : '').padStart(13) + median(rs.map((x) => x.cpu)).toFixed(0).padStart(9) + (cr ? median(cr).toFixed(2) : '1.00').padStart(8) + (cr ? spread(cr) : '').padStart(13))
  line('minimal worker (baseline)', runs.minimal)
  line('production bundle', runs.production, ratios, cpuRatios)
  const range = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`
  console.log(`  the bundle's own start (production minus minimal, per round): ${median(own).toFixed(0)} ms (${range(own)}), ${median(ownCpu).toFixed(0)} ms of workerd CPU (${range(ownCpu)})`)
}

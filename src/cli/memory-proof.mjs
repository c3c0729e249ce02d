// npm run memory-proof — every kind of job step run inside a V8 heap the size of the platform's
// 128 MB isolate limit. The production Worker (src/index.ts, bundled as `wrangler deploy` bundles
// it) runs in a workerd whose isolates get `--max-old-space-size=112 --max-semi-space-size=8`
// (src/cli/v8-flags.mjs): 112 MB of old space and 2 × 8 MB of young, so a step that needs more than
// 128 MB of heap aborts the runtime ("Reached heap limit") instead of passing. Its outbound fetch
// goes to the emulator (src/emulator/upstream-worker.ts) in a second runtime without the limit, so
// the Worker's isolate holds only our code and what the step reads.
//
// Steps, through the admin routes with an admin token, as `npm run backfill` and the crons run them:
// the industry-chain job (runs of 2,000 requests until every board and composition is held), the
// whole backfill (start, every chunk of 100 stocks, each month of day blobs, each day of tables),
// the HK and US factor tables, the playbook backtest, and the after-close market-day job.
// Takes 15–30 minutes on 2 cores. Exits 1 when the runtime aborted or a step failed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Miniflare } from 'miniflare'
import { formatDuration } from './backfill-lib.mjs'
import { runBackfill } from './backfill-run.mjs'
import { buildWorker, ROOT, workerOptions } from './harness.mjs'
import { miniflareWithV8Flags } from './v8-flags.mjs'

const HEAP_FLAGS = ['--max-old-space-size=112', '--max-semi-space-size=8']
const TOKEN = 'memory-proof'
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }
const say = (msg) => process.stdout.write(`[memory-proof] ${msg}\n`)

const dir = join(ROOT, '.bench/memory-proof')
say('bundling the production Worker and the emulator as an upstream Worker')
const workerScript = buildWorker('src/index.ts', join(dir, 'worker'))
// The emulator needs none of wrangler.toml's bindings (its Durable Objects are the Worker's): a config of its own.
mkdirSync(dir, { recursive: true })
const upstreamConfig = join(dir, 'upstream.toml')
writeFileSync(upstreamConfig, `name = "upstream"\ncompatibility_date = "2026-05-01"\ncompatibility_flags = ["nodejs_als"]\n[alias]\nzod = "${join(ROOT, 'src/zod-lean.ts')}"\n`)
const upstreamScript = buildWorker(join(ROOT, 'src/emulator/upstream-worker.ts'), join(dir, 'upstream'), { config: upstreamConfig })

const upstream = new Miniflare({ modules: true, scriptPath: upstreamScript, compatibilityDate: '2026-05-01', compatibilityFlags: ['nodejs_als'] })
await upstream.ready

/** Set when the limited runtime reports that an isolate reached its heap limit. */
let aborted = ''
const worker = await miniflareWithV8Flags(
  {
    ...workerOptions(workerScript),
    bindings: { UPSTREAM: 'live', ADMIN_TOKEN: TOKEN },
    // Every fetch the Worker makes (the upstreams' URLs) is answered by the emulator's runtime.
    outboundService: (request) => upstream.dispatchFetch(request),
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.on('data', (d) => process.stdout.write(d))
      stderr.on('data', (d) => {
        const text = String(d)
        if (/Reached heap limit|heap out of memory/.test(text)) aborted ||= text.split('\n').find((l) => /heap/.test(l)) ?? text
        process.stderr.write(d)
      })
    },
  },
  HEAP_FLAGS
)
const url = String(await worker.ready).replace(/\/$/, '')
say(`the Worker's isolates run with ${HEAP_FLAGS.join(' ')}`)

/**
 * One admin call; its JSON answer, or an error naming the step. A connection the runtime closed
 * while idle (a kept-alive one, reset as the call starts) is tried again; an abort of the runtime
 * is not hidden by that: the stderr watch above reports it, and every later call fails.
 */
async function post(path, body = {}) {
  for (let attempt = 1; ; attempt++) {
    let res
    try {
      res = await fetch(url + path, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) })
    } catch (e) {
      if (attempt < 3 && !aborted) continue
      throw new Error(`${path}: ${e.cause?.message ?? e.message}`)
    }
    const json = await res.json().catch(() => ({}))
    if (!res.ok) throw new Error(`${path} → HTTP ${res.status} ${json.error ?? ''}`)
    return json
  }
}

const t0 = performance.now()
let failed = ''
try {
  for (let run = 1; run <= 50; run++) {
    const r = await post('/__jobs/industry-chain', { budget: 2000 })
    say(`industry-chain run ${run}: ${r.requests} requests, ${r.coverage?.compositions} of ${r.coverage?.candidates} compositions`)
    if (r.complete || (r.boards_fetched === 0 && r.compositions_fetched === 0)) break
  }
  say(await runBackfill({ url, token: TOKEN, parallel: 1 }, { note: say, redraw: false }))
  // The backfill builds them too, but reports a failed one as a line only: here it must succeed.
  for (const market of ['hk', 'us']) {
    const r = await post('/__jobs/foreign-factors', { market, live: true })
    // `skipped`: the backfill's call above built it (its line says so), within the limit too.
    if (r.status !== 'done' && r.status !== 'skipped') throw new Error(`foreign-factors ${market}: ${r.error ?? r.reason ?? r.status}`)
    say(`foreign-factors ${market}: ${r.status === 'done' ? `${r.rows} stocks` : r.reason}`)
  }
  // The after-close job, run by run as its cron would (each run a share of the day's histories).
  for (let run = 1; ; run++) {
    const r = await post('/__jobs/market-day')
    say(`market-day run ${run}: ${r.status}${r.histories ? `, histories ${r.histories.done ? 'done' : `next ${r.histories.next}`}` : ''}${r.tables ? ', tables written' : ''}`)
    if (r.status === 'done' || r.status === 'skipped') break
    if (r.status !== 'partial' || run >= 40) throw new Error(`market-day: ${r.error ?? r.status} after ${run} runs`)
  }
  const health = await fetch(`${url}/v1/health`)
  if (!health.ok) throw new Error(`the Worker no longer answers: /v1/health → HTTP ${health.status}`)
} catch (e) {
  failed = e.message
}
await worker.dispose().catch(() => {})
await upstream.dispose().catch(() => {})

const took = formatDuration((performance.now() - t0) / 1000)
if (aborted) {
  say(`FAILED after ${took}: the Worker's runtime reached its heap limit (${aborted.trim()}); the last step above needs more than 128 MB`)
  process.exit(1)
}
if (failed) {
  say(`FAILED after ${took}: ${failed}`)
  process.exit(1)
}
say(`every step ran within a 128 MB heap (${HEAP_FLAGS.join(' ')}) in ${took}`)

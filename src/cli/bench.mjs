// npm run bench — throughput of routes in the built worker, run in Miniflare/workerd directly
// (not through `wrangler dev`'s proxy), each as a ratio against a bare route that returns a
// constant body, measured in the same run. Prints a table; exits 0.
import { join } from 'node:path'
import { buildWorker, ROOT, startWorker } from './harness.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS || 4)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8)
const BASE = 'http://127.0.0.1:8787'

const TARGETS = [
  ['bare constant route (baseline)', '/__bench/constant'],
  ['/v1/quote sh600519 (emulator)', '/v1/quote?code=sh600519'],
  ['/v1/kline sh600519 day x30 (emulator)', '/v1/kline?code=sh600519'],
  ['/v1/kline sh600519 day x1212 (emulator)', '/v1/kline?code=sh600519&count=1212'],
  ['/v1/kline sh600519 m5 x240 (emulator)', '/v1/kline?code=sh600519&period=m5&count=240'],
]

/** Requests per second for `path` with CONCURRENCY loops over SECONDS. */
async function measure(mf, path) {
  const deadline = performance.now() + SECONDS * 1000
  let done = 0
  let failed = 0
  const loop = async () => {
    while (performance.now() < deadline) {
      const res = await mf.dispatchFetch(BASE + path)
      const body = await res.text()
      if (res.status !== 200 || body.includes('"ok":false')) failed++
      done++
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  return { rps: done / ((performance.now() - t0) / 1000), done, failed }
}

console.log('building the emulator worker bundle…')
const mf = startWorker(buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/build')))
try {
  // Pin the emulator clock inside a session so every run does the same work.
  await mf.dispatchFetch(BASE + '/__emulator/clock', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: '2026-11-20T10:30:00+08:00' }),
  })
  for (const [, path] of TARGETS) for (let i = 0; i < 20; i++) await (await mf.dispatchFetch(BASE + path)).text()

  console.log(`\n${SECONDS}s per route, ${CONCURRENCY} concurrent requests, workerd via Miniflare dispatchFetch\n`)
  console.log('route'.padEnd(44) + 'req/s'.padStart(10) + 'ratio'.padStart(9) + 'requests'.padStart(10) + 'failed'.padStart(8))
  let baseline = 0
  for (const [name, path] of TARGETS) {
    const r = await measure(mf, path)
    if (!baseline) baseline = r.rps
    console.log(name.padEnd(44) + r.rps.toFixed(0).padStart(10) + (r.rps / baseline).toFixed(2).padStart(9) + String(r.done).padStart(10) + String(r.failed).padStart(8))
  }
} finally {
  await mf.dispose()
}

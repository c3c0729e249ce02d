// npm run bench — throughput of routes in the built worker, run in Miniflare/workerd directly
// (not through `wrangler dev`'s proxy), each as a ratio against a bare route that returns a
// constant body, all measured in the same run.
//
// Two views: "in-worker" batches N requests through the worker's own fetch handler per call
// (what the route itself costs; workerd's clock stands still during CPU work, so the batch is
// timed from Node), and "end-to-end" sends every request from Node (adds the per-request
// transport into workerd, which caps all routes alike).
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { buildWorker, ROOT, startWorker } from './harness.mjs'
import { marketKlineBench } from './bench-market-kline.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS || 3)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8)
const BATCH = 50
const BASE = 'http://127.0.0.1:8787'

const TARGETS = [
  ['bare constant route (baseline)', '/__bench/constant'],
  ['/v1/quote keyed (KeyGuard)', '/v1/quote?code=sh600519', { keyed: true }],
  ['/v1/quote anonymous, KV-cached', '/v1/quote?code=sh600519', { anonymous: 'pool' }],
  ['  … each call a new anonymous IP', '/v1/quote?code=sh600519', { anonymous: 'new' }],
  ['/v1/kline sh600519 day x30', '/v1/kline?code=sh600519'],
  ['/v1/kline sh600519 week x30', '/v1/kline?code=sh600519&period=week'],
  ['/v1/kline sh600519 m5 x48', '/v1/kline?code=sh600519&period=m5&count=48'],
  ['/v1/kline sh600519 day x1212', '/v1/kline?code=sh600519&count=1212'],
]

async function forSeconds(fn) {
  const t0 = performance.now()
  let n = 0
  let failed = 0
  while (performance.now() - t0 < SECONDS * 1000) {
    const r = await fn()
    n += r.n
    failed += r.failed
  }
  return { rps: n / ((performance.now() - t0) / 1000), n, failed }
}

// Keys for the keyed rows: each batch uses the next one, so no key's minute window (600) fills
// while the emulator clock stands still.
const BENCH_KEYS = Array.from({ length: 400 }, (_, i) => `mk_bench_${i}`)
let keyTurn = 0

async function storeBenchKeys(mf) {
  const kv = await mf.getKVNamespace('KEYS')
  const record = JSON.stringify({ tier: 'unlimited', label: 'bench', created: new Date().toISOString(), status: 'active' })
  for (const key of BENCH_KEYS) await kv.put(`key:${createHash('sha256').update(key).digest('hex')}`, record)
}

// Repeat anonymous callers: IPs that each solved a proof-of-work (60 calls a minute each), so the
// anonymous row measures admission by a warm AnonGuard plus the KV cache, not object creation.
const POOL_SIZE = 40
let anonPool = []

/** SHA-256 leading-zero search, the README's solver. */
async function solvePow(challenge, difficulty) {
  const zeros = (h) => { let n = 0; for (const b of new Uint8Array(h)) { if (b) return n + Math.clz32(b) - 24; n += 8 } return n }
  for (let base = 0; ; base += 256) {
    const tries = Array.from({ length: 256 }, (_, i) => `${challenge}.${base + i}`)
    const hashes = await Promise.all(tries.map((t) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(t))))
    const i = hashes.findIndex((h) => zeros(h) >= difficulty)
    if (i >= 0) return tries[i]
  }
}

async function solvePool(mf) {
  for (let i = 0; i < POOL_SIZE; i++) {
    const ip = `10.77.0.${i + 1}`
    const { data } = await (await mf.dispatchFetch(`${BASE}/v1/challenge`, { headers: { 'cf-connecting-ip': ip } })).json()
    anonPool.push([ip, await solvePow(data.challenge, data.difficulty)])
  }
}

// The emulator clock stands still during a run, so the anonymous pool's minute windows would fill:
// the bench moves the clock on a minute whenever the pool has used a minute's allowance (40 × 60
// calls), as real time would. Proofs last ten minutes of that clock; each timed phase starts with
// freshly solved ones, and a failed call shows in the table if a phase ever outlasted them.
const SESSION_START = Date.parse('2026-11-20T10:30:00+08:00')
let minute = 0
let poolCalls = 0
let minuteTurn = null

async function setMinute(mf, m) {
  minute = m
  poolCalls = 0
  await mf.dispatchFetch(`${BASE}/__emulator/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: new Date(SESSION_START + m * 60_000).toISOString() }),
  })
}

/** Reserves `n` calls of the pool's allowance, moving to the next minute when this one is spent. */
async function poolBudget(mf, n) {
  while (poolCalls + n > POOL_SIZE * 60) {
    minuteTurn ??= setMinute(mf, minute + 1).finally(() => (minuteTurn = null))
    await minuteTurn
  }
  poolCalls += n
}

/** A new minute and a freshly solved pool (untimed), before a timed phase. */
async function freshPool(mf) {
  await setMinute(mf, minute + 1)
  anonPool = []
  await solvePool(mf)
}

/** The loop call for a target: the path, and a key, a pool of anonymous callers, or a new IP per call. */
function loopRequest(path, opts = {}) {
  // Unmarked rows use a key too, so they measure the route rather than the anonymous limit.
  const headers = opts.anonymous ? {} : { authorization: `Bearer ${BENCH_KEYS[keyTurn++ % BENCH_KEYS.length]}` }
  if (opts.anonymous === 'pool') headers['x-bench-pool'] = JSON.stringify(anonPool)
  const url = `${BASE}/__bench/loop?n=${BATCH}&path=${encodeURIComponent(path)}${opts.anonymous === 'new' ? '&rotate_ip=1' : ''}`
  return [url, { headers }]
}

async function inWorker(mf, path, opts = {}) {
  if (opts.anonymous === 'pool') await freshPool(mf)
  return forSeconds(async () => {
    if (opts.anonymous === 'pool') await poolBudget(mf, BATCH)
    return (await mf.dispatchFetch(...loopRequest(path, opts))).json()
  })
}

let e2eIp = 1
async function endToEnd(mf, path, opts = {}) {
  if (opts.anonymous === 'pool') await freshPool(mf)
  const parts = await Promise.all(
    Array.from({ length: CONCURRENCY }, () =>
      forSeconds(async () => {
        if (opts.anonymous === 'pool') await poolBudget(mf, 1)
        const turn = e2eIp++
        const headers =
          opts.anonymous === 'pool'
            ? { 'cf-connecting-ip': anonPool[turn % anonPool.length][0], 'x-pow': anonPool[turn % anonPool.length][1] }
            : opts.anonymous === 'new'
              ? { 'cf-connecting-ip': `10.200.${(turn >> 8) & 255}.${turn & 255}` }
              : { authorization: `Bearer ${BENCH_KEYS[keyTurn++ % BENCH_KEYS.length]}` }
        const res = await mf.dispatchFetch(BASE + path, { headers })
        const body = await res.text()
        return { n: 1, failed: res.status !== 200 || body.startsWith('{"ok":false') ? 1 : 0 }
      })
    )
  )
  return { rps: parts.reduce((s, p) => s + p.rps, 0), n: parts.reduce((s, p) => s + p.n, 0), failed: parts.reduce((s, p) => s + p.failed, 0) }
}

function table(title, rows) {
  console.log(`\n${title}`)
  console.log('route'.padEnd(36) + 'req/s'.padStart(10) + 'ratio'.padStart(8) + 'requests'.padStart(10) + 'failed'.padStart(8))
  const base = rows[0][1].rps
  for (const [name, r] of rows) {
    console.log(name.padEnd(36) + r.rps.toFixed(0).padStart(10) + (r.rps / base).toFixed(2).padStart(8) + String(r.n).padStart(10) + String(r.failed).padStart(8))
  }
}

console.log('building the emulator worker bundle…')
const bundle = buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/build'))
const mf = startWorker(bundle)
try {
  // Pin the emulator clock inside a session so every run does the same work.
  await setMinute(mf, 0)
  await storeBenchKeys(mf)
  const solving = performance.now()
  await solvePool(mf)
  console.log(`solved ${POOL_SIZE} proof-of-work challenges for the anonymous pool in ${((performance.now() - solving) / 1000).toFixed(1)} s (again before each timed anonymous phase)`)
  for (const [, path, opts] of TARGETS) await (await mf.dispatchFetch(...loopRequest(path, opts))).text()

  console.log(`${SECONDS}s per route; upstreams answered by the in-process emulator (its bar generation is included)`)
  const a = []
  for (const [name, path, opts] of TARGETS) a.push([name, await inWorker(mf, path, opts)])
  table(`in-worker (batches of ${BATCH} through the worker's fetch handler)`, a)
  // Every key's KeyGuard already exists (one /v1/usage call each, which counts nothing), as for a
  // caller who keeps calling: creating an object is a once-per-key cost, not a per-call one.
  for (const key of BENCH_KEYS) await (await mf.dispatchFetch(`${BASE}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).text()
  await endToEnd(mf, TARGETS[0][1]) // warms the transport, which the baseline would otherwise pay alone
  const b = []
  for (const [name, path, opts] of TARGETS.slice(0, 5)) b.push([name, await endToEnd(mf, path, opts)])
  table(`end-to-end (${CONCURRENCY} concurrent requests from Node via Miniflare dispatchFetch)`, b)
} finally {
  await mf.dispose()
}

await marketKlineBench({ bundle, seconds: SECONDS, concurrency: CONCURRENCY, table })

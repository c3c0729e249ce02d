// The push-quote view of `npm run bench` (BENCH_ONLY=stream for it alone): N Server-Sent Events
// subscribers of `GET /v1/stream` on the same 50 A-share codes (25 in each of two StreamShard
// objects), at 1, 10, 200 and 1,000 subscribers (BENCH_SUBSCRIBERS to change them), each size in a
// workerd of its own. The clients live in this Node process, on plain HTTP connections straight to
// the Worker's socket in workerd (not inside workerd, where the tests' clients share the Worker's
// isolate). After two untimed steps, the emulator's clock moves 10 times, with the shards' cadence
// shortened (PUT /__emulator/stream) so that each polls within some milliseconds of a step; each
// step waits until every subscriber has the step's change. A step is a minute of the clock, not the
// source's 3 s: the emulator's quotes are minute bars, so a 3 s step inside a minute changes no field
// and the shards, having polled, send nothing; a minute changes every one of the 50 codes, each
// cadence the whole fan-out. Printed per size: the upstream requests of the 10 cadences per host,
// workerd's CPU per cadence (user + system from /proc, and the same from its threads' schedstat in
// ns) and its ratio to one subscriber's, and the delay from each clock step to each subscriber's
// receipt of the change (p50 / p99). Two tables: SSE subscribers of /v1/stream (each a relay in the
// Worker), then the shards alone (each subscriber a WebSocket straight to each shard object, as a
// relay holds: BENCH_STREAM_CLIENTS=sse or shards for one). The figures and what they include are
// in docs/performance.md ("Push quotes").
import { readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import WebSocket from 'ws'
import { quantile } from './bench-many-users.mjs'
import { startWorker, storeKeys, workerdPid } from './harness.mjs'

/** Session time of the first step: a Friday 10:30 in Beijing. */
const START = Date.parse('2026-11-20T10:30:00+08:00')
const SIZES = (process.env.BENCH_SUBSCRIBERS || '1,10,200,1000').split(',').map(Number)
/** Measured cadences per size, and untimed ones before them (the isolate's steady state, not its first calls). */
const STEPS = 10
const WARM_STEPS = 2
/** The source's cadence: the clock moves this much a step. */
const STEP_MS = Number(process.env.BENCH_STREAM_STEP_S || 60) * 1000
/** The shards' poll interval in real ms during the run (production: the 3 s of the source's cadence). */
const CADENCE_MS = Number(process.env.BENCH_STREAM_CADENCE_MS || 50)
/** How long a step may wait for every subscriber's change. */
const STEP_BOUND_MS = Number(process.env.BENCH_STREAM_BOUND_MS || 60_000)
/** Connections a key may hold (the unlimited tier). */
const PER_KEY = 20
/** Streams opened at once while connecting. */
const OPENING = 25
/**
 * How the clients reach the Worker: `direct`, a socket of workerd's straight to the Worker
 * (Miniflare's unsafeDirectSockets), or `entry`, Miniflare's port, whose entry worker proxies
 * every request and every chunk of every SSE body in the same process (BENCH_STREAM_VIA=entry).
 */
const VIA = process.env.BENCH_STREAM_VIA === 'entry' ? 'entry' : 'direct'
/** Which clients: `sse` (SSE subscribers of /v1/stream), `shards` (WebSockets straight to the shards, no relay); BENCH_STREAM_CLIENTS=sse for one. */
const KINDS = (process.env.BENCH_STREAM_CLIENTS || 'sse,shards').split(',')
/** Shards the 50 codes are drawn from (25 each), as test/stream.test.ts's fan-out test. */
const SHARDS = ['cn-0', 'cn-1']

/**
 * The shard of a code, as src/features/stream/stream-shard.ts's shardOf computes it (FNV-1a of the
 * code modulo 16); that module imports `cloudflare:workers`, so Node cannot load it.
 */
export function shardOf(code) {
  let h = 0x811c9dc5
  for (let k = 0; k < code.length; k++) h = Math.imul(h ^ code.charCodeAt(k), 0x01000193) >>> 0
  return `cn-${h % 16}`
}

/**
 * Splits Server-Sent Events text into events: `buffer` is what arrived so far (earlier rest
 * included); returns the complete events (`event` and `data` fields; `data` lines joined with
 * newlines, comments and `retry:` ignored) and the incomplete rest.
 */
export function parseSseFrames(buffer) {
  const events = []
  const text = buffer.replace(/\r\n?/g, '\n')
  let start = 0
  for (let k = text.indexOf('\n\n'); k >= 0; k = text.indexOf('\n\n', start)) {
    const block = text.slice(start, k)
    start = k + 2
    let event = 'message'
    const data = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'data') data.push(value)
    }
    if (data.length) events.push({ event, data: data.join('\n') })
  }
  return { events, rest: text.slice(start) }
}

/** Sums requests per host between two `/__emulator` path counts (`host/path` → count). */
export function hostCounts(before, after) {
  const hosts = {}
  for (const [path, n] of Object.entries(after)) {
    const d = n - (before[path] ?? 0)
    if (d) hosts[path.split('/')[0]] = (hosts[path.split('/')[0]] ?? 0) + d
  }
  return hosts
}

/** Beijing time of epoch ms in the quotes' `as_of` form (ISO 8601 with its offset): their `as_of` at a step. */
export const beijing = (ms) => `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`

/**
 * workerd's CPU so far, ms: user + system from /proc/<pid>/stat (10 ms ticks), the sum of its
 * threads' time on a core from their schedstat (ns), and their time runnable but waiting for a core.
 */
function cpu(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  let ns = 0
  let waitNs = 0
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [on, waiting] = readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')
      ns += Number(on)
      waitNs += Number(waiting)
    } catch {
      // a thread gone meanwhile
    }
  }
  return { stat: ((Number(f[11]) + Number(f[12])) * 1000) / 100, sched: ns / 1e6, wait: waitNs / 1e6 }
}

/** One HTTP request to the worker's port, read whole. */
function call(origin, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, origin), { method, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve(text ? JSON.parse(text) : null))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body && JSON.stringify(body))
  })
}

/**
 * An SSE subscriber on its own connection: resolves once the answer's head arrived (status 200),
 * then records each quote's receipt time by `as_of`. `got(asOf)` is how many of its codes it has
 * received at that `as_of`, `at(asOf)` when the last of them arrived.
 */
/** A subscriber's record of quotes by `as_of`: which codes arrived, the first and the last receipt. */
function receipts(close) {
  const byAsOf = new Map()
  return {
    other: [],
    got: (asOf) => byAsOf.get(asOf)?.codes.size ?? 0,
    at: (asOf) => byAsOf.get(asOf)?.at,
    firstAt: (asOf) => byAsOf.get(asOf)?.first,
    close,
    quote(q, now) {
      let seen = byAsOf.get(q.as_of)
      if (!seen) byAsOf.set(q.as_of, (seen = { codes: new Set(), at: now, first: now }))
      seen.codes.add(q.code)
      seen.at = now
    },
  }
}

function subscribe(origin, codes, key) {
  return new Promise((resolve, reject) => {
    const client = receipts(() => req.destroy())
    const req = request(new URL(`/v1/stream?codes=${codes.join(',')}`, origin), { agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } }, (res) => {
      if (res.statusCode !== 200) {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => reject(new Error(`stream answered ${res.statusCode}: ${text.slice(0, 300)}`)))
        return
      }
      res.setEncoding('utf8')
      let rest = ''
      res.on('data', (chunk) => {
        const now = performance.now()
        const parsed = parseSseFrames(rest + chunk)
        rest = parsed.rest
        for (const ev of parsed.events) {
          if (ev.event !== 'quote') {
            if (ev.event !== 'status') client.other.push(ev)
            continue
          }
          client.quote(JSON.parse(ev.data), now)
        }
      })
      res.on('error', () => undefined)
      resolve(client)
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * The shards alone: one WebSocket straight to each shard object (`/__bench/stream-shard`), as a
 * relay holds, with no relay between; each message is a JSON array of events.
 */
async function subscribeShards(origin, codes) {
  const sockets = []
  const client = receipts(() => sockets.forEach((ws) => ws.terminate()))
  await Promise.all(SHARDS.map((name) => new Promise((resolve, reject) => {
    const url = new URL(`/__bench/stream-shard?name=${name}&codes=${codes.filter((c) => shardOf(c) === name).join(',')}`, origin)
    url.protocol = 'ws:'
    const ws = new WebSocket(url, { perMessageDeflate: false })
    sockets.push(ws)
    ws.on('message', (data) => {
      const now = performance.now()
      for (const ev of JSON.parse(String(data))) {
        if (ev.event === 'quote') client.quote(ev.data, now)
        else if (ev.event !== 'status') client.other.push({ event: ev.event, data: JSON.stringify(ev.data) })
      }
    })
    ws.on('open', resolve)
    ws.on('error', reject)
  })))
  return client
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Waits until `test()` holds, checking every few ms, at most `bound` ms; resolves to whether it held. */
async function until(test, bound) {
  const deadline = performance.now() + bound
  while (!test()) {
    if (performance.now() > deadline) return false
    await sleep(2)
  }
  return true
}

/** One size: a fresh workerd, `n` subscribers, then WARM_STEPS + STEPS clock steps; resolves to its row. */
async function measure(bundle, codes, n, kind) {
  const mf = startWorker(bundle, { assets: false, ...(VIA === 'direct' ? { unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] } : {}) })
  const clients = []
  try {
    await mf.ready
    const origin = String(VIA === 'direct' ? await mf.unsafeGetDirectURL() : await mf.ready)
    const pid = workerdPid()
    await call(origin, 'POST', '/__emulator/reset')
    await call(origin, 'PUT', '/__emulator/clock', { now: new Date(START).toISOString() })
    // Heartbeats and the relays' minute recheck (lease, usage, key re-read) out of the measured span.
    await call(origin, 'PUT', '/__emulator/stream', { cadence_ms: CADENCE_MS, heartbeat_ms: 600_000, recheck_ms: 600_000 })
    const keys = Array.from({ length: Math.ceil(n / PER_KEY) }, (_, k) => `mk_stream_${k}`)
    await storeKeys(mf, keys)
    const opening = performance.now()
    for (let k = 0; k < n; k += OPENING) {
      const batch = await Promise.all(Array.from({ length: Math.min(OPENING, n - k) }, (_, j) => (kind === 'shards' ? subscribeShards(origin, codes) : subscribe(origin, codes, keys[Math.floor((k + j) / PER_KEY)]))))
      clients.push(...batch)
    }
    const first = beijing(START)
    if (!(await until(() => clients.every((c) => c.got(first) === codes.length), 60_000))) throw new Error(`${clients.filter((c) => c.got(first) < codes.length).length} of ${n} subscribers did not get the first state`)
    const connectS = (performance.now() - opening) / 1000
    // The shards' idle polls (clock still: the lines are shared for the cadence, nothing changes, nothing is sent).
    await sleep(200)
    const idle0 = cpu(pid)
    await sleep(2_000)
    const idle1 = cpu(pid)
    const idlePerS = { stat: (idle1.stat - idle0.stat) / 2, sched: (idle1.sched - idle0.sched) / 2 }

    let before = {}
    const used = { stat: 0, sched: 0, wait: 0 }
    let wallMs = 0
    const delays = []
    const firsts = []
    let late = 0
    let missing = 0
    for (let s = 1; s <= WARM_STEPS + STEPS; s++) {
      const measured = s > WARM_STEPS
      if (s === WARM_STEPS + 1) before = (await call(origin, 'GET', '/__emulator')).paths
      const asOf = beijing(START + s * STEP_MS)
      const c0 = cpu(pid)
      const t0 = performance.now()
      await call(origin, 'PUT', '/__emulator/clock', { now: new Date(START + s * STEP_MS).toISOString() })
      const all = await until(() => clients.every((c) => c.got(asOf) === codes.length), STEP_BOUND_MS)
      const c1 = cpu(pid)
      if (process.env.BENCH_VERBOSE) console.log(`  ${n} subscribers, step ${s}${measured ? '' : ' (untimed)'}: ${(performance.now() - t0).toFixed(0)} ms, ${clients.filter((c) => c.got(asOf) === codes.length).length} had all ${codes.length} codes at ${asOf} (the first: ${clients[0].got(asOf)}), CPU ${(c1.sched - c0.sched).toFixed(1)} ms`)
      if (!measured) continue
      wallMs += performance.now() - t0
      used.stat += c1.stat - c0.stat
      used.sched += c1.sched - c0.sched
      used.wait += c1.wait - c0.wait
      if (!all) late++
      for (const c of clients) {
        if (c.got(asOf) === codes.length) delays.push(c.at(asOf) - t0)
        if (c.got(asOf)) firsts.push(c.firstAt(asOf) - t0)
        else missing++
      }
    }
    const after = (await call(origin, 'GET', '/__emulator')).paths
    const errors = clients.flatMap((c) => c.other)
    return {
      n,
      connectS,
      hosts: hostCounts(before, after),
      cpuPerCadence: { stat: used.stat / STEPS, sched: used.sched / STEPS, wait: used.wait / STEPS },
      idlePerS,
      wallPerCadence: wallMs / STEPS,
      p50: quantile(delays, 0.5),
      p99: quantile(delays, 0.99),
      firstP50: quantile(firsts, 0.5),
      firstP99: quantile(firsts, 0.99),
      late,
      missing,
      errors: errors.length ? `${errors.length} other events, first ${errors[0].event} ${errors[0].data.slice(0, 200)}` : '',
    }
  } finally {
    for (const c of clients) c.close()
    await mf.dispose()
  }
}

/** The stream view: one row per size, the CPU ratio against one subscriber's in the same run. */
export async function streamBench({ bundle }) {
  // The 50 codes: A-share stocks of two shards, 25 each, from the emulator's universe.
  const mf = startWorker(bundle, { assets: false })
  let universe
  try {
    const origin = String(await mf.ready)
    await call(origin, 'PUT', '/__emulator/clock', { now: new Date(START).toISOString() })
    universe = await call(origin, 'GET', '/__bench/universe')
  } finally {
    await mf.dispose()
  }
  const codes = SHARDS.flatMap((s) => universe.filter((c) => shardOf(c) === s && !c.startsWith('bj')).slice(0, 25))
  console.log(`\nstream: N subscribers, each on the same ${codes.length} A-share codes (25 in each of shards ${SHARDS.join(' and ')}); ` +
    `clients in the bench's Node process on connections ${VIA === 'direct' ? "straight to the Worker's socket in workerd" : "to Miniflare's port (its entry worker in front)"}; a fresh workerd per size; ` +
    `${WARM_STEPS} untimed then ${STEPS} measured steps of the emulator's clock, ${STEP_MS / 1000} s each (every code changes), shards polling every ${CADENCE_MS} ms of real time`)
  for (const kind of KINDS) {
    const rows = []
    for (const n of SIZES) {
      const row = await measure(bundle, codes, n, kind)
      rows.push(row)
      if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(row))
    }
    console.log(kind === 'sse'
      ? '\nSSE subscribers of /v1/stream (a relay each in the Worker, one WebSocket from it to each shard):'
      : "\nthe shards alone: each subscriber one WebSocket straight to each shard object (/__bench/stream-shard), as a relay holds, no relay or SSE:")
    printRows(rows)
  }
}

/** One table: a row per size, the CPU ratio against one subscriber's of the same run. */
function printRows(rows) {
  const base = rows.find((r) => r.n === 1)
  // The shards poll every CADENCE_MS between steps too (nothing changed: no upstream request, nothing sent):
  // the idle column is that rate with the same subscribers and the clock still. The step's own CPU holds
  // the idle polls of its span, fewer than that rate times the span (a busy isolate runs fewer of them).
  console.log('subscribers | connect (s) | upstream requests in 10 cadences, per host | workerd CPU per cadence, ms (stat / schedstat) | ratio to 1 subscriber | workerd waiting for a core, ms per cadence | idle polling, ms of CPU per s | step to last receipt, ms | delay to the whole change (50 quotes) p50 / p99, ms | to its first quote p50 / p99, ms | steps past the bound | receipts missing')
  for (const r of rows) {
    const hosts = Object.entries(r.hosts).sort((a, b) => b[1] - a[1]).map(([h, k]) => `${h} ${k}`).join(', ') || 'none'
    const ratio = base ? (r.cpuPerCadence.sched / base.cpuPerCadence.sched).toFixed(1) : '—'
    const ms = (x) => (x === null ? '—' : x.toFixed(0))
    console.log(`${r.n} | ${r.connectS.toFixed(1)} | ${hosts} | ${r.cpuPerCadence.stat.toFixed(1)} / ${r.cpuPerCadence.sched.toFixed(1)} | ${ratio} | ${r.cpuPerCadence.wait.toFixed(0)} | ${r.idlePerS.sched.toFixed(1)} | ${r.wallPerCadence.toFixed(0)} | ${ms(r.p50)} / ${ms(r.p99)} | ${ms(r.firstP50)} / ${ms(r.firstP99)} | ${r.late} | ${r.missing}${r.errors ? ` | ${r.errors}` : ''}`)
  }
  if (base) console.log(`workerd CPU per subscriber per cadence beyond one subscriber's: ${rows.filter((r) => r.n > 1).map((r) => `${r.n}: ${((r.cpuPerCadence.sched - base.cpuPerCadence.sched) / (r.n - 1)).toFixed(2)} ms`).join(', ')}`)
}

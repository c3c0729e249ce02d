// npm run profile -- '<path>' [calls] [cold] [http] — where a route spends its CPU inside workerd.
// Builds the worker as the bench does, builds 1,000 stocks' histories and the day tables of the
// bench's date, serves `path` `calls` times (default 50) with V8's sampling profiler on (through
// Miniflare's inspector), then prints self time by function; the whole profile goes to
// .bench/profile.cpuprofile (Chrome DevTools opens it).
// The worker runs without its static assets, as in the bench. By default the calls go one at a
// time through the worker's own fetch handler with an unlimited key (the bench's in-worker view). `http` sends them as the bench's HTTP view does: 8 keep-alive
// connections to workerd, one key each, so what costs only under concurrency (timers, calls
// finishing together) shows too; the profile then also counts workerd's JavaScript around the
// route (Response objects, headers) that the in-worker view leaves to its loop.
// `{codes}` in the path is replaced by the day table's first 1,000 codes:
//   npm run profile -- '/v1/technical-batch?codes={codes}'
// The emulator's clock stands at 10:30 of a session, so blank-date batches are live; `cold` has the
// worker share no live row between calls (each call asks for its own quotes):
//   npm run profile -- '/v1/technical-batch?codes={codes}' 50 cold
// `anchor` profiles a live route's anchor instead of the route, as the bench builds it: the upstream
// requests of one warm call of `path`, then a copy of its answer and headers (compare the two runs):
//   npm run profile -- '/v1/snapshot?code=sh600519' 3000 http anchor
// `admitted` profiles the same anchor behind keyed admission (/__bench/admitted-copy): admission's own cost.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { buildWorker, httpClient, recordUpstreamRequests, ROOT, startWorker, storeAnswerCopy, storeKeys } from './harness.mjs'

const [path = '/v1/quote?code=sh600519', calls = '50', ...modes] = process.argv.slice(2)
const BASE = 'http://127.0.0.1:8787'
const DATE = '2026-11-19'
const KEY = 'mk_profile'
const INSPECTOR = 9339
const SESSION = Date.parse('2026-11-20T10:30:00+08:00')
/** Calls a key makes in one clock minute, under the unlimited tier's 600: past it the key would meet 429s. */
const PER_KEY_MINUTE = 550
const HTTP_CLIENTS = 8
const HTTP_KEYS = Array.from({ length: HTTP_CLIENTS }, (_, i) => `mk_profile_http_${i}`)
const overHttp = modes.includes('http')

const mf = startWorker(buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/profile'), { minify: false }), { inspectorPort: INSPECTOR, assets: false })
try {
  let minute = 0
  // Each batch of calls has a clock minute of its own, so that no key meets its per-minute limit.
  const nextMinute = async () => (await mf.dispatchFetch(`${BASE}/__emulator/clock`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: new Date(SESSION + minute++ * 60_000).toISOString() }) })).text()
  await nextMinute()
  await storeKeys(mf, [KEY, ...HTTP_KEYS], 'unlimited', 'profile')
  await (await mf.dispatchFetch(`${BASE}/__bench/usage-reports`, { method: 'PUT' })).text() // batched as in production
  await (await mf.dispatchFetch(`${BASE}/__bench/day-tables?date=${DATE}&n=1000`, { method: 'POST' })).text()
  const table = await (await (await mf.getR2Bucket('STORE')).get(`technicals/${DATE}.json`)).json()
  let target = path.replace('{codes}', Object.keys(table.rows).slice(0, 1000).join(','))
  if (modes.includes('cold')) await (await mf.dispatchFetch(`${BASE}/__bench/live-sharing`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ on: false }) })).text()
  const loopOnce = async (n) => (await mf.dispatchFetch(`${BASE}/__bench/loop?n=${n}&path=${encodeURIComponent(target)}`, { headers: { authorization: `Bearer ${KEY}` } })).json()
  if (modes.includes('anchor') || modes.includes('admitted')) target = await anchorOf(target, modes.includes('admitted'))
  const warm = await loopOnce(5) // compiled and cached before sampling
  if (warm.failed) throw new Error(`the route fails: ${warm.firstFailure}`)
  const socket = overHttp ? await httpClient(mf, HTTP_CLIENTS) : undefined
  /** Serves the target n times, in batches of at most a key's minute; resolves to the calls that failed. */
  const serve = async (n) => {
    let failed = 0
    for (let left = n; left > 0; ) {
      await nextMinute()
      if (!socket) {
        const batch = Math.min(left, PER_KEY_MINUTE)
        failed += (await loopOnce(batch)).failed
        left -= batch
        continue
      }
      const batch = Math.min(left, PER_KEY_MINUTE * HTTP_CLIENTS)
      // Each key its own share of the batch, so that none passes PER_KEY_MINUTE however the calls' times differ.
      await Promise.all(HTTP_KEYS.map(async (key, i) => {
        const share = Math.floor(batch / HTTP_CLIENTS) + (i < batch % HTTP_CLIENTS ? 1 : 0)
        for (let k = 0; k < share; k++) {
          const r = await socket.get(target, { authorization: `Bearer ${key}` })
          if (r.status !== 200 || r.body.startsWith('{"ok":false')) failed++
        }
      }))
      left -= batch
    }
    return failed
  }
  if (socket) await serve(HTTP_CLIENTS * 5)

  const workers = await (await fetch(`http://127.0.0.1:${INSPECTOR}/json/list`)).json()
  const ws = new WebSocket(workers.find((w) => w.title.includes('core:user')).webSocketDebuggerUrl)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let id = 0
  const waiting = new Map()
  ws.on('message', (m) => {
    const msg = JSON.parse(m)
    waiting.get(msg.id)?.(msg.result)
    waiting.delete(msg.id)
  })
  const send = (method, params = {}) => new Promise((resolve) => (waiting.set(++id, resolve), ws.send(JSON.stringify({ id, method, params }))))
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: 100 })
  await send('Profiler.start')
  const t0 = performance.now()
  const failed = await serve(Number(calls))
  const ms = (performance.now() - t0) / Number(calls)
  socket?.close()
  const { profile } = await send('Profiler.stop')
  ws.close()
  writeFileSync(join(ROOT, '.bench/profile.cpuprofile'), JSON.stringify(profile))

  // Self time per function (samples × their intervals), largest first.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  profile.samples.forEach((s, k) => {
    const f = nodes.get(s).callFrame
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim()
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[k] ?? 0))
  })
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const busy = total - (self.get('(idle)') ?? 0)
  const how = socket ? `over HTTP, ${HTTP_CLIENTS} in flight` : 'one at a time in the worker'
  console.log(`${path}: ${calls} calls ${how}, ${ms.toFixed(2)} ms a call (${failed} failed), JavaScript busy ${(busy / Number(calls)).toFixed(0)} µs a call; self time by function (bundle lines):`)
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`)
} finally {
  await mf.dispose()
}

/** Records `route`'s anchor in the bench's slot `profile` and answers its path (bench.mjs, the live routes' controls), behind keyed admission when `admitted`. */
async function anchorOf(route, admitted) {
  const copy = await storeAnswerCopy(mf, route, 'profile', KEY)
  const requests = await recordUpstreamRequests(mf, route, 'profile', KEY)
  console.log(`${route}'s anchor: ${requests.length} upstream request(s), then a copy of its answer and ${copy.headers.length} headers`)
  return admitted ? '/__bench/admitted-copy?slot=profile' : '/__bench/upstream-copy?slot=profile'
}

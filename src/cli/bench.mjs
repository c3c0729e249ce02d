// npm run bench — throughput of routes in the built worker, run in Miniflare/workerd directly
// (not through `wrangler dev`'s proxy), each as a ratio against a bare route that returns a
// constant body, measured in alternating rounds in the same run (see bench-rounds.mjs).
//
// Three views: "in-worker" batches N requests through the worker's own fetch handler per call
// (what the route itself costs; workerd's clock stands still during CPU work, so the batch is
// timed from Node), and two "end-to-end" views that send every request from Node with several in
// flight (what a client sees: they add the per-request transport into workerd, which every route
// pays alike). End-to-end via Miniflare's dispatchFetch is the view the earlier targets were set
// in; its response path costs Node some 20 ms per MB of body, which no HTTP client pays, so the
// same rows are measured again over plain keep-alive HTTP connections to workerd's socket, as curl
// or a client library calls (harness.mjs httpClient). Large answers (a 1,000-symbol technical
// batch is 1.1 MB) differ most between the two; small ones pay dispatchFetch's per-request cost.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { buildWorker, httpClient, recordUpstreamRequests, ROOT, startWorker, storeAnswerCopy, storeKeys } from './harness.mjs'
import { marketKlineBench } from './bench-market-kline.mjs'
import { manyUsersBench } from './bench-many-users.mjs'
import { startupBench } from './bench-startup.mjs'
import { spliceBench } from './bench-splice.mjs'
import { streamBench } from './bench-stream.mjs'
import { barLines, compareInRounds, median, printTable, ROUNDS } from './bench-rounds.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS || 2)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8)
const BATCH = 50
const BASE = 'http://127.0.0.1:8787'
const QUOTE = '/v1/quote?code=sh600519'

const BASELINE = { name: 'bare constant route (baseline)', path: '/__bench/constant' }
/** The analytics rows: one technical row, 1,000 A-share rows from the day's table, a three-condition screen. */
const TABLE_DATE = '2026-11-19'
const TABLE_STOCKS = 1000
const TECHNICAL = { name: '/v1/technical sh600519', path: '/v1/technical?code=sh600519', keys: 'client' }
const BATCH_1000 = { name: '/v1/technical-batch, 1,000 A-share codes', path: '', keys: 'client' }
/**
 * /v1/chip (the stored history of sh600519, forward-adjusted, plus a 10-bar channel tail
 * for the live day) against one /v1/kline-full call (the same stored history, whole, as rows).
 */
const CHIP = { name: '/v1/chip sh600519 (store + tail)', path: '/v1/chip?code=sh600519', keys: 'client' }
const KLINE_FULL = { name: '/v1/kline-full sh600519 (whole history)', path: '/v1/kline-full?code=sh600519', keys: 'client' }
/** The same call answered as CSV (`format=csv`, rows streamed as they are made). */
const KLINE_FULL_CSV = { name: '/v1/kline-full sh600519 (whole history) as CSV', path: '/v1/kline-full?code=sh600519&format=csv', keys: 'client' }
/** The anchor for /v1/kline-full: the physical limit, the same R2 object streamed by a bare route. */
const HISTORY_RAW = { name: '  … R2 history object bare (kline-full)', path: '/__bench/history-raw?code=sh600519' }
const SCREEN = { name: '/v1/screen, three conditions over hs', path: '/v1/screen?expr=' + encodeURIComponent('intersect([ChangePCT > 0, rsi_RSI_6 < 70, ClosePrice > ma_MA_20])') + '&limit=50', keys: 'client' }
/**
 * Control for the end-to-end views: a bare route answering a copy of the batch's answer, the same
 * bytes (no route work). Miniflare's dispatchFetch asks for gzip, as browsers and most HTTP libraries
 * do, and Miniflare's entry worker then compresses every JSON answer in the process, as Cloudflare's
 * edge would outside the Worker: for a 1 MB answer that compression is most of what the view
 * measures. The HTTP view's client asks for no encoding, as curl.
 */
const BARE_BATCH_SIZE = { name: 'bare route, a copy of the batch answer', path: '' }
/**
 * The same codes without a date: during the session, live rows stepped from the day before's states
 * with one batch of quotes. The rows are shared for one quote window (3 s, src/features/technical/live-items.ts)
 * and the bench's clock stands still, so this row measures callers within a window; for the cold row
 * the worker shares nothing between calls (PUT /__bench/live-sharing): what a call costs when nobody
 * asked for those stocks in the last 3 s and nobody is asking for them at the same time.
 */
const LIVE_1000 = { name: '/v1/technical-batch live, 1,000 A-share codes', path: '', keys: 'client' }
const LIVE_COLD_1000 = { name: '  … cold: nothing shared between calls', costName: 'the live batch, cold', path: '', keys: 'client', cold: true }
/** The same in the worker: what the routes cost without carrying the ~1.1 MB answer to Node. */
const TECHNICAL_IN = { name: '/v1/technical sh600519 ', path: TECHNICAL.path, keys: 'turn' }
const BATCH_1000_IN = { name: '/v1/technical-batch, 1,000 A-share codes ', path: '', keys: 'turn' }
const LIVE_1000_IN = { name: '/v1/technical-batch live, 1,000 A-share codes ', path: '', keys: 'turn' }
const LIVE_COLD_1000_IN = { ...LIVE_COLD_1000, name: '  … cold: nothing shared between calls ', keys: 'turn' }
const QUOTE_KEYED_IN = { name: '/v1/quote keyed (KeyGuard)', path: QUOTE, keys: 'turn' }
const QUOTE_ANONYMOUS = { name: '/v1/quote anonymous, cached (AnonGuard)', path: QUOTE, anonymous: 'pool' }
const QUOTE_KEYED = { name: '/v1/quote keyed, one key per client', path: QUOTE, keys: 'client' }
const SNAPSHOT_KEYED = { name: '/v1/snapshot sh600519 keyed', path: '/v1/snapshot?code=sh600519', keys: 'client' }
const ORDERBOOK_KEYED = { name: '/v1/orderbook sh600519 keyed', path: '/v1/orderbook?code=sh600519', keys: 'client' }
/**
 * Controls for the live routes: a bare route making the upstream requests one warm call of the
 * route makes (recorded from such a call) and reading their answers, then answering a copy of the
 * route's answer and its own headers, with no admission, parsing or envelope: the work of the
 * in-process emulator, the fetch and carrying the answer, which every call of the route pays too
 * (on Cloudflare the upstream's part runs on its own servers). Against these rows, what the route
 * adds to what it must fetch and send.
 */
const QUOTE_UPSTREAM = { name: '  … its upstream requests and answer, bare (quote)', path: '', upstreamOf: QUOTE_KEYED, slot: 'quote' }
const SNAPSHOT_UPSTREAM = { name: '  … its upstream requests and answer, bare (snapshot)', path: '', upstreamOf: SNAPSHOT_KEYED, slot: 'snapshot' }
const ORDERBOOK_UPSTREAM = { name: '  … its upstream requests and answer, bare (orderbook)', path: '', upstreamOf: ORDERBOOK_KEYED, slot: 'orderbook' }
const HOT_KEYED = { name: '/v1/hot keyed (shared market cache)', path: '/v1/hot', keys: 'client' }
const CHANGEDIST_KEYED = { name: '/v1/changedist keyed (shared market cache)', path: '/v1/changedist', keys: 'client' }
/**
 * Controls for the shared answers: a bare route answering a copy of the route's answer (some KB
 * against the baseline's 11 bytes) with the route's own headers (rate limits, caching, Vary: five
 * or six beside the four every answer has), so that carrying the answer is set apart from what the route's
 * ratio to the baseline measures; against these rows, what admission and the envelope cost.
 */
const HOT_BYTES = { name: "  … bare route, a copy of /v1/hot's answer and headers", path: '', copyOf: HOT_KEYED, slot: 'hot' }
const CHANGEDIST_BYTES = { name: "  … bare route, a copy of /v1/changedist's answer and headers", path: '', copyOf: CHANGEDIST_KEYED, slot: 'changedist' }
/**
 * The same controls behind keyed admission (`/__bench/admitted-copy`, one key per client as the
 * routes): every counted call is identified, admitted from its key's slice, given its rate headers
 * and its usage. What a keyed route can reach however little it parses or builds: a route whose own
 * work is only the envelope of a shared answer (changedist) measures at this row within the noise.
 */
const admitted = (name, control) => ({ name, path: '', admittedOf: control, keys: 'client' })
const HOT_ADMITTED = admitted("  … a copy of /v1/hot's answer and headers, behind keyed admission", HOT_BYTES)
const CHANGEDIST_ADMITTED = admitted("  … a copy of /v1/changedist's answer and headers, behind keyed admission", CHANGEDIST_BYTES)
const QUOTE_ADMITTED = admitted('  … its upstream requests and answer (quote, behind keyed admission)', QUOTE_UPSTREAM)
const SNAPSHOT_ADMITTED = admitted('  … its upstream requests and answer (snapshot, behind keyed admission)', SNAPSHOT_UPSTREAM)
const ORDERBOOK_ADMITTED = admitted('  … its upstream requests and answer (orderbook, behind keyed admission)', ORDERBOOK_UPSTREAM)
const ADMITTED = [HOT_ADMITTED, CHANGEDIST_ADMITTED, QUOTE_ADMITTED, SNAPSHOT_ADMITTED, ORDERBOOK_ADMITTED]
/**
 * The per-route goals for the HTTP view (market-kline's is in bench-market-kline.mjs). Each keyed
 * live or shared route is held at 0.8 × its own control behind keyed admission: what its
 * validation, parsing and envelope may cost beside the admission and the upstream work no route
 * can skip (docs/performance.md, "Many users").
 */
const HTTP_BARS = [
  { target: HOT_KEYED.name, goal: 0.8, per: HOT_ADMITTED.name },
  { target: CHANGEDIST_KEYED.name, goal: 0.8, per: CHANGEDIST_ADMITTED.name },
  { target: QUOTE_KEYED.name, goal: 0.8, per: QUOTE_ADMITTED.name },
  { target: SNAPSHOT_KEYED.name, goal: 0.8, per: SNAPSHOT_ADMITTED.name },
  { target: ORDERBOOK_KEYED.name, goal: 0.8, per: ORDERBOOK_ADMITTED.name },
  // The technical row asks for the live quote, as the keyed quote does.
  { target: TECHNICAL.name, goal: 0.4, ceiling: QUOTE_KEYED.name },
  { target: KLINE_FULL.name, goal: 0.6, per: HISTORY_RAW.name },
]
const IN_WORKER = [
  QUOTE_KEYED_IN,
  QUOTE_ANONYMOUS,
  { name: '  … each call a new anonymous IP', path: QUOTE, anonymous: 'new' },
  { name: '/v1/kline sh600519 day x30', path: '/v1/kline?code=sh600519', keys: 'turn' },
  { name: '/v1/kline sh600519 week x30', path: '/v1/kline?code=sh600519&period=week', keys: 'turn' },
  { name: '/v1/kline sh600519 m5 x48', path: '/v1/kline?code=sh600519&period=m5&count=48', keys: 'turn' },
  { name: '/v1/kline sh600519 day x1212', path: '/v1/kline?code=sh600519&count=1212', keys: 'turn' },
  { ...SNAPSHOT_KEYED, keys: 'turn' },
  { ...ORDERBOOK_KEYED, keys: 'turn' },
  { ...HOT_KEYED, keys: 'turn' },
  { ...CHANGEDIST_KEYED, keys: 'turn' },
  { ...CHIP, keys: 'turn' },
  { ...KLINE_FULL, keys: 'turn' },
  { ...KLINE_FULL_CSV, keys: 'turn' },
  HISTORY_RAW,
  TECHNICAL_IN,
  BATCH_1000_IN,
  LIVE_1000_IN,
  LIVE_COLD_1000_IN,
]
const END_TO_END = [
  QUOTE_KEYED,
  QUOTE_UPSTREAM,
  QUOTE_ADMITTED,
  { name: '  … each call the next of 400 keys', path: QUOTE, keys: 'turn' },
  QUOTE_ANONYMOUS,
  { name: '  … each call a new anonymous IP', path: QUOTE, anonymous: 'new' },
  { name: '/v1/kline sh600519 day x30', path: '/v1/kline?code=sh600519', keys: 'client' },
  TECHNICAL,
  BATCH_1000,
  BARE_BATCH_SIZE,
  LIVE_1000,
  LIVE_COLD_1000,
  SCREEN,
  SNAPSHOT_KEYED,
  SNAPSHOT_UPSTREAM,
  SNAPSHOT_ADMITTED,
  ORDERBOOK_KEYED,
  ORDERBOOK_UPSTREAM,
  ORDERBOOK_ADMITTED,
  HOT_KEYED,
  HOT_BYTES,
  HOT_ADMITTED,
  CHANGEDIST_KEYED,
  CHANGEDIST_BYTES,
  CHANGEDIST_ADMITTED,
  CHIP,
  KLINE_FULL,
  KLINE_FULL_CSV,
  HISTORY_RAW,
]

// BENCH_ONLY=<regexp> measures only the routes whose name matches (and the baseline).
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
/** A view's own name alone runs that view alone (`stream` would match the routes' "upstream" rows as a regexp). */
const VIEW_ONLY = ['many-users', 'splice', 'startup', 'stream'].includes(process.env.BENCH_ONLY ?? '')
const chosen = (targets) => (VIEW_ONLY ? [] : only ? targets.filter((t) => only.test(t.name)) : targets)
/** The bare controls whose slot a chosen row uses: chosen themselves, or their admitted twin is. */
const withSlots = (controls) => controls.filter((c) => chosen([c]).length || chosen(ADMITTED).some((a) => a.admittedOf === c))

/** Milliseconds of the harness's own work (solving proofs-of-work, moving the clock, warming shared answers), which timed measurements leave out. */
let pausedMs = 0

async function forSeconds(fn) {
  const t0 = performance.now()
  const p0 = pausedMs
  const elapsed = () => performance.now() - t0 - (pausedMs - p0)
  let n = 0
  let failed = 0
  while (elapsed() < SECONDS * 1000) {
    const r = await fn()
    n += r.n
    failed += r.failed
  }
  return { rps: n / (elapsed() / 1000), n, failed }
}

// Unlimited keys (600 calls a minute each). In-worker, each batch is one caller making 50 calls
// and takes the next key; end-to-end, either each concurrent client keeps its own key or every
// call takes the next key (many callers, each object seeing a call now and then).
const BENCH_KEYS = Array.from({ length: 400 }, (_, i) => `mk_bench_${i}`)
const CLIENT_KEYS = Array.from({ length: CONCURRENCY }, (_, i) => `mk_bench_client_${i}`)
let keyTurn = 0

async function storeBenchKeys(mf) {
  await storeKeys(mf, [...BENCH_KEYS, ...CLIENT_KEYS, WARM_KEY])
  // Every key's KeyGuard exists before timing (one /v1/usage call each, which counts nothing), as
  // for a caller who keeps calling: creating an object is a once-per-key cost, not a per-call one.
  for (const key of [...BENCH_KEYS, ...CLIENT_KEYS]) await (await mf.dispatchFetch(`${BASE}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).text()
}

// Repeat anonymous callers: IPs that each solved a proof-of-work (60 calls a minute each), so the
// anonymous row measures admission by a warm AnonGuard plus the cache, not object creation.
// 100 of them: each may take 100,000 rows a day and a quote answer is 30 rows, so the pool as a
// whole has about 330,000 calls in the emulated day the bench runs in (40 ran out once leases made
// the calls faster: ROWS_EXHAUSTED, the service's limit working as it should).
const POOL_SIZE = 100
/** [ip, X-PoW] pairs; replaced whole when solved again, since calls in flight read it. */
let anonPool = []
let solvedAt = -Infinity

/** SHA-256 leading-zero search with Node's synchronous hash (docs/access.md's WebCrypto solver is slower). */
function solvePow(challenge, difficulty) {
  const zeros = (h) => { let n = 0; for (const b of h) { if (b) return n + Math.clz32(b) - 24; n += 8 } return n }
  for (let nonce = 0; ; nonce++) {
    const proof = `${challenge}.${nonce}`
    if (zeros(createHash('sha256').update(proof).digest()) >= difficulty) return proof
  }
}

async function solvePool(mf) {
  const t0 = performance.now()
  const pool = []
  for (let i = 0; i < POOL_SIZE; i++) {
    const ip = `10.77.0.${i + 1}`
    const { data } = await (await mf.dispatchFetch(`${BASE}/v1/challenge`, { headers: { 'cf-connecting-ip': ip } })).json()
    pool.push([ip, solvePow(data.challenge, data.difficulty)])
  }
  anonPool = pool
  solvedAt = minute
  pausedMs += performance.now() - t0
}

// The emulator clock stands still during a run, so minute windows would fill: the bench moves the
// clock on a minute whenever the anonymous pool (100 × 60 calls) or a client's key (600) has used a
// minute's allowance, as real time would. Proofs last ten minutes of that clock; the pool is solved
// again when they near their end, and the time that takes is left out of the measurement. A
// refused call would show in the `failed` column.
const SESSION_START = Date.parse('2026-11-20T10:30:00+08:00')
let minute = 0
// Calls made this minute: the pool as a whole (calls go round its IPs in turn, so each IP has its
// share) and each end-to-end client's own key. One call a caller short of its limit: a call made
// just before the minute moves may land in the next minute, so each caller keeps room for one.
let spent = {}
const ALLOWANCE = { pool: POOL_SIZE * 59, client: 599, turn: BENCH_KEYS.length * 599 }
let minuteTurn = null

async function setMinute(mf, m) {
  await (await mf.dispatchFetch(`${BASE}/__emulator/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: new Date(SESSION_START + m * 60_000).toISOString() }),
  })).text()
  // Only now that the clock has moved: callers let through on a fresh allowance while the move was
  // still on its way would be counted in the old minute (the 429s some earlier runs showed).
  minute = m
  spent = {}
}

// The shared-cache rows (/v1/hot, /v1/changedist) measure the cached path. Each minute the bench
// moves its clock expires the market cache at once (a jump of 60 s, past the 30 s an answer may be
// served stale), and the cold recompute that follows (the whole-market list, 56 pages: 4–12 s of
// the in-process emulator on a loaded machine) would land inside a 2 s measurement. In real time a
// refresh runs in the background every 10–15 s while callers get the previous answer; so the bench
// recomputes the answer right after each clock move, outside the timing like the proof-of-work
// solving, and prints what the recompute costs upstream below the tables.
const SHARED_PATHS = new Set(['/v1/hot', '/v1/changedist'])
const WARM_KEY = 'mk_bench_warm'
/** The shared-cache path being measured, if any. */
let measuringShared = null

async function warmShared(mf, path) {
  const t0 = performance.now()
  await (await mf.dispatchFetch(BASE + path, { headers: { authorization: `Bearer ${WARM_KEY}` } })).text()
  pausedMs += performance.now() - t0
}

let sharingLive = true

/**
 * Before measuring a target: a shared-cache path gets its answer computed for the current minute;
 * live technical rows are shared between calls except for a cold row.
 */
async function prepare(mf, target) {
  measuringShared = SHARED_PATHS.has(target.path) ? target.path : null
  if (measuringShared) await warmShared(mf, measuringShared)
  if (sharingLive === !target.cold) return
  sharingLive = !target.cold
  await (await mf.dispatchFetch(`${BASE}/__bench/live-sharing`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ on: sharingLive }) })).text()
}

/**
 * Reserves `n` calls of a caller's minute, moving to the next minute when this one is spent. No
 * call leaves while the clock moves: one sent meanwhile could be admitted in the new minute after
 * workerd took the move but before `spent` was cleared here, and so go uncounted there (the few
 * 429s of earlier full runs, on keys that had not reached their limit by this count).
 */
async function budget(mf, kind, n, who = kind) {
  for (;;) {
    if (minuteTurn) {
      await minuteTurn
      continue
    }
    if ((spent[who] ?? 0) + n <= ALLOWANCE[kind]) break
    minuteTurn = (async () => {
      // Moving the clock is the harness's work, not the service's: every caller waits for it, so it is left out like the solving.
      const t0 = performance.now()
      await setMinute(mf, minute + 1)
      pausedMs += performance.now() - t0
      if (minute - solvedAt >= 9) await solvePool(mf)
      if (measuringShared) await warmShared(mf, measuringShared)
    })().finally(() => (minuteTurn = null))
  }
  spent[who] = (spent[who] ?? 0) + n
}

/** The loop call for a target: the path, and a key, a pool of anonymous callers, or a new IP per call. */
function loopRequest(target) {
  const headers = target.anonymous ? {} : { authorization: `Bearer ${BENCH_KEYS[keyTurn++ % BENCH_KEYS.length]}` }
  if (target.anonymous === 'pool') headers['x-bench-pool'] = JSON.stringify(anonPool)
  const url = `${BASE}/__bench/loop?n=${BATCH}&path=${encodeURIComponent(target.path)}${target.anonymous === 'new' ? '&rotate_ip=1' : ''}`
  return [url, { headers }]
}

/**
 * The routes whose upstream cost is counted: 1,000 keyed calls each. The shared-cache routes serve
 * one answer per freshness window; the live ones share the source's line for its cadence
 * (src/channels/live-lines.ts), and the bench's clock stands still, so a burst asks once.
 */
const UPSTREAM_COST = [
  { name: '/v1/hot keyed (shared market cache)', path: '/v1/hot' },
  { name: '/v1/changedist keyed (shared market cache)', path: '/v1/changedist' },
  { name: '/v1/quote sh600519 keyed (live)', path: QUOTE },
  { name: '/v1/snapshot sh600519 keyed (live)', path: '/v1/snapshot?code=sh600519' },
  { name: '/v1/orderbook sh600519 keyed (live)', path: '/v1/orderbook?code=sh600519' },
]
const COST_CALLS = 1000

/**
 * Upstream requests (counted at the emulator, per channel) caused by {@link COST_CALLS} keyed calls
 * to a route, CONCURRENCY in flight, each call the next of the 400 keys, starting cold: the clock
 * moves on a minute first, so a cached answer has expired. The clock then stands still, as for a
 * burst inside one freshness window (hot 15 s, changedist 10 s).
 */
async function upstreamCost(mf, target) {
  await setMinute(mf, minute + 1)
  const counts = async () => (await (await mf.dispatchFetch(`${BASE}/__emulator`)).json()).requests
  const before = await counts()
  let next = 0
  let failed = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < COST_CALLS) {
      next++
      const res = await mf.dispatchFetch(BASE + target.path, { headers: { authorization: `Bearer ${BENCH_KEYS[keyTurn++ % BENCH_KEYS.length]}` } })
      const body = await res.text()
      if (res.status !== 200 || body.startsWith('{"ok":false')) failed++
    }
  }))
  const after = await counts()
  const per = Object.fromEntries(Object.keys(after).map((c) => [c, after[c] - (before[c] ?? 0)]).filter(([, n]) => n > 0))
  const total = Object.values(per).reduce((a, b) => a + b, 0)
  console.log(`${target.name}: ${COST_CALLS} keyed calls caused ${total} upstream requests (${Object.entries(per).map(([c, n]) => `${c} ${n}`).join(', ') || 'none'})${failed ? `, ${failed} calls failed` : ''}`)
  // The next minute starts clean for the keys' allowances.
  await setMinute(mf, minute + 1)
}

/** Failed calls are counted in the tables; each view's first one of each route is shown, to say why. */
const reported = new Set()
/** True the first time `target` fails in `view`. */
const isFirstFailure = (view, target) => !reported.has(`${view} ${target.name}`) && !!reported.add(`${view} ${target.name}`)

async function inWorker(mf, target) {
  await prepare(mf, target)
  return forSeconds(async () => {
    if (target.anonymous === 'pool') await budget(mf, 'pool', BATCH)
    // The 400 rotating keys share one minute too: a long run of keyed rows would otherwise fill it.
    // Every keyed batch takes the next of them (loopRequest), whatever the row's end-to-end keys.
    if (!target.anonymous) await budget(mf, 'turn', BATCH)
    const r = await (await mf.dispatchFetch(...loopRequest(target))).json()
    if (r.firstFailure && isFirstFailure('in-worker', target)) console.error(`first failed call in the worker: ${target.path} → ${r.firstFailure}`)
    return r
  })
}

let e2eTurn = 1
/** Sends one request the way an end-to-end view does: `dispatch` (Miniflare's dispatchFetch) or `http` (a socket). */
async function send(via, path, headers) {
  if (via === 'http') return socket.get(path, headers)
  const res = await mf.dispatchFetch(BASE + path, { headers })
  return { status: res.status, body: await res.text() }
}

async function endToEnd(mf, target, via = 'dispatch') {
  await prepare(mf, target)
  const parts = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, client) =>
      forSeconds(async () => {
        let headers = {}
        if (target.anonymous === 'pool') {
          await budget(mf, 'pool', 1)
          const turn = e2eTurn++ // after the budget, so each minute's calls go round the pool evenly
          headers = { 'cf-connecting-ip': anonPool[turn % anonPool.length][0], 'x-pow': anonPool[turn % anonPool.length][1] }
        } else if (target.anonymous === 'new') {
          const turn = e2eTurn++
          headers = { 'cf-connecting-ip': `10.200.${(turn >> 8) & 255}.${turn & 255}` }
        } else if (target.keys === 'client') {
          await budget(mf, 'client', 1, `client ${client}`)
          headers = { authorization: `Bearer ${CLIENT_KEYS[client]}` }
        } else if (target.keys === 'turn') {
          await budget(mf, 'turn', 1)
          headers = { authorization: `Bearer ${BENCH_KEYS[keyTurn++ % BENCH_KEYS.length]}` }
        }
        const { status, body } = await send(via, target.path, headers)
        const bad = status !== 200 || body.startsWith('{"ok":false')
        if (bad && isFirstFailure(via, target)) console.error(`first failed call (${via}): ${target.path} → ${status} ${body.slice(0, 300)}`)
        return { n: 1, failed: bad ? 1 : 0 }
      })
    )
  )
  return { rps: parts.reduce((s, p) => s + p.rps, 0), n: parts.reduce((s, p) => s + p.n, 0), failed: parts.reduce((s, p) => s + p.failed, 0) }
}

const mid = (xs) => xs[Math.floor(xs.length / 2)]
const medianRps = (rows, t) => rows.find((r) => r.name === t.name)?.runs.map((r) => r.rps).sort((a, b) => a - b)

/**
 * What one /v1/chip call costs in /v1/kline-full calls (below 1 is cheaper), from the
 * median ratios to the baseline, so drift between the two rows' rounds cancels out.
 */
function printChipRatio(rows, view) {
  const [chip, full] = [CHIP, KLINE_FULL].map((t) => rows.find((r) => r.name === t.name))
  if (chip && full) console.log(`${view}: cost of one /v1/chip call in /v1/kline-full calls: ${(median(full.ratios) / median(chip.ratios)).toFixed(2)} (median ${median(chip.runs.map((r) => r.rps)).toFixed(0)} vs ${median(full.runs.map((r) => r.rps)).toFixed(0)} calls/s)`)
}

/**
 * The anchors: a route's throughput as a share of a cheaper one that does part of its work,
 * from the median ratios to the baseline (drift between the rows' rounds cancels out).
 */
function printAnchors(rows, pairs) {
  const ratio = (t) => rows.find((r) => r.name === t.name)?.ratios
  for (const [t, anchor, said, goal] of pairs) {
    const [a, b] = [ratio(t), ratio(anchor)]
    if (a && b) console.log(`${t.name.trim()} at ${(median(a) / median(b)).toFixed(2)} × ${said}${goal ? ` (goal at least ${goal})` : ''}`)
  }
}

/**
 * The analytics goals, re-based on the keyed quote: they were "a 1,000-symbol batch at most 3 × one
 * /v1/technical call, a screen at most 2 ×" when a technical call read and recomputed the stock's
 * whole history, about 8 keyed /v1/quote calls. Since a technical row is stepped from the stored
 * state it costs about one quote call, so the
 * same absolute bounds are 24 and 16 keyed quote calls: the quote (admission plus one live quote)
 * is the anchor that does not move when the analytics get faster.
 */
function printCostRatios(rows, [anchor, pairs] = [QUOTE_KEYED, [[TECHNICAL, null], [BATCH_1000, 24], [LIVE_1000, 24], [LIVE_COLD_1000, 24], [SCREEN, 16]]]) {
  const rps = (t) => medianRps(rows, t)
  const quote = rps(anchor)
  if (!quote) return
  for (const [t, goal] of pairs) {
    const other = rps(t)
    if (other) console.log(`cost of one call of ${t.costName ?? t.name.trim()} in keyed /v1/quote calls: ${(mid(quote) / mid(other)).toFixed(2)}${goal ? ` (goal at most ${goal})` : ''}`)
  }
  // What the batch's bytes alone cost this view: a bare route answering the same bytes.
  const [batch, bare] = [rps(BATCH_1000), rps(BARE_BATCH_SIZE)]
  if (batch && bare) console.log(`  of which carrying the answer's bytes (a bare route answering a copy of them): ${(mid(quote) / mid(bare)).toFixed(2)} keyed /v1/quote calls`)
}

/** The route rows' worker and its HTTP client (set while they run). */
let mf
let socket

/**
 * Whether the worker's isolate started again since the last look: /v1/health's uptime (since the
 * isolate loaded the module) against Node's clock. A new isolate has lost the slices of the keys'
 * minutes its predecessor held, which their KeyGuards counted: a key may then meet 429 up to a
 * slice before its limit, as docs/access.md says of an evicted isolate. Printed below each table.
 */
let lastLook
async function isolateRestart() {
  const { uptime_s } = await (await mf.dispatchFetch(`${BASE}/v1/health`)).json()
  const now = Date.now()
  const expected = lastLook ? lastLook.uptime + (now - lastLook.at) / 1000 : uptime_s
  lastLook = { at: now, uptime: uptime_s }
  if (uptime_s < expected - 5) console.log(`the worker's isolate started again during this view, ${uptime_s} s ago (its slices of the keys' minutes were lost with it)`)
}

/** The route rows: every chosen target of the three views, against the bare constant route. */
async function routeBench(bundle) {
  // The Worker alone: Miniflare's stand-in for Cloudflare's assets routing costs more than a bare
  // route (harness.mjs startWorker), and more on the baseline's path than on /v1's.
  mf = startWorker(bundle, { assets: false })
  socket = await httpClient(mf, CONCURRENCY)
  try {
    await isolateRestart()
    // Pin the emulator clock inside a session so every run does the same work.
    await setMinute(mf, 0)
    // Usage from leased slices batched as in production, not sent after every call (as for tests).
    await (await mf.dispatchFetch(`${BASE}/__bench/usage-reports`, { method: 'PUT' })).text()
    await storeBenchKeys(mf)
    if (chosen([TECHNICAL, BATCH_1000, SCREEN, BATCH_1000_IN, LIVE_1000, LIVE_1000_IN, LIVE_COLD_1000, LIVE_COLD_1000_IN, BARE_BATCH_SIZE]).length) {
      const seeding = performance.now()
      const tables = await (await mf.dispatchFetch(`${BASE}/__bench/day-tables?date=${TABLE_DATE}&n=${TABLE_STOCKS}`, { method: 'POST' })).json()
      const codes = Object.keys((await (await mf.getR2Bucket('STORE')).get(`technicals/${TABLE_DATE}.json`).then((o) => o.json())).rows)
      BATCH_1000.path = BATCH_1000_IN.path = `/v1/technical-batch?date=${TABLE_DATE}&codes=${codes.slice(0, 1000).join(',')}`
      LIVE_1000.path = LIVE_1000_IN.path = LIVE_COLD_1000.path = LIVE_COLD_1000_IN.path = `/v1/technical-batch?codes=${codes.slice(0, 1000).join(',')}`
      const answer = await (await mf.dispatchFetch(BASE + BATCH_1000.path, { headers: { authorization: `Bearer ${WARM_KEY}` } })).arrayBuffer()
      await (await mf.dispatchFetch(`${BASE}/__bench/constant-copy`, { method: 'POST', body: answer })).text()
      BARE_BATCH_SIZE.path = '/__bench/constant-copy'
      console.log(`the 1,000-symbol batch's answer is ${(answer.byteLength / 1e6).toFixed(2)} MB`)
      console.log(`built ${tables.rows} stocks' histories and the ${TABLE_DATE} tables in ${((performance.now() - seeding) / 1000).toFixed(1)} s: technicals ${(tables.bytes / 1e6).toFixed(2)} MB for ${tables.rows} stocks (${Math.round(tables.bytes / tables.rows)} bytes a stock; ~${((tables.bytes / tables.rows) * 5572 / 1e6).toFixed(1)} MB for the whole market), ${tables.factors} factor columns; indicator states ${(tables.stateBytes / 1e6).toFixed(2)} MB (~${((tables.stateBytes / tables.rows) * 5572 / 1e6).toFixed(1)} MB for the whole market)`)
    }
    for (const control of withSlots([HOT_BYTES, CHANGEDIST_BYTES, QUOTE_UPSTREAM, SNAPSHOT_UPSTREAM, ORDERBOOK_UPSTREAM])) {
      const copyOf = control.copyOf ?? control.upstreamOf
      const copy = await storeAnswerCopy(mf, copyOf.path, control.slot, WARM_KEY)
      // The live routes' controls answer their copy after their upstream requests (path set below).
      if (control.copyOf) control.path = `/__bench/constant-copy?slot=${control.slot}`
      console.log(`${copyOf.path}'s answer is ${(copy.bytes / 1024).toFixed(1)} KB with ${copy.headers.length} headers of its own (${copy.headers.join(', ')})`)
    }
    for (const control of withSlots([QUOTE_UPSTREAM, SNAPSHOT_UPSTREAM, ORDERBOOK_UPSTREAM])) {
      const requests = await recordUpstreamRequests(mf, control.upstreamOf.path, control.slot, WARM_KEY)
      if (!requests.length) throw new Error(`a warm call of ${control.upstreamOf.path} made no upstream request to record`)
      control.path = `/__bench/upstream-copy?slot=${control.slot}`
      console.log(`a warm call of ${control.upstreamOf.path} makes ${requests.length} upstream request(s): ${requests.join(' ')}`)
    }
    // The admitted controls use their bare control's slot: its copy, and its recording where it has one.
    for (const control of chosen(ADMITTED)) control.path = `/__bench/admitted-copy?slot=${control.admittedOf.slot}`
    if (chosen([CHIP, KLINE_FULL, KLINE_FULL_CSV, HISTORY_RAW]).length && !(await (await mf.getR2Bucket('STORE')).head('history/sh600519.json'))) {
      // The store's history of sh600519, built as the jobs build it.
      await (await mf.dispatchFetch(`${BASE}/__bench/day-tables?date=${TABLE_DATE}&codes=sh600519`, { method: 'POST' })).text()
      if (!(await (await mf.getR2Bucket('STORE')).head('history/sh600519.json'))) throw new Error('the bench seeding built no history of sh600519')
    }
    if (chosen([KLINE_FULL, HISTORY_RAW]).length) {
      const stored = (await (await mf.getR2Bucket('STORE')).head('history/sh600519.json')).size
      const answer = (await (await mf.dispatchFetch(BASE + KLINE_FULL.path, { headers: { authorization: `Bearer ${WARM_KEY}` } })).arrayBuffer()).byteLength
      const csv = (await (await mf.dispatchFetch(BASE + KLINE_FULL_CSV.path, { headers: { authorization: `Bearer ${WARM_KEY}` } })).arrayBuffer()).byteLength
      console.log(`sh600519's history: the R2 object ${(stored / 1024).toFixed(0)} KB, /v1/kline-full's answer ${(answer / 1024).toFixed(0)} KB (as CSV ${(csv / 1024).toFixed(0)} KB)`)
    }
    const solving = performance.now()
    await solvePool(mf)
    console.log(`solved ${POOL_SIZE} proof-of-work challenges for the anonymous pool in ${((performance.now() - solving) / 1000).toFixed(1)} s`)
    // Warm-up, untimed: every route once through the loop and a second of end-to-end traffic.
    for (const target of [BASELINE, ...chosen(IN_WORKER)].filter((t) => t.path)) await (await mf.dispatchFetch(...loopRequest(target))).text()
    await endToEnd(mf, BASELINE)
    await setMinute(mf, minute + 1) // the warm-up's calls stay in the minute before
    if (chosen(UPSTREAM_COST).length) {
      console.log(`upstream requests per ${COST_CALLS} keyed calls, ${CONCURRENCY} in flight, counted at the emulator (a cold start; then one freshness window of the shared answers and one cadence of the live lines)`)
      for (const t of chosen(UPSTREAM_COST)) await upstreamCost(mf, t)
      // Each count moves the clock two minutes: the pool's proofs (ten minutes) are solved again
      // rather than let the first anonymous row meet 429s.
      await solvePool(mf)
    }

    console.log(`${SECONDS}s per measurement, ${ROUNDS} rounds; upstreams answered by the in-process emulator`)
    if (chosen(IN_WORKER).length) {
      const rows = await compareInRounds(BASELINE, chosen(IN_WORKER), (t) => inWorker(mf, t))
      printTable(`in-worker (batches of ${BATCH} through the worker's fetch handler)`, rows)
      await isolateRestart()
      printChipRatio(rows, 'in-worker')
      printCostRatios(rows, [QUOTE_KEYED_IN, [[TECHNICAL_IN, null], [BATCH_1000_IN, 24], [LIVE_1000_IN, 24], [LIVE_COLD_1000_IN, 24]]])
      printAnchors(rows, [
        [KLINE_FULL, HISTORY_RAW, 'its R2 object streamed bare', 0.6],
        [TECHNICAL_IN, QUOTE_KEYED_IN, '/v1/quote sh600519 (keyed the same way)'],
        [QUOTE_KEYED_IN, QUOTE_ANONYMOUS, 'the anonymous cached quote'],
      ])
    }
    if (chosen(END_TO_END).length) {
      for (const [via, title] of [['dispatch', 'via Miniflare dispatchFetch'], ['http', 'over keep-alive HTTP connections to workerd']]) {
        const rows = await compareInRounds(BASELINE, chosen(END_TO_END), (t) => endToEnd(mf, t, via))
        printTable(`end-to-end (${CONCURRENCY} concurrent requests from Node ${title})`, rows)
        await isolateRestart()
        printCostRatios(rows)
        printChipRatio(rows, `end-to-end ${via}`)
        printAnchors(rows, [
          [KLINE_FULL, HISTORY_RAW, 'its R2 object streamed bare', 0.6],
          [TECHNICAL, QUOTE_KEYED, '/v1/quote sh600519 (one key per client, as the technical row)'],
          [QUOTE_KEYED, QUOTE_ANONYMOUS, 'the anonymous cached quote'],
          [QUOTE_KEYED, QUOTE_UPSTREAM, 'a bare route making its upstream requests and answering a copy of its answer (what admission, parsing and the envelope add)'],
          [SNAPSHOT_KEYED, SNAPSHOT_UPSTREAM, 'a bare route making its upstream requests and answering a copy of its answer'],
          [ORDERBOOK_KEYED, ORDERBOOK_UPSTREAM, 'a bare route making its upstream requests and answering a copy of its answer'],
          [HOT_KEYED, HOT_BYTES, 'a bare route answering a copy of its answer and headers (admission and the envelope beside carrying them)'],
          [CHANGEDIST_KEYED, CHANGEDIST_BYTES, 'a bare route answering a copy of its answer and headers'],
          ...[QUOTE_ADMITTED, SNAPSHOT_ADMITTED, ORDERBOOK_ADMITTED].map((a) => [a.admittedOf.upstreamOf, a, 'the same control behind keyed admission (what validation, parsing and the envelope add)']),
          ...[HOT_ADMITTED, CHANGEDIST_ADMITTED].map((a) => [a.admittedOf.copyOf, a, 'the same control behind keyed admission (what validation and the envelope add)']),
        ])
        if (via === 'http') {
          console.log(`\nthe per-route goals (HTTP view): each live or shared route against its own control behind keyed admission`)
          for (const line of barLines(rows, HTTP_BARS)) console.log(line)
        }
      }
    }
  } finally {
    socket.close()
    await mf.dispose()
  }
}

const routeRows = chosen(IN_WORKER).length + chosen(END_TO_END).length + chosen(UPSTREAM_COST).length > 0
const marketKlineRows = !only || (!VIEW_ONLY && only.test('/v1/market-kline'))
if (routeRows || marketKlineRows) {
  console.log('building the emulator worker bundle…')
  const bundle = buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/build'))
  if (routeRows) await routeBench(bundle)
  if (marketKlineRows) await marketKlineBench({ bundle, seconds: SECONDS, concurrency: CONCURRENCY })
}
if (!only || only.test('many-users')) await manyUsersBench({ bundle: buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/build')) })
// Answers put together from parts against JSON.stringify of the whole (BENCH_ONLY=splice for these alone).
if (!only || only.test('splice')) await spliceBench()
// Push quotes' fan-out: N SSE subscribers, workerd's CPU per cadence (BENCH_ONLY=stream for it alone).
if (!only || only.test('stream')) await streamBench({ bundle: buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/build')) })
// The production bundle's size and start-up time (BENCH_ONLY=startup for these alone).
if (!only || only.test('startup')) await startupBench()

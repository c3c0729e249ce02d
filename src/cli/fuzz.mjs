// npm run fuzz — sends generated requests (every operation of /openapi.json, valid and hostile
// parameters, callers of every kind) to the service and reports the status histogram per route,
// p50/p99, and every 5xx, non-JSON /v1 answer and answer slower than 15 s (fuzz-lib.mjs has the
// generator and the report; this file is the I/O).
//
// By default it builds the emulator worker and runs it in Miniflare as `npm run bench` does
// (harness.mjs), stores keys of every tier in its KEYS namespace, and rotates them so that the
// per-minute limits (unlimited: 600 a key) do not turn the routes into 429s. `--url` targets a
// running service on this machine instead (loopback addresses only).
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Log, LogLevel } from 'miniflare'
import { buildWorker, ROOT, startWorker, storeKeys } from './harness.mjs'
import { buildRecord, hashKey, kvKeyOf } from './key-lib.mjs'
import {
  HELP, KNOWN_STOCKS, UsageError, createGenerator, createReport, curlOf, exitCodeOf, formatReport, loopbackOrigin, parseFuzzArgs,
  recordResult, summarize, targetOf,
} from './fuzz-lib.mjs'

let opts
try {
  opts = parseFuzzArgs(process.argv.slice(2))
} catch (e) {
  if (!(e instanceof UsageError)) throw e
  console.error(`${e.message}\n\n${HELP}`)
  process.exit(2)
}
if (opts.help) {
  console.log(HELP)
  process.exit(0)
}

const log = (...a) => console.error('[fuzz]', ...a)
const TIERS = ['trial', 'standard', 'pro', 'unlimited']
/** Calls a minute of each tier (src/access/tiers.ts); --url reads them from /v1/usage instead. */
const PER_MINUTE = { trial: 30, standard: 120, pro: 300, unlimited: 600 }
/** How much of a key's minute the rotation uses: what is left absorbs calls that land across a minute's edge. */
const BUDGET_SHARE = 0.92

// ------------------------------------------------------------------------------------------------
// HTTP: a connection per request, any method, a deadline per request.

let origin
let agent

/**
 * One request on a connection of its own; resolves to `{ status, contentType, body, ms }`, or
 * `{ error, ms }` when no answer came. Not kept alive, on purpose: workerd closes a kept-alive
 * connection, without a `Connection: close`, after answering a request whose body it did not read
 * (a 405 to a POST with a body), and under load several kept-alive connections were reset at once,
 * seconds after a request had gone out on each. Both reach the client as ECONNRESET or "socket hang
 * up" on a reused socket (47 in 600 requests): the client's race, which would be mistaken for the
 * service failing, or would have to be retried blindly.
 * With a fresh connection per request every missing answer is the service's (a loopback connect
 * costs a fraction of a millisecond).
 */
function send(method, target, headers, body) {
  const url = new URL(target, origin)
  const t0 = performance.now()
  return new Promise((resolve) => {
    let done = false
    const finish = (r) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({ ...r, ms: performance.now() - t0 })
    }
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, agent, headers: body === null ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => finish({ status: res.statusCode, contentType: res.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', (e) => finish({ error: `response: ${e.message}` }))
    })
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${opts.timeoutSeconds} s` })
      req.destroy()
    }, opts.timeoutSeconds * 1000)
    req.on('error', (e) => finish({ error: `${e.code ?? ''} ${e.message}`.trim() }))
    req.end(body ?? undefined)
  })
}

async function getJson(path, headers = {}) {
  const r = await send('GET', path, headers, null)
  if (r.error) throw new Error(`GET ${path}: ${r.error}`)
  let value
  try {
    value = JSON.parse(r.body)
  } catch {
    value = undefined
  }
  return { status: r.status, value }
}

const putClock = async (ms) => {
  const r = await send('PUT', '/__emulator/clock', { 'content-type': 'application/json' }, JSON.stringify({ now: new Date(ms).toISOString() }))
  if (r.error || r.status !== 200) throw new Error(`PUT /__emulator/clock → ${r.error ?? `${r.status} ${r.body.slice(0, 200)}`}`)
}

// ------------------------------------------------------------------------------------------------
// The target.

/** Keys by tier; the dedicated ip-whitelist key; a revoked key and a spent pack (in-process only). */
const keys = { trial: [], standard: [], pro: [], unlimited: [] }
const limitOf = new Map()
let whitelistKey = null
let revokedKey = 'mk_fuzz_revoked_placeholder'
let packKey = 'mk_fuzz_pack_placeholder'
let mf = null

async function inProcess() {
  log('building the emulator worker bundle…')
  const bundle = buildWorker('src/emulator/worker.ts', join(ROOT, '.bench/fuzz-build'), { minify: !process.env.FUZZ_INSPECTOR })
  // FUZZ_LOG=1 prints Miniflare's log of every request the worker served.
  mf = startWorker(bundle, {
    ...(process.env.FUZZ_LOG === '1' ? { log: new Log(LogLevel.INFO) } : {}),
    // FUZZ_INSPECTOR=PORT opens V8's inspector on the worker (a profiler attaches while the run goes on).
    ...(process.env.FUZZ_INSPECTOR ? { inspectorPort: Number(process.env.FUZZ_INSPECTOR) } : {}),
  })
  origin = loopbackOrigin(String(await mf.ready).replace(/\/$/, ''))
  agent = new HttpAgent({ keepAlive: false })
  // 40 unlimited keys (600 calls a minute each: 24,000 a minute in all), some of each lower tier so
  // tier refusals are exercised (enough that 7% of 115 calls a second stay within trial's 30 a
  // minute), one unlimited key kept for POST/DELETE /v1/ip-whitelist.
  const counts = { unlimited: 40, pro: 8, standard: 8, trial: 24 }
  for (const tier of TIERS) {
    keys[tier] = Array.from({ length: counts[tier] }, (_, i) => `mk_fuzz_${tier}_${i}`)
    await storeKeys(mf, keys[tier], tier, 'fuzz')
    for (const k of keys[tier]) limitOf.set(k, PER_MINUTE[tier])
  }
  whitelistKey = 'mk_fuzz_ipwhitelist'
  await storeKeys(mf, [whitelistKey], 'unlimited', 'fuzz ip-whitelist')
  const kv = await mf.getKVNamespace('KEYS')
  revokedKey = 'mk_fuzz_revoked'
  await kv.put(kvKeyOf(await hashKey(revokedKey)), JSON.stringify({ ...buildRecord({ tier: 'unlimited', label: 'fuzz revoked' }), status: 'revoked' }))
  packKey = 'mk_fuzz_pack'
  await kv.put(kvKeyOf(await hashKey(packKey)), JSON.stringify(buildRecord({ tier: 'pro', label: 'fuzz pack', packUnits: 3 })))
}

async function external() {
  origin = opts.url
  agent = new (origin.startsWith('https:') ? HttpsAgent : HttpAgent)({ keepAlive: false })
  const health = await getJson('/v1/health')
  if (health.status !== 200) throw new Error(`${origin}/v1/health answered ${health.status}: is the service running?`)
  for (const key of opts.keys) {
    const { status, value } = await getJson('/v1/usage', { authorization: `Bearer ${key}` })
    const tier = value?.data?.tier
    if (status !== 200 || !TIERS.includes(tier)) {
      log(`key ${key.slice(0, 8)}… is not usable (GET /v1/usage → ${status} ${value?.code ?? ''}); left out`)
      continue
    }
    keys[tier].push(key)
    limitOf.set(key, Number(value.data.minute?.limit) || PER_MINUTE[tier])
  }
  if (!TIERS.some((t) => keys[t].length)) throw new Error('none of --keys is usable')
  if (opts.whitelistKey) {
    const { status, value } = await getJson('/v1/usage', { authorization: `Bearer ${opts.whitelistKey}` })
    if (status !== 200 || value?.data?.tier !== 'unlimited') throw new Error(`--whitelist-key must be an unlimited key (GET /v1/usage → ${status} ${value?.data?.tier ?? value?.code ?? ''})`)
    whitelistKey = opts.whitelistKey
  } else {
    log('no --whitelist-key: POST and DELETE /v1/ip-whitelist go without a valid unlimited key (refusals only)')
  }
  log(`keys: ${TIERS.map((t) => `${keys[t].length} ${t}`).join(', ')}`)
}

// ------------------------------------------------------------------------------------------------
// The clock: real time by default; with --clock the emulator's clock starts there and is moved on
// with real time (a fixed emulator clock stands still, and so would every minute window).

let clockOffset = 0
let clockTicker = null
let clockWasFixed = null

async function setUpClock() {
  const state = await getJson('/__emulator')
  const emulated = state.status === 200 && state.value?.clock
  if (opts.clock) {
    if (!emulated) throw new Error('--clock needs the emulator (/__emulator did not answer)')
    clockWasFixed = state.value.clock.fixed ? Date.parse(state.value.clock.now) : null
    const start = Date.parse(opts.clock)
    const t0 = Date.now()
    clockOffset = start - t0
    await putClock(start)
    clockTicker = setInterval(() => putClock(Date.now() + clockOffset).catch((e) => log(`moving the clock: ${e.message}`)), 1000)
    log(`emulator clock starts at ${opts.clock} and runs with real time`)
  } else if (emulated) {
    clockOffset = Date.parse(state.value.clock.now) - Date.now()
    if (state.value.clock.fixed) log(`warning: the emulator's clock is fixed at ${state.value.clock.now}: minute windows never pass (pass --clock to make it run)`)
  }
}
const serverNow = () => Date.now() + clockOffset
/** YYYY-MM-DD in Beijing of the service clock. */
const beijingDate = (ms) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10)

// ------------------------------------------------------------------------------------------------
// In-process: a small history store, so the store-backed routes answer with data rather than
// NO_DATA: the known A-share stocks' histories and the last session's technicals and factor tables
// (/__bench/day-tables, as the jobs build them), that day's market-kline blob, the industry-chain
// members. And the whole-market answers computed once, as a service that has been up a while has
// them (the first whole-market walk of the emulator takes seconds).

async function lastSession(key) {
  const today = beijingDate(serverNow())
  const start = beijingDate(serverNow() - 20 * 86_400_000)
  const { value } = await getJson(`/v1/trade-calendar?start=${start}&end=${today}&trading_only=true`, { authorization: `Bearer ${key}` })
  const days = (value?.structured ?? value?.data?.structured ?? []).map((r) => r.date).filter((d) => d < today)
  return days.at(-1) ?? null
}

async function buildStore() {
  const t0 = performance.now()
  const setupKey = keys.unlimited[0]
  const date = await lastSession(setupKey)
  if (!date) {
    log('store: no trading day found in the last 20 days; skipped')
    return
  }
  const tables = await send('POST', `/__bench/day-tables?date=${date}&codes=${KNOWN_STOCKS.join(',')}`, {}, '')
  if (tables.status !== 200) log(`store: day tables → ${tables.status} ${tables.body?.slice(0, 200)}`)
  const blob = await send('GET', `/__bench/market-kline-blob?date=${date}`, {}, null)
  if (blob.status === 200) {
    const bucket = await mf.getR2Bucket('STORE')
    const rows = JSON.parse(blob.body).length
    await bucket.put(`market-kline/${date}.json`, blob.body, { httpMetadata: { contentType: 'application/json; charset=utf-8' }, customMetadata: { rows: String(rows), date } })
  }
  for (let i = 0; i < 30; i++) {
    const r = await send('POST', '/__jobs/industry-chain', { 'content-type': 'application/json' }, JSON.stringify({ budget: 2000 }))
    let v
    try {
      v = JSON.parse(r.body)
    } catch {
      v = null
    }
    if (r.status !== 200 || !v || v.complete || (v.boards_fetched === 0 && v.compositions_fetched === 0)) break
  }
  log(`store: ${KNOWN_STOCKS.length} stocks' histories, the ${date} tables and market-kline blob, the industry-chain members (${((performance.now() - t0) / 1000).toFixed(1)} s)`)
}

async function warmShared() {
  const t0 = performance.now()
  for (const path of ['/v1/changedist', '/v1/hot', '/v1/market-overview', '/v1/screen?preset=LowPE', '/v1/screen?preset=HKLowPE&market=hk', '/v1/screen?preset=USLargeCap&market=us']) {
    await send('GET', path, { authorization: `Bearer ${keys.unlimited[0] ?? whitelistKey}` }, null)
  }
  log(`warmed the whole-market answers in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

// ------------------------------------------------------------------------------------------------
// Anonymous callers: a pool of addresses with a solved proof-of-work (60 calls a minute each),
// fresh addresses (2 a minute, new each time), one fixed address (refused most of the time).

const POOL_SIZE = 16
let anonPool = []
let poolSolvedAt = -Infinity
let poolSolving = null
let freshIp = 0

/** Finds a proof in slices, yielding between them so requests in flight keep being timed fairly. */
async function solvePow(challenge, difficulty) {
  const zeros = (h) => {
    let n = 0
    for (const b of h) {
      if (b) return n + Math.clz32(b) - 24
      n += 8
    }
    return n
  }
  for (let nonce = 0; ; nonce++) {
    const proof = `${challenge}.${nonce}`
    if (zeros(createHash('sha256').update(proof).digest()) >= difficulty) return proof
    if (nonce % 4096 === 4095) await new Promise((r) => setImmediate(r))
  }
}

async function solvePool() {
  const pool = []
  for (let i = 0; i < POOL_SIZE; i++) {
    const ip = `10.99.0.${i + 1}`
    const { status, value } = await getJson('/v1/challenge', { 'cf-connecting-ip': ip })
    if (status !== 200 || !value?.data?.challenge) return void log(`no proof-of-work challenge (GET /v1/challenge → ${status}); anonymous callers go without`)
    pool.push({ ip, pow: await solvePow(value.data.challenge, value.data.difficulty) })
  }
  anonPool = pool
  poolSolvedAt = serverNow()
}

/** Proofs last 10 minutes of the service clock: solved again after 8, in the background. */
function refreshPool() {
  if (serverNow() - poolSolvedAt < 8 * 60_000 || poolSolving) return
  poolSolving = solvePool().catch((e) => log(`solving proofs: ${e.message}`)).finally(() => (poolSolving = null))
}

// ------------------------------------------------------------------------------------------------
// Callers: a generated request says what caller to be; this picks the key, within its budget.

/** Per key: [minute, calls sent in it]. */
const spent = new Map()
let overBudget = 0
const turn = { trial: 0, standard: 0, pro: 0, unlimited: 0 }

/** The tier asked for, else the nearest one there are keys of (higher first). */
function poolOf(tier) {
  if (keys[tier].length) return keys[tier]
  const i = TIERS.indexOf(tier)
  for (let d = 1; d < TIERS.length; d++) {
    for (const j of [i + d, i - d]) if (TIERS[j] && keys[TIERS[j]].length) return keys[TIERS[j]]
  }
  return []
}

function takeKey(tier, counted) {
  const pool = poolOf(tier)
  const minute = Math.floor(serverNow() / 60_000)
  const used = (k) => {
    const s = spent.get(k)
    return s && s[0] === minute ? s[1] : 0
  }
  let key = null
  for (let i = 0; i < pool.length; i++) {
    const k = pool[(turn[tier] + i) % pool.length]
    if (!counted || used(k) < Math.floor(limitOf.get(k) * BUDGET_SHARE) - 2) {
      key = k
      turn[tier] = (turn[tier] + i + 1) % pool.length
      break
    }
  }
  if (!key) {
    overBudget++
    key = pool[turn[tier]++ % pool.length]
  }
  if (counted) spent.set(key, [minute, used(key) + 1])
  return key
}

const tierLabel = (tier) => `<${tier} key>`

/** The headers and query additions a request's caller needs, and the same with keys as placeholders. */
function callerOf(req, op) {
  const a = req.auth
  const real = { headers: {}, query: '' }
  const shown = { headers: {}, query: '' }
  const put = (via, key, label) => {
    if (via === 'bearer') (real.headers.authorization = `Bearer ${key}`), (shown.headers.authorization = `Bearer ${label}`)
    else if (via === 'x-api-key') (real.headers['x-api-key'] = key), (shown.headers['x-api-key'] = label)
    else (real.query = `key=${encodeURIComponent(key)}`), (shown.query = `key=${label}`)
  }
  const browser = () => {
    for (const h of [real.headers, shown.headers]) Object.assign(h, { 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'cross-site', origin: 'https://example.com' })
  }
  switch (a.kind) {
    case 'key': {
      // POST and DELETE /v1/ip-whitelist replace or clear an allow-list: only the dedicated key does them.
      const listWrite = req.path === '/v1/ip-whitelist' && req.method !== 'GET' && a.tier === 'unlimited'
      const counted = (op?.cost ?? 0) > 0
      const key = listWrite ? whitelistKey : takeKey(a.tier, counted)
      if (!key) break
      const label = listWrite ? '<ip-whitelist key>' : tierLabel(keys[a.tier].length ? a.tier : TIERS.find((t) => keys[t].includes(key)))
      if (a.via === 'bearer+x-api-key') {
        put('bearer', key, label)
        put('x-api-key', key, label)
      } else put(a.via, key, label)
      if (a.browser) browser()
      break
    }
    case 'anon': {
      let ip
      if (a.ip === 'pool' && anonPool.length) {
        const p = anonPool[freshIp % anonPool.length]
        ip = p.ip
        if (a.pow === 'solved') (real.headers['x-pow'] = p.pow), (shown.headers['x-pow'] = '<solved proof of that IP>')
      } else if (a.ip === 'fixed') ip = '10.250.0.1'
      else ip = `10.${100 + ((freshIp >> 16) & 127)}.${(freshIp >> 8) & 255}.${freshIp & 255}`
      freshIp++
      real.headers['cf-connecting-ip'] = shown.headers['cf-connecting-ip'] = ip
      if (a.pow === 'garbage') real.headers['x-pow'] = shown.headers['x-pow'] = 'p1~1~16~garbage~salt~mac.12345'
      if (a.browser) browser()
      break
    }
    case 'bad': {
      for (const [k, v] of Object.entries(a.headers)) {
        real.headers[k] = v.replace('<REVOKED>', revokedKey).replace('<PACK>', packKey)
        shown.headers[k] = v.length > 120 ? `${v.slice(0, 60)}…(${v.length} characters)` : v.replace('<REVOKED>', '<revoked key>').replace('<PACK>', '<spent pack key>')
      }
      if (a.queryKey !== null) real.query = shown.query = `key=${encodeURIComponent(a.queryKey)}`
      break
    }
    case 'conflict': {
      const pool = poolOf('unlimited')
      const k1 = takeKey('unlimited', false)
      const k2 = pool.length > 1 ? pool[(pool.indexOf(k1) + 1) % pool.length] : `${k1}x`
      put(a.ways[0], k1, '<a key>')
      put(a.ways[1], k2, '<another key>')
      break
    }
  }
  return { real, shown }
}

// ------------------------------------------------------------------------------------------------
// The run.

const report = createReport()
let stopRequested = false
const started = Date.now()
let finishedAt = null

async function main() {
  if (opts.url) await external()
  else await inProcess()
  log(`target ${origin}`)
  await setUpClock()
  const docRes = await send('GET', '/openapi.json', {}, null)
  if (docRes.status !== 200) throw new Error(`/openapi.json answered ${docRes.status}`)
  const doc = JSON.parse(docRes.body)
  if (!opts.url && opts.store) await buildStore()
  await warmShared()
  await solvePool()
  const today = beijingDate(serverNow())
  const gen = createGenerator(doc, { seed: opts.seed, today })
  const opOf = new Map(gen.operations.map((o) => [`${o.method} ${o.path}`, o]))
  log(`${gen.operations.length} operations in /openapi.json; ${gen.vocabulary.factors.length} screen factors, ${gen.vocabulary.presets.length} presets; seed ${opts.seed}; service day ${today}`)
  log(`sending ${opts.requests} requests, ${opts.concurrency} in flight…`)

  const deadline = started + opts.maxMinutes * 60_000
  let sent = 0
  const runStart = Date.now()
  const progress = setInterval(() => {
    const s = (Date.now() - runStart) / 1000
    const c = report.counts
    log(`${report.total}/${opts.requests} in ${s.toFixed(0)} s (${(report.total / s).toFixed(1)}/s); 5xx ${c.crashes + c.deadline}, non-JSON ${c.nonJson}, slow ${c.slow}, no answer ${c.noAnswer}; 429s ${report.statuses['429'] ?? 0}`)
  }, 15_000)
  const worker = async () => {
    while (sent < opts.requests && !stopRequested && Date.now() < deadline) {
      sent++
      refreshPool()
      const req = gen.next()
      const op = opOf.get(`${req.method} ${req.path}`)
      const { real, shown } = callerOf(req, op)
      const headers = { 'accept-encoding': 'identity', ...req.headers, ...real.headers }
      const res = await send(req.method, targetOf(req, real.query), headers, req.body)
      const shownTarget = targetOf(req, shown.query)
      const shownHeaders = { ...req.headers, ...shown.headers }
      recordResult(report, req, { method: req.method, target: shownTarget, curl: curlOf(origin, req.method, shownTarget, shownHeaders, req.body) }, res)
    }
  }
  await Promise.all(Array.from({ length: opts.concurrency }, worker))
  clearInterval(progress)
  finishedAt = Date.now()
  return { runStart, sent }
}

async function cleanUp() {
  if (clockTicker) clearInterval(clockTicker)
  try {
    if (whitelistKey) await send('DELETE', '/v1/ip-whitelist', { authorization: `Bearer ${whitelistKey}` }, null)
    if (opts.url && opts.clock) {
      if (clockWasFixed === null) await send('DELETE', '/__emulator/clock', {}, null)
      else await putClock(clockWasFixed)
    }
  } catch (e) {
    log(`cleaning up: ${e.message}`)
  }
  agent?.destroy()
  if (mf) await mf.dispose()
}

process.on('SIGINT', () => {
  if (stopRequested) process.exit(130)
  stopRequested = true
  log('stopping: the requests in flight finish, then the report (Ctrl-C again to quit at once)')
})

let code = 1
try {
  const { runStart, sent } = await main()
  const elapsed = ((finishedAt ?? Date.now()) - runStart) / 1000
  const summary = summarize(report, {
    target: opts.url ? origin : 'in-process emulator worker (Miniflare)',
    seed: opts.seed,
    requested: opts.requests,
    concurrency: opts.concurrency,
    clock: opts.clock ?? 'real time',
    stopped_early: sent < opts.requests ? (stopRequested ? 'interrupted' : `time limit of ${opts.maxMinutes} minutes`) : null,
    elapsed_s: elapsed,
    slow_ms: report.slowMs,
    keys_over_budget: overBudget,
  })
  console.log(formatReport(summary))
  if (summary.stopped_early) console.log(`stopped early (${summary.stopped_early}): ${summary.total} of ${opts.requests} sent`)
  if (overBudget) console.log(`${overBudget} keyed calls found every key of their tier at its minute budget (sent anyway)`)
  if (opts.json) {
    writeFileSync(opts.json, JSON.stringify(summary, null, 2))
    console.log(`report written to ${opts.json}`)
  }
  code = exitCodeOf(summary)
} catch (e) {
  console.error(e)
  code = 1
} finally {
  await cleanUp()
}
await sleep(10)
process.exit(code)

// Builds a worker entry with wrangler (the same bundle `wrangler deploy` would upload) and runs it
// in Miniflare directly, with the bindings wrangler.toml declares. Used by the benchmark and the
// OpenAPI lint: both need the real built worker, without `wrangler dev`'s proxy in the way.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createRequire } from 'node:module'
import { basename, extname, join, resolve } from 'node:path'
import { Miniflare } from 'miniflare'
import { hashKey, kvKeyOf } from './key-lib.mjs'

export const ROOT = resolve(import.meta.dirname, '../..')

/** Environment that keeps wrangler quiet and offline. */
export const QUIET_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
}

/**
 * Bundles `entry` into `outdir` and returns the path of the main module. Minified as wrangler.toml
 * says, unless `minify: false` (the profiler wants the source's function names); `config` names
 * another wrangler config (a Worker without wrangler.toml's bindings).
 */
export function buildWorker(entry, outdir, { minify = true, config } = {}) {
  mkdirSync(outdir, { recursive: true })
  const args = ['deploy', entry, '--dry-run', '--outdir', outdir, ...(minify ? [] : ['--minify=false']), ...(config ? ['--config', config] : [])]
  execFileSync(process.execPath, [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), ...args], {
    cwd: ROOT,
    env: QUIET_ENV,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  // The main module is named after the entry (beside it, its source map).
  const main = `${basename(entry, extname(entry))}.js`
  if (!readdirSync(outdir).includes(main)) throw new Error(`wrangler produced no ${main} in ${outdir}`)
  return join(outdir, main)
}

/** wrangler.toml's [assets] (public/, its _headers, run_worker_first) as wrangler hands them to Miniflare. */
function assetsOptions() {
  const { unstable_getMiniflareWorkerOptions } = createRequire(import.meta.url)('wrangler')
  return unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml')).workerOptions.assets
}

/**
 * A Miniflare instance running the bundle with in-memory KV, R2 and SQLite Durable Objects and
 * wrangler.toml's static assets in front; `extra` adds options (e.g. `inspectorPort`), and
 * `assets: false` leaves the assets out. Miniflare routes every request through a router worker
 * of its own then (about 0.7 ms of workerd CPU a request on a path the Worker takes first, 1.4 ms
 * on one it looks up in the assets first, on a loaded 2-core machine), a local stand-in for
 * Cloudflare's routing that the throughput bench leaves out.
 */
export function startWorker(scriptPath, extra = {}) {
  return new Miniflare(workerOptions(scriptPath, extra))
}

/** {@link startWorker}'s Miniflare options (the bench's startup rows time `new Miniflare` with them alone). */
export function workerOptions(scriptPath, { assets = true, ...extra } = {}) {
  return {
    ...extra,
    modules: true,
    scriptPath,
    compatibilityDate: '2026-05-01',
    ...(assets ? { assets: assetsOptions() } : {}),
    compatibilityFlags: ['nodejs_als'],
    bindings: { UPSTREAM: 'emulator' },
    kvNamespaces: ['KEYS', 'CACHE'],
    r2Buckets: ['STORE'],
    durableObjects: {
      KEY_GUARD: { className: 'KeyGuard', useSQLite: true },
      ANON_GUARD: { className: 'AnonGuard', useSQLite: true },
      HOST_BUDGET: { className: 'HostBudget', useSQLite: true },
      STREAM_SHARD: { className: 'StreamShard', useSQLite: true },
    },
  }
}

/** The workerd process Miniflare started (a child of this Node process). */
export function workerdPid() {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8')
      if (/^Name:\s+workerd$/m.test(status) && new RegExp(`^PPid:\\s+${process.pid}$`, 'm').test(status)) return Number(d)
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}

/**
 * A keep-alive HTTP/1.1 client to the running worker's socket, as curl or any HTTP library is:
 * `get(path, headers)` resolves to `{ status, body }` with the body read in full as text.
 * The end-to-end bench uses it rather than `mf.dispatchFetch`, whose response path costs some
 * 20 ms per MB of body in Node (a 1.1 MB answer: 75 a second on one connection, against 500 for
 * this client and 200 for curl, which fetches it in 5 ms), so large answers measured the harness.
 */
export async function httpClient(mf, sockets) {
  const origin = await mf.ready
  const agent = new Agent({ keepAlive: true, maxSockets: sockets })
  const get = (path, headers = {}) =>
    new Promise((resolve, reject) => {
      const req = request(new URL(path, origin), { agent, headers }, (res) => {
        res.setEncoding('utf8')
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode, body }))
        res.on('error', reject)
      })
      // A kept-alive socket the server closed while it sat idle (between views) fails at once
      // with ECONNRESET, before the request reached the worker: send it again on a fresh socket,
      // as Node's documentation of `request.reusedSocket` advises.
      req.on('error', (e) => (req.reusedSocket && e.code === 'ECONNRESET' ? get(path, headers).then(resolve, reject) : reject(e)))
      req.end()
    })
  return { get, close: () => agent.destroy() }
}

/** The origin the tools' `mf.dispatchFetch` calls name (Miniflare routes them to the worker whatever it is). */
const DISPATCH_ORIGIN = 'http://127.0.0.1:8787'

/** Headers of a keyed answer that the bench's bare routes do not set (their copies of an answer carry them). */
const OWN_HEADER = /^(cache-control|vary|x-content-type-options|x-ratelimit-.*)$/

/**
 * Stores a copy of `path`'s answer, asked with `key`, and the headers the route sets itself in the
 * emulator's bench slot `slot` (POST /__bench/constant-copy): what the bench's bare controls answer.
 * Those every answer has (CORS, request id) the bare routes set too. Resolves to the copy's size and header names.
 */
export async function storeAnswerCopy(mf, path, slot, key) {
  const res = await mf.dispatchFetch(DISPATCH_ORIGIN + path, { headers: { authorization: `Bearer ${key}` } })
  const answer = await res.arrayBuffer()
  const own = Object.fromEntries([...res.headers].filter(([k]) => OWN_HEADER.test(k)))
  await (await mf.dispatchFetch(`${DISPATCH_ORIGIN}/__bench/constant-copy?slot=${slot}`, { method: 'POST', body: answer, headers: { 'x-copy-headers': JSON.stringify(own) } })).text()
  return { bytes: answer.byteLength, headers: Object.keys(own) }
}

/** Records the upstream requests a warm call of `path` makes in bench slot `slot` (POST /__bench/upstream-copy); resolves to their URLs. */
export async function recordUpstreamRequests(mf, path, slot, key) {
  const url = `${DISPATCH_ORIGIN}/__bench/upstream-copy?slot=${slot}&path=${encodeURIComponent(path)}`
  return (await (await mf.dispatchFetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).json()).requests
}

/** Stores API keys of `tier` in the worker's KEYS namespace, as `npm run key` would (`key:<sha256>`). */
export async function storeKeys(mf, keys, tier = 'unlimited', label = 'bench') {
  const kv = await mf.getKVNamespace('KEYS')
  const record = JSON.stringify({ tier, label, created: new Date().toISOString(), status: 'active' })
  for (const key of keys) await kv.put(kvKeyOf(await hashKey(key)), record)
}

/**
 * The routes `npm run bench` and `npm run profile` drive inside the emulator's worker: the bare
 * baselines (a constant, a copy of a large answer, R2 objects streamed as they lie, a live call's
 * upstream requests), the store the analytics rows need, and a loop that serves a path n times
 * through the worker's own fetch handler.
 * Only the emulator's worker mounts them.
 */
import type { Context, Hono } from 'hono'
import type { AppEnv } from '../http/context'
import { admit } from '../access/admit'
import { KEY_LEASES, REPORT_MS } from '../access/key-lease'
import type { AccessPolicy } from '../access/tiers'
import { answerBody } from '../http/answer'
import { LIVE_ITEMS } from '../features/technical/live-items'
import { marketDayRows, marketSource } from '../jobs/testing'
import { buildHistory } from '../jobs/build-history'
import { collectRows, collectStates, stagedDayRows, writeDayTables } from '../jobs/day-tables'
import { profilesOf } from '../store/meta'
import { writeHistory } from '../store/history'
import { historyKey, marketKlineKey } from '../store/keys'
import { clock } from './control'
import { market } from './market'

/** `/__bench/admitted-copy`'s admission: a counted call of cost 1 that any key may make, as /v1/quote's. */
const ADMITTED_COPY: AccessPolicy = { group: 'open', minTier: 'free', cost: 1, counted: true }

/** Adds the `/__bench/*` routes to the emulator's app. */
export function registerBenchRoutes(app: Hono<AppEnv>): void {
  let benchIp = 1
  // Baseline for `npm run bench`: the cheapest possible route in the same worker.
  app.get('/__bench/constant', (c) => c.json({ ok: true }))
  // The stream view's shard-only clients: a WebSocket straight to a StreamShard object (`?name=cn-0&codes=…`),
  // as a relay holds one, with no relay or client connection of the Worker's in between.
  app.get('/__bench/stream-shard', async (c) => {
    const res = await c.env.STREAM_SHARD.getByName(c.req.query('name') ?? '').fetch(c.req.raw)
    return res.webSocket ? new Response(null, { status: 101, webSocket: res.webSocket }) : res
  })
  // The many-users view's symbols: the A-share stocks listed at the emulator's clock, in code order.
  app.get('/__bench/universe', (c) => {
    const today = new Date(clock.now() + 8 * 3_600_000).toISOString().slice(0, 10)
    return c.json(market.instruments().filter((i) => i.kind === 'stock' && ['sh', 'sz', 'bj'].includes(i.prefix) && i.listDate < today).map((i) => i.code))
  })
  // A copy of a large answer (the bench POSTs it once), served as a constant: what carrying those
  // very bytes costs each view (compressing them too, where the client asks for gzip) with no route
  // work beside it. Padding would not do: a run of one letter compresses far faster than JSON.
  // `slot` names the copy (default `batch`): the technical batch's answer, /v1/hot's, /v1/changedist's.
  // The answer's own headers may come along (`x-copy-headers`, a JSON object: rate limits, caching,
  // Vary), so that the copy is the route's whole answer less its work: every header is written to
  // the socket, and a keyed answer has nine or ten against the baseline's four.
  const copies = new Map<string, { bytes: Uint8Array<ArrayBuffer>; headers: Record<string, string>; admittedHeaders: Record<string, string> }>()
  app.post('/__bench/constant-copy', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    const headers = JSON.parse(c.req.header('x-copy-headers') ?? '{}') as Record<string, string>
    const all = { 'content-type': 'application/json; charset=UTF-8', ...headers }
    const admittedHeaders = Object.fromEntries(Object.entries(all).filter(([name]) => !/^x-ratelimit-/i.test(name)))
    copies.set(c.req.query('slot') ?? 'batch', { bytes, headers: all, admittedHeaders })
    return c.json({ bytes: bytes.length, headers: Object.keys(headers).length })
  })
  app.get('/__bench/constant-copy', (c) => {
    const copy = copies.get(c.req.query('slot') ?? 'batch')
    return c.body(copy?.bytes ?? new Uint8Array(), 200, copy?.headers ?? {})
  })
  // The live routes' anchor (/v1/quote, /v1/snapshot, /v1/orderbook): the upstream requests one
  // warm call of a route makes, recorded from a call through the app (POST, with the caller's key),
  // then sent again by a bare route that only reads their bodies (GET): the emulator's work and the
  // channel's fetch, with no admission, parsing or envelope, and nothing shared between calls.
  // `slot` names the recording. The recorder swaps the services' upstream fetch for the length of
  // one call, so it is only for the bench's set-up, which sends its calls one at a time.
  const upstreamCalls = new Map<string, Array<{ url: string; headers: [string, string][] }>>()
  app.post('/__bench/upstream-copy', async (c) => {
    const context = c.get('services').channelContext
    const call = async () => {
      const request = new Request(new URL(c.req.query('path') ?? '/', c.req.url), { headers: { authorization: c.req.header('authorization') ?? '' } })
      return (await app.fetch(request, c.env, c.executionCtx)).text()
    }
    await call() // the first call fetches what later calls reuse (a quote's past bars)
    const seen: Array<{ url: string; headers: [string, string][] }> = []
    const upstream = context.fetch
    context.fetch = (input, init) => {
      const request = new Request(input, init)
      seen.push({ url: request.url, headers: [...request.headers] })
      return upstream(input, init)
    }
    // The control makes the requests of a call whose live line is not shared (the first of each 3 s
    // cadence, src/channels/live-lines.ts): the measured calls within a cadence make none.
    context.lines?.clear()
    try {
      await call()
    } finally {
      context.fetch = upstream
    }
    upstreamCalls.set(c.req.query('slot') ?? '', seen)
    return c.json({ requests: seen.map((r) => r.url) })
  })
  // With a copy of the route's answer under the same slot (POST /__bench/constant-copy), the bare
  // route answers it: what the route must fetch and send, less what it does in between.
  // The recorded requests go out together, as the routes send theirs (snapshot's two at once).
  const replayUpstream = async (c: Context<AppEnv>, slot: string) => {
    const { fetch } = c.get('services').channelContext
    const sizes = await Promise.all((upstreamCalls.get(slot) ?? []).map(async (r) => (await (await fetch(r.url, { headers: r.headers })).arrayBuffer()).byteLength))
    return sizes.reduce((a, b) => a + b, 0)
  }
  app.get('/__bench/upstream-copy', async (c) => {
    const slot = c.req.query('slot') ?? ''
    const bytes = await replayUpstream(c, slot)
    const copy = copies.get(slot)
    return copy ? c.body(copy.bytes, 200, copy.headers) : c.json({ ok: true, bytes })
  })
  // The same, behind the keyed admission every counted route has (identification, the key's leased
  // slice, rate headers, usage): about the most a keyed route can reach, however cheap its own
  // validation, parsing and envelope (this route validates no query). A route that only wraps a
  // shared answer measures at it within the noise.
  app.get('/__bench/admitted-copy', admit(ADMITTED_COPY), async (c) => {
    const slot = c.req.query('slot') ?? ''
    await replayUpstream(c, slot)
    const copy = copies.get(slot)
    // Counted as the route's call is; an empty slot is refunded, as an ok:false answer would be.
    if (!copy) return c.json({ ok: false, error: `no copy in slot ${slot}` }, 404)
    // Admission has set the rate headers; the copy's own would only be written over them.
    return answerBody(c, copy.bytes, { ok: true, rows: 1 }, copy.admittedHeaders)
  })
  // `npm run bench`, /v1/market-kline: the day blob it stores (every emulator stock's bar of `date`),
  // and the baseline that streams the same R2 object with no envelope, checks or admission.
  app.get('/__bench/market-kline-blob', (c) => {
    const rows = marketDayRows(market, c.req.query('date') ?? '', clock.now())
    return c.body(JSON.stringify(rows), 200, { 'content-type': 'application/json', 'x-rows': String(rows.length) })
  })
  // `npm run bench`, analytics rows: the first `n` stocks' histories and the day's technicals and
  // factor tables, built as the jobs build them (histories from the model through the jobs' source);
  // `codes=a,b` builds those stocks instead of the first `n`.
  app.post('/__bench/day-tables', async (c) => {
    const date = c.req.query('date') ?? ''
    const n = Math.min(Number(c.req.query('n')) || 1000, 6000)
    const asked = c.req.query('codes')?.split(',')
    const codes = market.instruments().filter((i) => i.kind === 'stock' && i.listDate <= date && (!asked || asked.includes(i.code))).slice(0, n).map((i) => i.code)
    const source = marketSource(market, codes, () => clock.now())
    const lines: string[] = []
    for (const code of codes) {
      const h = await buildHistory(source, code, date)
      if (!h) continue
      await writeHistory(c.env.STORE, h)
      for (const l of stagedDayRows(h, date, date)) lines.push(l.slice(11))
    }
    const names = Object.fromEntries(codes.map((code) => [code, market.byCode(code)!.name]))
    const fundamentals = { source, profiles: profilesOf(await source.snapshot()) }
    const written = await writeDayTables(c.env.STORE, date, collectRows(lines).values(), names, clock.now(), fundamentals, collectStates(lines))
    c.get('services').store.forgetLatestTechnicals()
    return c.json(written)
  })
  // The many-users view's store: the histories of `codes` (a JSON array) through `date`, built as the
  // jobs build them and nothing else (no day tables), so that quotes and K-lines find past bars there.
  app.post('/__bench/histories', async (c) => {
    const date = c.req.query('date') ?? ''
    const codes = (await c.req.json().catch(() => [])) as string[]
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !Array.isArray(codes)) return c.json({ error: 'date=YYYY-MM-DD and a JSON array of codes', code: 'BAD_REQUEST' }, 422)
    const source = marketSource(market, codes, () => clock.now())
    let written = 0
    for (const code of codes) {
      const h = await buildHistory(source, code, date)
      if (!h) continue
      await writeHistory(c.env.STORE, h)
      written++
    }
    return c.json({ written })
  })
  app.get('/__bench/market-kline-raw', (c) => streamObject(c.env.STORE, marketKlineKey(c.req.query('date') ?? '')))
  // The physical limit under /v1/kline-full: the stock's stored history object, streamed as it lies.
  app.get('/__bench/history-raw', (c) => streamObject(c.env.STORE, historyKey(c.req.query('code') ?? '')))
  // `npm run bench`'s cold rows: live technical rows shared between calls or not (src/features/technical/live-items.ts).
  app.put('/__bench/live-sharing', async (c) => {
    const on = ((await c.req.json().catch(() => ({}))) as { on?: unknown }).on
    if (typeof on !== 'boolean') return c.json({ error: 'on must be true or false', code: 'BAD_REQUEST' }, 422)
    const live = c.get('services').caches.of(LIVE_ITEMS)
    live.share(on)
    live.clear()
    return c.json({ on })
  })
  // `npm run bench` and `npm run profile`: usage from leased slices sent as production sends it
  // (batched, at most REPORT_MS after a call) rather than after every call, as the emulator's worker
  // does for tests (src/emulator/worker.ts), which would add a KeyGuard request to every keyed call.
  app.put('/__bench/usage-reports', (c) => {
    c.get('services').caches.of(KEY_LEASES).reportAfter(REPORT_MS)
    return c.json({ report_ms: REPORT_MS })
  })
  // `npm run bench` times this from outside: the worker serves `path` n times through its own
  // fetch handler, so per-request transport to workerd is paid once per batch, not per request.
  app.get('/__bench/loop', async (c) => {
    const path = c.req.query('path') ?? '/__bench/constant'
    const n = Math.min(Math.max(Number(c.req.query('n')) || 100, 1), 10_000)
    // The caller's key is forwarded; rotate_ip=1 gives every inner request its own client address
    // (many different anonymous users, each admitted by its own AnonGuard).
    const authorization = c.req.header('authorization')
    const rotateIp = c.req.query('rotate_ip') === '1'
    // x-bench-pool: [[ip, X-PoW], …] — repeat anonymous callers that solved a proof-of-work, in turn.
    const pool = JSON.parse(c.req.header('x-bench-pool') ?? '[]') as Array<[string, string]>
    let failed = 0
    let firstFailure: string | undefined
    for (let i = 0; i < n; i++) {
      const headers = new Headers()
      if (authorization) headers.set('authorization', authorization)
      if (rotateIp) headers.set('cf-connecting-ip', `10.${(benchIp >> 16) & 255}.${(benchIp >> 8) & 255}.${benchIp++ & 255}`)
      if (pool.length) {
        const [ip, pow] = pool[benchIp++ % pool.length]
        headers.set('cf-connecting-ip', ip)
        headers.set('x-pow', pow)
      }
      const res = await app.fetch(new Request(new URL(path, c.req.url), { headers }), c.env, c.executionCtx)
      const body = await res.text()
      if (res.status !== 200 || body.startsWith('{"ok":false')) {
        failed++
        firstFailure ??= `${res.status} ${body.slice(0, 300)}`
      }
    }
    return c.json({ n, failed, firstFailure })
  })
}

/** An R2 object's body as the answer, with no envelope, checks or admission (the bench's anchors). */
async function streamObject(bucket: R2Bucket, key: string): Promise<Response> {
  const obj = await bucket.get(key)
  if (!obj) return new Response('{"ok":false}', { status: 404, headers: { 'content-type': 'application/json' } })
  return new Response(obj.body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
}

// `npm run bench`, part two: /v1/market-kline on a full-size day against a bare route that streams
// the same R2 object (/__bench/market-kline-raw), and the worker's peak memory with the normal
// blob and with one several times larger. The day blob is built from the emulator market and
// written into Miniflare's R2 directly; the calls carry an unlimited key written into KEYS.
//
// Admission is real: to stay inside the key's per-minute and daily heavy quotas, the emulator
// clock moves one day forward before each batch (for both routes alike, outside the timing).
import { readFileSync, writeFileSync } from 'node:fs'
import { startWorker, workerdPid } from './harness.mjs'
import { buildRecord, generateKey, hashKey, kvKeyOf } from './key-lib.mjs'
import { compareInRounds, median, printTable } from './bench-rounds.mjs'

const BASE = 'http://127.0.0.1:8787'
/** A trading day before the bench clock's first day. */
const DATE = '2026-11-19'
const CLOCK0 = Date.parse('2026-11-20T10:30:00+08:00')
const DAY_MS = 86_400_000
const BATCH = 40
/** The larger blob for the memory check: this many copies of the day's rows. */
const LARGE_COPIES = 8
const MEMORY_REQUESTS = 240

const setClock = (mf, ms) =>
  mf.dispatchFetch(`${BASE}/__emulator/clock`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: new Date(ms).toISOString() }) }).then((r) => r.text())

/** Writes the day's blob (optionally `copies` times the rows) into R2; returns its size and rows. */
async function seed(mf, copies = 1) {
  const res = await mf.dispatchFetch(`${BASE}/__bench/market-kline-blob?date=${DATE}`)
  let text = await res.text()
  let rows = Number(res.headers.get('x-rows'))
  if (copies > 1) {
    const inner = text.slice(1, -1)
    text = '[' + Array(copies).fill(inner).join(',') + ']'
    rows *= copies
  }
  const bucket = await mf.getR2Bucket('STORE')
  await bucket.put(`market-kline/${DATE}.json`, text, { httpMetadata: { contentType: 'application/json; charset=utf-8' }, customMetadata: { rows: String(rows), date: DATE } })
  return { bytes: Buffer.byteLength(text), rows }
}

/** An unlimited-tier key stored in the worker's KEYS namespace. */
async function benchKey(mf) {
  const key = generateKey()
  const kv = await mf.getKVNamespace('KEYS')
  await kv.put(kvKeyOf(await hashKey(key)), JSON.stringify(buildRecord({ tier: 'unlimited', label: 'bench' })))
  return key
}

/** Batches through /__bench/loop for `seconds`, a new emulator day per batch, timing the batches only. */
async function inWorker(mf, path, seconds, day) {
  let busy = 0
  let n = 0
  let failed = 0
  while (busy < seconds * 1000) {
    await setClock(mf, CLOCK0 + day.next++ * DAY_MS)
    const t0 = performance.now()
    const r = await (await mf.dispatchFetch(`${BASE}/__bench/loop?n=${BATCH}&path=${encodeURIComponent(path)}`)).json()
    busy += performance.now() - t0
    n += r.n
    failed += r.failed
  }
  return { rps: n / (busy / 1000), n, failed, busy }
}

/** `concurrency` clients from Node for `total` requests, bodies read in full; a new day every BATCH. */
async function endToEnd(mf, path, total, concurrency, day) {
  let sent = 0
  let failed = 0
  let busy = 0
  while (sent < total) {
    await setClock(mf, CLOCK0 + day.next++ * DAY_MS)
    const t0 = performance.now()
    const batch = Math.min(BATCH, total - sent)
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < batch) {
          next++
          const res = await mf.dispatchFetch(BASE + path)
          const body = await res.arrayBuffer()
          if (res.status !== 200 || new TextDecoder().decode(body.slice(0, 12)).startsWith('{"ok":false')) failed++
        }
      })
    )
    busy += performance.now() - t0
    sent += batch
  }
  return { rps: sent / (busy / 1000), n: sent, failed, busy }
}

const kb = (pid, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)

/** Peak RSS of the worker while serving `requests` market-kline calls of a blob `copies` times the day. */
async function peakMemory(bundle, copies, concurrency) {
  const mf = startWorker(bundle, { assets: false })
  try {
    await mf.ready
    const pid = workerdPid()
    await setClock(mf, CLOCK0)
    const key = await benchKey(mf)
    const blob = await seed(mf, copies)
    const path = `/v1/market-kline?date=${DATE}&key=${key}`
    const day = { next: 1 }
    await endToEnd(mf, path, BATCH, concurrency, day)
    if (!pid) return { ...blob, note: 'workerd process not found' }
    // Forget the peak of start-up and seeding (Linux: writing 5 to clear_refs resets VmHWM).
    let reset = true
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
    } catch {
      reset = false
    }
    const before = kb(pid, 'VmRSS')
    const r = await endToEnd(mf, path, MEMORY_REQUESTS, concurrency, day)
    return { ...blob, before, peak: kb(pid, 'VmHWM'), reset, failed: r.failed, n: r.n }
  } finally {
    await mf.dispose()
  }
}

/** Runs the market-kline part of the bench and prints its tables. */
export async function marketKlineBench({ bundle, seconds, concurrency }) {
  const mf = startWorker(bundle, { assets: false })
  let blob
  try {
    await setClock(mf, CLOCK0)
    const key = await benchKey(mf)
    blob = await seed(mf)
    const baseline = { name: 'bare R2 stream (baseline)', path: `/__bench/market-kline-raw?date=${DATE}` }
    const target = { name: '/v1/market-kline full day', path: `/v1/market-kline?date=${DATE}&key=${key}` }
    const day = { next: 1 }
    for (const t of [baseline, target]) await endToEnd(mf, t.path, BATCH, 4, day)
    console.log(`\n/v1/market-kline of ${DATE}: ${blob.rows} rows, blob ${(blob.bytes / 1024).toFixed(0)} KB per day (${blob.bytes} bytes)`)
    const a = await compareInRounds(baseline, [target], (t) => inWorker(mf, t.path, seconds, day))
    printTable(`in-worker (batches of ${BATCH} through the worker's fetch handler; the body read as text in the worker)`, a)
    console.log(`in-worker: /v1/market-kline at ${median(a[1].ratios).toFixed(2)} × its R2 object streamed bare`)
    const perRun = Math.max(BATCH, Math.round((median(a[0].runs.map((r) => r.rps)) * seconds) / 8 / BATCH) * BATCH)
    const e = await compareInRounds(baseline, [target], (t) => endToEnd(mf, t.path, perRun, concurrency, day))
    printTable(`end-to-end (${concurrency} concurrent requests from Node, bodies read in full)`, e)
    // The goal, end to end (what a caller sees): at least 0.9 × the bare stream of the same object.
    console.log(`end-to-end: /v1/market-kline at ${median(e[1].ratios).toFixed(2)} × its R2 object streamed bare (goal at least 0.9)`)
  } finally {
    await mf.dispose()
  }

  console.log(`\npeak memory of the workerd process serving ${MEMORY_REQUESTS} market-kline calls (${concurrency} concurrent), fresh worker each:`)
  console.log('blob'.padEnd(28) + 'rows'.padStart(9) + 'RSS before'.padStart(13) + 'peak RSS'.padStart(12) + 'growth'.padStart(10) + 'failed'.padStart(8))
  for (const copies of [1, LARGE_COPIES]) {
    const m = await peakMemory(bundle, copies, concurrency)
    const name = copies === 1 ? `normal (${(m.bytes / 1e6).toFixed(2)} MB)` : `${copies}x (${(m.bytes / 1e6).toFixed(2)} MB)`
    if (m.note) {
      console.log(`${name.padEnd(28)}${m.note}`)
      continue
    }
    const mb = (k) => `${(k / 1024).toFixed(1)} MB`
    console.log(name.padEnd(28) + String(m.rows).padStart(9) + mb(m.before).padStart(13) + mb(m.peak).padStart(12) + mb(m.peak - m.before).padStart(10) + String(m.failed).padStart(8) + (m.reset ? '' : '  (VmHWM not reset: includes start-up)'))
  }
}

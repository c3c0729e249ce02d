// The many-users view of `npm run bench` (BENCH_ONLY=many-users for it alone): simulated keyed
// users, each calling quote, snapshot, order book, kline and hot on A-share symbols drawn from a Zipf
// distribution, at 100, 1,000 and 10,000 users over the same span of emulator time. It prints per
// host the upstream requests per minute, the codes per quote request (median), the age of answers
// (`as_of` against the emulator's clock: p50 and p99) and workerd's CPU per call. The figures it
// must meet are in docs/performance.md ("Polite at scale").
import { readFileSync } from 'node:fs'
import { httpClient, startWorker, storeKeys, workerdPid } from './harness.mjs'

const BASE = 'http://127.0.0.1:8787'
/** Session start of the simulated span: a Friday 10:30 in Beijing. */
const START = Date.parse('2026-11-20T10:30:00+08:00')
/** Emulator seconds simulated at every size. */
const SPAN_S = Number(process.env.BENCH_SPAN_S || 30)
/** Each user calls once every this many seconds. */
const PERIOD_S = 15
/** Emulator seconds before the measured span, every user calling as in it: the isolate's steady state, not its cold start. */
const WARM_S = PERIOD_S
const SIZES = (process.env.BENCH_USERS || '100,1000,10000').split(',').map(Number)
/**
 * The store holds every stock's history through the session before the clock's (Thursday
 * 2026-11-19), as production's after-close job leaves it, so that quotes and K-lines take their past
 * bars there (src/services/stored-bars.ts). `BENCH_STORE=0` runs with an empty store: every past
 * bar then comes from the hosts, as before the store served them.
 */
const HISTORY_THROUGH = '2026-11-19'
const WITH_STORE = process.env.BENCH_STORE !== '0'
const KEYS = Array.from({ length: 500 }, (_, i) => `mk_many_${i}`)
const IN_FLIGHT = 16
/** What a user calls, in shares of its calls. */
const MIX = [
  ['quote', 0.4, (c) => `/v1/quote?code=${c}&count=5`],
  ['snapshot', 0.15, (c) => `/v1/snapshot?code=${c}`],
  ['orderbook', 0.15, (c) => `/v1/orderbook?code=${c}`],
  ['kline', 0.15, (c) => `/v1/kline?code=${c}&period=day&count=30`],
  ['hot', 0.15, () => '/v1/hot'],
]

/** The routes that answer from the live lines. */
const LIVE = ['quote', 'snapshot', 'orderbook']

/** A small deterministic generator (mulberry32), so every run draws the same calls. */
export function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A sampler of ranks 0…n−1 with Zipf weights 1/(k+1). */
export function zipf(n, rand) {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1)
  return () => {
    const x = rand() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cdf[mid] < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

export const quantile = (xs, q) => {
  if (!xs.length) return null
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

/** workerd's CPU time so far, ms (user + system, from /proc). */
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100
}

/** The upstream family of a host (the emulator's channels). */
const familyOf = (host) => (/eastmoney/.test(host) ? 'eastmoney' : /gtimg|qq\.com/.test(host) ? 'tencent' : /sina/.test(host) ? 'sina' : /10jqka|ths/.test(host) ? 'ths' : /hkex/.test(host) ? 'hkex' : host)

/** An answer's `as_of` as epoch ms when it is an instant (ISO 8601 with its offset); null for a date. */
export const instantMs = (asOf) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(asOf) ? Date.parse(asOf) : null)

async function control(mf, method, path, body) {
  const res = await mf.dispatchFetch(BASE + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
  return res.json()
}

/** One size: `users` users over SPAN_S seconds from `start`, a tick a second; resolves to its row. */
async function simulate(mf, client, pid, universe, users, start) {
  await control(mf, 'POST', '/__emulator/reset')
  await control(mf, 'DELETE', '/__emulator/router')
  const rand = random(users)
  const rank = zipf(universe.length, rand)
  // Rank order is a fixed shuffle of the codes, so the popular symbols are spread over the markets.
  const order = [...universe].sort((a, b) => ((Math.imul(parseInt(a.slice(2), 10), 2654435761) >>> 0) - (Math.imul(parseInt(b.slice(2), 10), 2654435761) >>> 0)))
  const ages = Object.fromEntries(MIX.map(([name]) => [name, []]))
  let calls = 0
  let failed = 0
  let stale = 0
  /** Live answers older than the 3 s cadence that do not say they are stale: the bar is none. */
  let oldUnmarked = 0
  let cpu = 0
  let before = {}
  for (let t = -WARM_S; t < SPAN_S; t++) {
    if (t === 0) {
      before = (await control(mf, 'GET', '/__emulator')).paths
      calls = failed = stale = oldUnmarked = cpu = 0
      for (const list of Object.values(ages)) list.length = 0
    }
    const now = start + t * 1000
    await control(mf, 'PUT', '/__emulator/clock', { now: new Date(now).toISOString() })
    // User u calls at seconds u·PERIOD/users + k·PERIOD: spread evenly over each period.
    const due = []
    const tick = t + WARM_S
    for (let u = 0; u < users; u++) {
      const first = Math.floor((u * PERIOD_S) / users)
      if (tick >= first && (tick - first) % PERIOD_S === 0) due.push(u)
    }
    const calls_ = due.map(() => {
      let x = rand()
      const [name, , make] = MIX.find(([, share]) => (x -= share) < 0) ?? MIX[0]
      return [name, make(order[rank()])]
    })
    const paths = calls_.map(([, p]) => p)
    let next = 0
    const c0 = cpuMs(pid)
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < paths.length) {
        const k = next++
        const { status, body } = await client.get(paths[k], { authorization: `Bearer ${KEYS[(due[k] + k) % KEYS.length]}` })
        calls++
        if (status !== 200 || body.startsWith('{"ok":false')) {
          failed++
          continue
        }
        const asOf = /"as_of":"([^"]+)"/.exec(body)?.[1]
        const marked = body.includes('"stale":true')
        if (marked) stale++
        const at = asOf ? instantMs(asOf) : null
        if (at !== null) {
          const age = Math.max(0, now - at)
          ages[calls_[k][0]].push(age)
          if (age > 3_000 && !marked && LIVE.includes(calls_[k][0])) oldUnmarked++
        }
      }
    }))
    cpu += cpuMs(pid) - c0
    if (process.env.BENCH_VERBOSE) console.log(`  t=${t}s: ${paths.length} calls, ${calls} so far, ${failed} failed`)
  }
  const state = await control(mf, 'GET', '/__emulator')
  // What the budget objects granted in the span's minute, as /v1/status reads them (free, not counted):
  // the ceiling is theirs; the hosts' counts above may also hold requests a background refresh asked
  // for in the minute before and sent after the clock moved on.
  const status = await client.get('/v1/status', { authorization: `Bearer ${KEYS[0]}` })
  const granted = Object.fromEntries((JSON.parse(status.body).hosts ?? []).filter((h) => h.budget_used_this_minute !== null).map((h) => [h.channel, h.budget_used_this_minute]))
  const minutes = SPAN_S / 60
  const hosts = Object.entries(state.paths).reduce((m, [path, n]) => {
    const host = path.split('/')[0]
    m[host] = (m[host] ?? 0) + n - (before[path] ?? 0)
    return m
  }, {})
  const upstream = Object.values(hosts).reduce((a, b) => a + b, 0)
  return { users, calls, failed, stale, oldUnmarked, granted, upstream, hosts, minutes, quoteCodes: state.quote_codes, ages, cpuPerCall: cpu / calls }
}

/** The many-users view: one table row per size, then the per-host requests per minute. */
export async function manyUsersBench({ bundle }) {
  const mf = startWorker(bundle, { assets: false })
  const client = await httpClient(mf, IN_FLIGHT)
  try {
    await control(mf, 'PUT', '/__emulator/clock', { now: new Date(START).toISOString() })
    await (await mf.dispatchFetch(`${BASE}/__bench/usage-reports`, { method: 'PUT' })).text()
    await storeKeys(mf, KEYS)
    const universe = await control(mf, 'GET', '/__bench/universe')
    const pid = workerdPid()
    if (WITH_STORE) {
      const seeding = performance.now()
      const chunks = []
      for (let i = 0; i < universe.length; i += 100) chunks.push(universe.slice(i, i + 100))
      let written = 0
      const next = async () => {
        for (let chunk; (chunk = chunks.shift()); ) {
          const done = (await control(mf, 'POST', `/__bench/histories?date=${HISTORY_THROUGH}`, chunk)).written
          written += done
        }
      }
      await Promise.all([next(), next()])
      console.log(`stored ${written} stocks' histories through ${HISTORY_THROUGH} in ${((performance.now() - seeding) / 1000).toFixed(0)} s`)
    }
    console.log(`\nmany users: ${SPAN_S} s of a session (emulator clock, a tick a second), each user calling every ${PERIOD_S} s: ` +
      `${MIX.map(([n, s]) => `${n} ${s * 100}%`).join(', ')}; symbols Zipf over ${universe.length} A-share stocks; ${IN_FLIGHT} calls in flight`)
    // Production's upstream budgets, counted by the budget objects; each size in a minute of its own (ten apart), so no size spends another's.
    const budgets = (await control(mf, 'PUT', '/__emulator/budgets?defaults=1')).budgets
    const rows = []
    for (const [k, users] of SIZES.entries()) rows.push(await simulate(mf, client, pid, universe, users, START + k * 600_000))
    const live = LIVE
    console.log(`users | calls | failed | stale | live answers over 3 s old not marked stale | upstream req | per 1,000 calls | codes per quote request (median) | as_of age of ${live.join(', ')} p50 / p99 (s) | hot p99 (s) | workerd CPU per call (ms)`)
    for (const r of rows) {
      const perQuote = r.quoteCodes.median_codes
      const liveAges = live.flatMap((n) => r.ages[n])
      const s = (ms) => (ms === null ? '—' : (ms / 1000).toFixed(1))
      console.log(`${r.users} | ${r.calls} | ${r.failed} | ${r.stale} | ${r.oldUnmarked} | ${r.upstream} | ${((r.upstream / r.calls) * 1000).toFixed(1)} | ${perQuote ?? '—'} | ${s(quantile(liveAges, 0.5))} / ${s(quantile(liveAges, 0.99))} | ${s(quantile(r.ages.hot, 0.99))} | ${r.cpuPerCall.toFixed(2)}`)
    }
    console.log('upstream requests per minute, per host:')
    for (const r of rows) console.log(`  ${r.users} users: ${Object.entries(r.hosts).sort((a, b) => b[1] - a[1]).map(([h, n]) => `${h} ${(n / r.minutes).toFixed(0)}`).join(', ')}`)
    console.log('codes per multi-code quote request, per host (median, of requests in the run):')
    for (const r of rows) console.log(`  ${r.users} users: ${Object.entries(r.quoteCodes.hosts ?? {}).map(([h, q]) => `${h} ${q.median_codes ?? '—'} (${q.requests} requests)`).join(', ')}`)
    console.log(`requests per family in the measured span (one clock minute) against its budget per minute (${Object.entries(budgets).map(([f, n]) => `${f} ${n}`).join(', ')}):`)
    for (const r of rows) {
      const fam = {}
      for (const [host, n] of Object.entries(r.hosts)) fam[familyOf(host)] = (fam[familyOf(host)] ?? 0) + n
      console.log(`  ${r.users} users: ${Object.entries(fam).map(([f, n]) => `${f} ${n}${n > budgets[f] ? ' OVER' : ''}`).join(', ')}; ` +
        `granted by the budget objects in that minute: ${Object.entries(r.granted).map(([f, n]) => `${f} ${n}${n > budgets[f] ? ' OVER' : ''}`).join(', ') || 'none'}`)
    }
  } finally {
    client.close()
    await mf.dispose()
  }
}

import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { generateKey, hashKey, kvKeyOf } from '../src/access/keys'
import { previousTradingDay } from '../src/domain/trading-calendar'
import { market } from '../src/emulator/market'
import { buildHistory } from '../src/jobs/build-history'
import { collectRows, collectStates, stagedDayRows, writeDayTables } from '../src/jobs/day-tables'
import { marketSource } from '../src/jobs/testing'
import { writeHistory } from '../src/store/history'
import { profilesOf } from '../src/store/meta'
import { SAMPLE } from './fault-matrix'
import { services, storeJson } from './store-app'

/**
 * The clock sweep (docs/performance.md): at each instant of a grid (a trading day from the night to the
 * night after, a Saturday, a holiday; HK and US in and out of their sessions fall on the same
 * grid), every GET route of /openapi.json is asked once, and the answers must agree with each
 * other and with the one rule of docs/api-guide.md "Every hour": live in a session, the latest session's
 * final state (dated) outside one; never a price of 0; `halted` only for a suspension.
 *
 * A route registered tomorrow joins the sweep the day it exists: the list comes from
 * /openapi.json, with the parameters of the fault matrix's SAMPLE (which must name every route).
 */

/** Beijing instants; `session` is the latest A-share session whose state the views must show. */
export interface Instant {
  name: string
  clock: string
  session: string
  /** The A-share market is in continuous trading: views are live. */
  live: boolean
}

// 2026-11-20 is a Friday and a trading day; 2026-11-21 a Saturday; 2026-10-05 in the National Day
// holiday (the last session before it is 2026-09-30). HK trades 09:30–12:00 and 13:00–16:00 Beijing
// time, New York 22:30–05:00 Beijing in November: 10:30 has HK in and US out, 12:00 HK at lunch,
// 23:00 HK closed and US in.
// In clock order, so that what the service keeps for a while (shared answers, reference data) is
// only ever reused forward in time, as in production.
export const INSTANTS: Instant[] = [
  { name: 'holiday 10:30', clock: '2026-10-05T10:30:00+08:00', session: '2026-09-30', live: false },
  { name: 'trading day 02:00', clock: '2026-11-20T02:00:00+08:00', session: '2026-11-19', live: false },
  { name: 'trading day 09:05', clock: '2026-11-20T09:05:00+08:00', session: '2026-11-19', live: false },
  { name: 'trading day 09:20 (auction)', clock: '2026-11-20T09:20:00+08:00', session: '2026-11-19', live: false },
  { name: 'trading day 10:30', clock: '2026-11-20T10:30:00+08:00', session: '2026-11-20', live: true },
  { name: 'trading day 12:00 (lunch)', clock: '2026-11-20T12:00:00+08:00', session: '2026-11-20', live: false },
  { name: 'trading day 14:59', clock: '2026-11-20T14:59:00+08:00', session: '2026-11-20', live: true },
  { name: 'trading day 15:30', clock: '2026-11-20T15:30:00+08:00', session: '2026-11-20', live: false },
  { name: 'trading day 23:00', clock: '2026-11-20T23:00:00+08:00', session: '2026-11-20', live: false },
  { name: 'Saturday 10:30', clock: '2026-11-21T10:30:00+08:00', session: '2026-11-20', live: false },
]

/**
 * Routes that are about the caller or the service, not the market, and the push route (its quotes
 * are /v1/quote's; test/stream.test.ts sweeps it through the session, the close and a closed day).
 */
const BOOKKEEPING = ['/v1/health', '/v1/status', '/v1/usage', '/v1/challenge', '/v1/ip-whitelist', '/v1/stream']

/**
 * Extra asks beside each route's SAMPLE: the market-overview types, the other markets, more
 * stocks. The two whole-market valuation types cost seconds of emulated market each, so they take
 * turns: each is asked at every other instant (`turn` 0 or 1), which still puts both on nights,
 * sessions and closed days.
 */
const EXTRA = (turn: number): Record<string, string[]> => ({
  '/v1/market-overview': ['type=trade', 'type=interval', 'type=technical', 'type=rotation', 'type=updown', turn ? 'type=margin' : 'type=valuation'],
  '/v1/snapshot': ['code=sz000001', 'code=sh601318'],
  '/v1/technical': ['code=hk00700', 'code=usAAPL'],
  '/v1/quote': ['code=usAAPL'],
})

/**
 * Our own parameters where SAMPLE's would make the sweep slow without asking more of the hour:
 * fund's whole-market rank is a walk of the money-flow list (seconds of emulated market at each
 * instant); the stock's own flow, dated to the session, is what the sweep checks.
 */
const OWN: Record<string, string> = { '/v1/fund': 'code=sh600519&rank=false', '/v1/screen': `expr=${encodeURIComponent('top(TotalMV, 5)')}` }

/** The stocks whose histories and day tables the sweep's store holds (the technical-batch SAMPLE's). */
const STORE_CODES = ['sh600519', 'sz000001']

/** The session whose tables the after-close job has built by `at` (it runs after 16:30 Beijing). */
export const builtSession = (at: Instant) => (Date.parse(at.clock) >= Date.parse(`${at.session}T16:30:00+08:00`) ? at.session : previousTradingDay(at.session))

/**
 * The store as the after-close jobs leave it by `at`, for {@link STORE_CODES}: their histories
 * through the built session and that session's technicals and factor tables and indicator states
 * (which /v1/technical and the live batch step from), nothing later (a table of a session still
 * to come would leak the future). `built` remembers what is written.
 */
export async function buildStoreFor(at: Instant, built: Set<string>) {
  const day = builtSession(at)
  if (built.has(day)) return
  const now = Date.parse(at.clock)
  const source = marketSource(market, STORE_CODES, () => now)
  const rows = new Map<string, Array<string | number | null>>()
  const states = new Map<string, string>()
  for (const code of STORE_CODES) {
    const h = (await buildHistory(source, code, day))!
    await writeHistory(env.STORE, h)
    const lines = stagedDayRows(h, day, day).map((l) => l.slice(l.indexOf('\t') + 1))
    collectRows(lines, rows)
    collectStates(lines, states)
  }
  const names = Object.fromEntries(STORE_CODES.map((c) => [c, market.byCode(c)!.name]))
  await writeDayTables(env.STORE, day, rows.values(), names, now, { source, profiles: profilesOf(await source.snapshot()) }, states)
  services.store.forgetLatestTechnicals() // as the jobs do after writing a table
  built.add(day)
}

/** Every documented GET under /v1 with its asks at the instant of `turn` (SAMPLE's first, then EXTRA's). */
export async function sweepUrls(turn = 0): Promise<string[]> {
  const doc = (await storeJson('/openapi.json')).body as { paths: Record<string, { get?: unknown }> }
  const routes = Object.entries(doc.paths)
    .filter(([path, item]) => path.startsWith('/v1/') && item.get && !BOOKKEEPING.includes(path))
    .map(([path]) => path)
  return routes.flatMap((r) => [`${r}?${OWN[r] ?? SAMPLE[r] ?? ''}`, ...(EXTRA(turn % 2)[r] ?? []).map((q) => `${r}?${q}`)])
}

export async function sweepKey(): Promise<string> {
  const key = generateKey()
  await env.KEYS.put(kvKeyOf(await hashKey(key)), JSON.stringify({ tier: 'unlimited', label: 'clock-sweep', created: new Date().toISOString(), status: 'active' }))
  return key
}

// Price-named fields (`limit_up`/`limit_down` are counts in the breadth views: the snapshot's are checked by name).
const PRICE_KEY = /^(last|open|high|low|close|pre_?close|prev_close|closePrice|ClosePrice|avg_price|price|[ab][1-5]_p)$|_price$/i

const isZero = (x: unknown) => x === 0 || (typeof x === 'string' && x.trim() !== '' && Number(x) === 0)

/**
 * Where a price-named field of `body` is 0, as a number or as a numeric string (quote bars are
 * strings); book levels `[price, lots]` under bids/asks included.
 */
export function zeroPrices(body: unknown, path = ''): string[] {
  const out: string[] = []
  const walk = (v: unknown, at: string, key: string) => {
    if (Array.isArray(v)) {
      if ((key === 'bids' || key === 'asks') && v.every(Array.isArray)) {
        v.forEach((level, k) => isZero(level[0]) && out.push(`${at}[${k}][0]`))
        return
      }
      v.forEach((x, k) => walk(x, `${at}[${k}]`, key))
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (isZero(x) && PRICE_KEY.test(k)) out.push(`${at}.${k}`)
        else walk(x, `${at}.${k}`, k)
      }
    }
  }
  walk(body, path, '')
  return out
}

/** One answer: HTTP status and body. */
export type Answer = { status: number; body: any; ms: number }

/**
 * Asks every url once at the current emulator clock. A whole-market walk that gives up on its time
 * budget (src/channels/page-walk.ts: the emulated market's pages are slow on a loaded machine, and
 * the walk rightly stops) is asked once more: the sweep is about the hour, not about slowness.
 */
export async function askAll(urls: readonly string[], key: string): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>()
  for (const url of urls) {
    const t = performance.now()
    let { status, body } = await storeJson(url, { key })
    if (body?.code === 'UPSTREAM_UNAVAILABLE' && /walk would not finish|walk did not finish/.test(String(body.error))) ({ status, body } = await storeJson(url, { key }))
    out.set(url, { status, body, ms: performance.now() - t })
  }
  return out
}

/** The date a market-level answer claims (top-level `date`, or `data.date`). */
export function claimedDate(body: any): string | undefined {
  return body?.data?.date ?? body?.date
}

/** One line of the closing table: url, ok or code, the line status (snapshot, orderbook), the date shown (the newest row's), time taken. */
export function describeAnswer(url: string, a: Answer): string {
  const b = a.body
  if (a.status !== 200 || typeof b !== 'object') return `${url} | HTTP ${a.status}`
  const data = b.data
  const rows: any[] = Array.isArray(data) ? data : data && typeof data === 'object' && Object.values(data).every(Array.isArray) ? (Object.values(data)[0] as any[]) : [data]
  const newest = (r: any) => (r && typeof r.data === 'object' && !Array.isArray(r.data) ? r.data : r)
  const dates = rows.map((r) => newest(r)?.date ?? newest(r)?.time).filter((d) => typeof d === 'string').sort()
  const date = dates.at(-1) ?? claimedDate(b) ?? b.as_of ?? ''
  const status = ['trading', 'auction', 'closed', 'halted'].includes(rows[0]?.status) ? rows[0].status : ''
  return `${url} | ${b.ok ? 'ok' : `ok:false ${b.code}`} | ${status} | ${String(date).slice(0, 19)} | ${Math.round(a.ms)} ms`
}

/** Routes whose answer is built from the history store (the after-close jobs, the backfill): without it, ok:false with a reason. */
const STORE_BUILT: Record<string, RegExp> = {
  // The whole market's day blob and the chain members are not built here (see buildStoreFor).
  '/v1/market-kline': /^(NO_DATA|BUILDING)$/,
  '/v1/industry-chain': /^NOT_BUILT$/,
}

/** Overview types dated to the latest session itself (the others are the newest published day: margin, updown, technical). */
const SESSION_DATED_TYPES = ['summary', 'trade', 'interval', 'rotation', 'valuation']

const route = (url: string) => url.slice(0, url.indexOf('?'))
const num = (x: unknown) => Number(x)

/** The newest bar of `code` in a /v1/quote answer (one code: an array; several: a map). */
function latestBar(a: Answer | undefined, code: string): any {
  const d = a?.body?.data
  return Array.isArray(d) ? d[0] : d?.[code]?.[0]
}

/** Everything that disagrees at `at`, one sentence each (empty when the views agree). */
export function disagreements(at: Instant, answers: ReadonlyMap<string, Answer>): string[] {
  const out: string[] = []
  const get = (url: string) => answers.get(url)
  for (const [url, a] of answers) {
    if (a.status !== 200 || typeof a.body?.ok !== 'boolean') {
      out.push(`${url}: HTTP ${a.status}`)
      continue
    }
    if (!a.body.ok) {
      const allowed = STORE_BUILT[url.startsWith('/v1/market-overview') ? url : route(url)]
      if (!allowed?.test(String(a.body.code))) out.push(`${url}: ok:false ${a.body.code} (${String(a.body.error).slice(0, 120)})`)
    }
    for (const where of zeroPrices(a.body)) out.push(`${url}: price 0 at ${where}`)
  }

  // The quote's newest bar is the latest session's (today's only once it has traded).
  const quote = get(`/v1/quote?${SAMPLE['/v1/quote']}`)
  const bar = latestBar(quote, 'sh600519')
  if (!bar) out.push('quote: no bar for sh600519')
  else if (bar.date !== at.session) out.push(`quote: newest bar ${bar.date}, the latest session is ${at.session}`)

  // The snapshot is the quote's latest bar, except in the auction and on a line re-stamped before it (no trade yet: its previous close is that bar's close).
  const snap = get('/v1/snapshot?code=sh600519')?.body?.data
  if (snap && bar) {
    const untraded = snap.status === 'auction' || (snap.status === 'closed' && snap.volume === 0)
    if (untraded) {
      if (snap.pre_close !== num(bar.last)) out.push(`snapshot (${snap.status}): pre_close ${snap.pre_close} is not the last session's close ${bar.last}`)
    } else {
      for (const k of ['last', 'open', 'high', 'low'] as const) if (snap[k] !== num(bar[k])) out.push(`snapshot ${k} ${snap[k]} is not the quote bar's ${bar[k]}`)
      if (Math.round(snap.volume * 100) !== num(bar.volume)) out.push(`snapshot volume ${snap.volume} lots is not the quote bar's ${bar.volume} shares`)
      if (snap.time.slice(0, 10) !== at.session) out.push(`snapshot time ${snap.time}, the latest session is ${at.session}`)
    }
    if (at.live !== (snap.status === 'trading')) out.push(`snapshot status ${snap.status} at ${at.name}`)
  }
  for (const code of ['sh600519', 'sz000001', 'sh601318']) {
    const s = get(`/v1/snapshot?code=${code}`)?.body?.data
    if (s?.status === 'halted' && s.volume > 0) out.push(`snapshot ${code}: halted with volume ${s.volume}`)
    if (s && !(s.limit_up > 0 && s.limit_down > 0)) out.push(`snapshot ${code}: limit prices ${s.limit_up}/${s.limit_down}`)
  }
  const book = get('/v1/orderbook?code=sh600519')?.body
  if (book?.ok && book.data.status === 'halted') out.push('orderbook: sh600519 halted')
  if (book?.ok && book.data.b1_p === null && !book.notice) out.push('orderbook: an empty book without a notice')

  // Technical: the quote's newest bar, for every market.
  for (const [code, q] of [['sh600519', quote], ['hk00700', quote], ['usAAPL', get('/v1/quote?code=usAAPL')]] as const) {
    const t = get(`/v1/technical?code=${code}`)?.body?.data?.[0]
    const b = latestBar(q, code)
    if (!t || !b) out.push(`technical/quote ${code}: missing`)
    else if (t.date !== b.date || t.closePrice !== num(b.last)) out.push(`technical ${code} ${t.date} ${t.closePrice} is not the quote's ${b.date} ${b.last}`)
  }

  // The store's views: technical-batch is the quote's latest bar (the table's row, or today's live
  // row in a session until the day's table is built); screen is the table's session, whose close and
  // change the quote's bars show.
  const batch = get(`/v1/technical-batch?${SAMPLE['/v1/technical-batch']}`)?.body
  const item = batch?.data?.find?.((x: any) => x.code === 'sh600519')
  if (!item?.ok) out.push(`technical-batch: no row for sh600519 (${item?.error ?? batch?.code})`)
  else if (bar && (item.data.date !== bar.date || item.data.closePrice !== num(bar.last))) out.push(`technical-batch sh600519 ${item.data.date} ${item.data.closePrice} is not the quote's ${bar.date} ${bar.last}`)
  const screen = [...answers].find(([u]) => u.startsWith('/v1/screen'))?.[1].body
  const row = screen?.structured?.find?.((r: any) => r.code === 'sh600519')
  const bars: any[] = quote?.body?.data?.sh600519 ?? []
  const k = bars.findIndex((b) => b.date === screen?.date)
  if (!row || k < 0 || k + 1 >= bars.length) out.push(`screen: no sh600519 row, or its date ${screen?.date} is not a quote bar`)
  else {
    const [day, before] = [bars[k], bars[k + 1]]
    const pct = ((num(day.last) - num(before.last)) / num(before.last)) * 100
    if (num(row.ClosePrice) !== num(day.last) || Math.abs(num(row.ChangePCT) - pct) > 0.006) out.push(`screen sh600519 on ${screen.date}: ClosePrice ${row.ClosePrice} ChangePCT ${row.ChangePCT}, the quote's ${day.last} ${pct.toFixed(2)}`)
  }
  if (screen?.date && screen.date !== builtSession(at)) out.push(`screen dated ${screen.date}, the built session is ${builtSession(at)}`)

  // Market-level views: the session's date and non-empty counts.
  const dist = get('/v1/changedist?')?.body?.data
  if (dist) {
    if (dist.date !== at.session) out.push(`changedist dated ${dist.date}, the latest session is ${at.session}`)
    if (!(dist.traded > dist.total / 2)) out.push(`changedist: ${dist.traded} of ${dist.total} traded`)
    if (dist.halted > dist.total / 10) out.push(`changedist: ${dist.halted} of ${dist.total} halted`)
  }
  for (const [url, a] of answers) {
    const type = /^\/v1\/market-overview\?type=(\w+)/.exec(url)?.[1]
    if (!type || !a.body?.ok) continue
    const date = a.body.data?.date
    if (SESSION_DATED_TYPES.includes(type) ? date !== at.session : !(date <= at.session)) out.push(`${url} dated ${date} at ${at.name} (session ${at.session})`)
  }
  const summary = get('/v1/market-overview?type=summary')?.body?.data
  if (summary) {
    if (summary.indexes.some((i: any) => i.change_pct === null || i.amount === null)) out.push('summary: an index without its session\'s change or amount')
    if (!summary.breadth || summary.breadth.date !== at.session || !(summary.breadth.traded > 0)) out.push(`summary breadth ${JSON.stringify(summary.breadth)?.slice(0, 80)}`)
  }
  const trade = get('/v1/market-overview?type=trade')?.body?.data
  if (trade && !trade.boards?.every((b: any) => b.traded > 0)) out.push('trade: a board without a traded stock')

  // Hot: the latest session's change_pct for every row with a price, at every hour (a line re-stamped before the match shows the last session's).
  const hot = get('/v1/hot?')?.body?.data
  if (Array.isArray(hot)) {
    const missing = hot.filter((r: any) => r.last !== null && r.change_pct === null)
    if (missing.length) out.push(`hot: change_pct null for ${missing.map((r: any) => r.code).join(', ')}`)
  }
  return out
}

/**
 * The sweep over `instants` as one describe block: every route once per instant, asked in clock
 * order from one fresh emulator; the answers of each instant must agree (see
 * {@link disagreements}). Prints the table of every route's answer per instant.
 */
export function clockSweep(title: string, instants: readonly Instant[]) {
  describe(title, () => {
    let urls: string[] = []
    let key = ''
    const built = new Set<string>()
    beforeAll(async () => {
      urls = await sweepUrls()
      key = await sweepKey()
      await storeJson('/__emulator/reset', { method: 'POST' })
      await storeJson('/__emulator/router', { method: 'DELETE' })
    })

    it('asks every documented GET route', () => {
      expect(urls.length).toBeGreaterThan(30)
    })

    for (const [turn, at] of instants.entries()) {
      it(`agrees at ${at.name} (${at.clock})`, async () => {
        await storeJson('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: at.clock }) })
        await buildStoreFor(at, built)
        const answers = await askAll(await sweepUrls(turn), key)
        console.log(`clock sweep at ${at.name} (url | ok or code | status | date shown):\n${[...answers].map(([u, a]) => describeAnswer(u, a)).join('\n')}`)
        expect(disagreements(at, answers)).toEqual([])
      }, 120_000)
    }
  })
}

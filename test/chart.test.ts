import { env } from 'cloudflare:test'
import fc from 'fast-check'
import lightweightChartsPackage from 'lightweight-charts/package.json'
import { beforeEach, describe, expect, it } from 'vitest'
import { verifyProof, DEV_POW_SECRET } from '../src/access/pow'
import { ANONYMOUS } from '../src/access/tiers'
import { macd as ourMacd } from '../src/domain/indicators/macd'
import { ma as ourMa } from '../src/domain/indicators/series'
import { loadKline, proofStore, proofWouldHelp, type Caller } from '../public/chart/api.js'
import { chartData, MA_WINDOWS, timeOf } from '../public/chart/bars.js'
import { ma, macd } from '../public/chart/indicators.js'
import { solvePow } from '../public/chart/pow.js'
import { call, getJson, makeKey, resetWorld, SESSION_CLOCK } from './helpers'

/**
 * /chart: the page and its files are Workers static assets (public/chart.html, public/chart/, the
 * lightweight-charts copy under public/chart/assets/), read here through the assets binding as
 * test/docs.test.ts reads /docs; and the page's own modules (indicators, bars, the calls with
 * key or proof-of-work) against our indicator code and the Worker. `npm run test:browser` drives
 * the page itself in Chromium.
 */
const get = (path: string) => env.ASSETS.fetch(`https://example.com${path}`)
const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'`)<>]+/g)].map((m) => m[0])
const LIBRARY = '/chart/assets/lightweight-charts.standalone.production.mjs'
const OUR_FILES = ['/chart/chart.css', '/chart/app.js', '/chart/api.js', '/chart/bars.js', '/chart/indicators.js', '/chart/live.js', '/chart/pow.js', '/chart/pow-worker.js']

describe('/chart offline', () => {
  it('serves the page, its stylesheet and module, each under the strict policy', async () => {
    const page = await (await get('/chart')).text()
    expect([...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1])).toEqual(['/chart/chart.css', '/chart/app.js', '/shared/simulated.js', '/chart/assets/lightweight-charts-LICENSE.txt'])
    expect(page).not.toMatch(/<script>|<style|style="/)
    const policy = (await get('/chart')).headers.get('content-security-policy')
    for (const path of ['/chart', ...OUR_FILES, LIBRARY, '/chart/assets/lightweight-charts-LICENSE.txt']) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-security-policy'), path).toBe(policy)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('content-type'), path).toMatch(/^(text\/html|text\/css|text\/plain|(text|application)\/javascript)/)
    }
    // The simulated-market banner, shared with /docs, under /docs's policy (no more than the page allows).
    const banner = await get('/shared/simulated.js')
    expect(banner.status).toBe(200)
    expect(banner.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self';/)
    expect((await get('/chart/app.js')).headers.get('cache-control')).toBe('no-cache')
    expect((await get(LIBRARY)).headers.get('cache-control')).toBe('public, max-age=86400')
  })

  it('allows nothing but this origin, a Web Worker from it, and no form submission', async () => {
    const directives = ((await get('/chart')).headers.get('content-security-policy') ?? '').split('; ')
    for (const d of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "worker-src 'self'", "form-action 'none'", "frame-ancestors 'none'"]) expect(directives).toContain(d)
    for (const d of directives) expect(d, d).not.toMatch(/https?:|\*|'unsafe-|'strict-dynamic'|data:/)
  })

  it('serves the pinned lightweight-charts and names TradingView with its notice, link and licence', async () => {
    const library = await (await get(LIBRARY)).text()
    expect(library).toContain(`TradingView Lightweight Charts™ v${lightweightChartsPackage.version}`)
    expect(lightweightChartsPackage.license).toBe('Apache-2.0')
    expect(await (await get('/chart/assets/lightweight-charts-LICENSE.txt')).text()).toContain('Apache License')
    const page = await (await get('/chart')).text()
    expect(page).toContain('TradingView Lightweight Charts™, Copyright (c) 2023 TradingView, Inc.')
    expect(page).toContain('<a href="https://www.tradingview.com/"')
    // That link is the only absolute URL of the page, and our scripts name none.
    expect(new Set(absoluteUrls(page))).toEqual(new Set(['https://www.tradingview.com/']))
    for (const path of OUR_FILES) expect(absoluteUrls(await (await get(path)).text()), path).toEqual([])
    // The library's own logo would inject an inline <style> the policy refuses: the page turns it off.
    expect(await (await get('/chart/app.js')).text()).toContain('attributionLogo: false')
  })

  it('leaves a missing file of /chart to the Worker, whose JSON 404 answers', async () => {
    const res = await call('/chart/assets/missing.mjs')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' })
  })
})

/** Closes of a price walk: positive, with two decimals, as /v1/kline sends them. */
const closes = fc.array(fc.integer({ min: 1, max: 500_000 }).map((c) => c / 100), { minLength: 0, maxLength: 400 })

describe('the page\'s indicators are ours', () => {
  it('MA5/10/20 and MACD equal src/domain/indicators to the last bit over any bars', () => {
    fc.assert(
      fc.property(closes, (c) => {
        const x = Float64Array.from(c)
        for (const n of MA_WINDOWS) expect(Array.from(ma(x, n))).toEqual(Array.from(ourMa(x, n)))
        const page = macd(x)
        const ours = ourMacd(x)
        expect([page.dif, page.dea, page.macd].map((s) => Array.from(s))).toEqual([ours.dif, ours.dea, ours.macd].map((s) => Array.from(s)))
      })
    )
  })
})

describe('the page\'s series', () => {
  beforeEach(() => resetWorld())

  it('puts /v1/kline\'s bars oldest first on one axis, with MA gaps until the window is full', async () => {
    const { body } = await getJson('/v1/kline?code=sh600519&count=60')
    const data = chartData(body.data)
    expect(data.candles.map((c) => c.time)).toEqual(body.data.map((b: { date: string }) => b.date).reverse())
    expect(data.candles.at(-1)).toEqual({ time: body.data[0].date, open: Number(body.data[0].open), high: Number(body.data[0].high), low: Number(body.data[0].low), close: Number(body.data[0].last) })
    expect(data.ma[20].slice(0, 19).every((p) => !('value' in p))).toBe(true)
    const last20 = body.data.slice(0, 20).reduce((s: number, b: { last: string }) => s + Number(b.last), 0) / 20
    expect(data.ma[20].at(-1)?.value).toBeCloseTo(last20, 9)
    for (const series of [data.volume, data.ma[5], data.macd.dif, data.macd.dea, data.macd.bar]) expect(series.map((p) => p.time)).toEqual(data.candles.map((c) => c.time))
    expect(data.macd.bar.every((p) => p.color === ((p.value ?? 0) >= 0 ? '#e03b3b' : '#1a9c5b'))).toBe(true)
  })

  it('reads a minute bar\'s exchange time as the axis time, whatever the viewer\'s zone', () => {
    expect(timeOf('2026-11-20')).toBe('2026-11-20')
    expect(timeOf('2026-11-20 14:35')).toBe(Date.UTC(2026, 10, 20, 14, 35) / 1000)
  })
})

describe('the page\'s calls', () => {
  beforeEach(() => resetWorld())

  let ipCounter = 0
  /** A caller as the page builds one, from a fresh address, with a proof store in memory. */
  function pageCaller(key: string | null = null) {
    const ip = `203.0.113.${++ipCounter}`
    const seen: { path: string; headers: Record<string, string> }[] = []
    const memory = new Map<string, string>()
    const proofs = proofStore({ getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) }, () => Date.now())
    let solves = 0
    const caller: Caller = {
      fetch: (path, init) => {
        seen.push({ path, headers: init.headers })
        return call(path, { anonymous: true, headers: { ...init.headers, 'cf-connecting-ip': ip, origin: 'http://127.0.0.1:8787' } })
      },
      key: () => key,
      proof: () => proofs.get(),
      async solve(challenge) {
        solves++
        proofs.set((await solvePow(challenge.challenge, challenge.difficulty)).header, challenge.expires_in)
      },
    }
    return { caller, seen, ip, solves: () => solves }
  }

  it('anonymous: at the browser limit, solves the challenge and retries with X-PoW, which the Worker accepts', async () => {
    const { caller, seen, ip, solves } = pageCaller()
    const codes = ['sh600519', 'sz000001', 'sh601318', 'sz000858', 'sz300750']
    for (const code of codes) expect(await loadKline(code, 'day', caller)).toMatchObject({ ok: true, solved: false })
    expect(seen.every((s) => s.path.endsWith(`count=${ANONYMOUS.barsPerCall}`) && !('X-PoW' in s.headers))).toBe(true)

    const sixth = await loadKline('sh600036', 'day', caller)
    expect(sixth).toMatchObject({ ok: true, solved: true })
    expect(solves()).toBe(1)
    const [refused, retried] = seen.slice(-2)
    expect(refused.headers['X-PoW']).toBeUndefined()
    const proof = retried.headers['X-PoW']
    expect(await verifyProof(DEV_POW_SECRET, proof, ip, Date.parse(SESSION_CLOCK))).toMatchObject({ ok: true, difficulty: 16 })

    // Later calls carry the same proof and need no other solve.
    expect(await loadKline('sh601398', 'week', caller)).toMatchObject({ ok: true, solved: false })
    expect(seen.at(-1)?.headers['X-PoW']).toBe(proof)
  })

  it('solves only when a proof would lift the refusal', () => {
    const challenge = { challenge: 'p1~x', difficulty: 16, raises_allowance: true, raises_to_per_minute: 60, expires_in: 600 }
    expect(proofWouldHelp({ status: 429, body: { limit: 5, challenge } })).toBe(true)
    expect(proofWouldHelp({ status: 429, body: { limit: 60, challenge } })).toBe(false)
    expect(proofWouldHelp({ status: 429, body: { limit: 5 } })).toBe(false)
    expect(proofWouldHelp({ status: 429, body: { limit: 5, challenge: { ...challenge, raises_allowance: false } } })).toBe(false)
    expect(proofWouldHelp({ status: 401, body: { limit: 5, challenge } })).toBe(false)
  })

  it('keyed: sends the key as Authorization: Bearer and never in the path, asks for 1,000 bars, gets minute bars', async () => {
    const key = await makeKey('standard')
    const { caller, seen } = pageCaller(key)
    const r = await loadKline('sh600519', 'm5', caller)
    expect(r.ok).toBe(true)
    expect(seen).toEqual([{ path: '/v1/kline?code=sh600519&period=m5&count=1000', headers: { Accept: 'application/json', Authorization: `Bearer ${key}` } }])
  })

  it('anonymous minute bars: says that they need a key of tier standard, in the API\'s words', async () => {
    const { caller } = pageCaller()
    const r = await loadKline('sh600519', 'm30', caller)
    expect(r).toMatchObject({ ok: false, status: 401 })
    expect(r.ok ? '' : r.message).toMatch(/^m30 bars need an API key of tier standard or above: an API key is required/)
  })

  it('a code the API refuses: the 422\'s message', async () => {
    const r = await loadKline('xx1', 'day', pageCaller().caller)
    expect(r).toMatchObject({ ok: false, status: 422 })
    expect(r.ok ? '' : r.message).toBe("'xx1' has an unknown market prefix 'xx': use sh, sz, bj, hk, us, pt, fu or fx")
  })

  it('keeps a proof only until its challenge expires, on this machine\'s clock', () => {
    let now = 1_000_000
    const memory = new Map<string, string>()
    const store = proofStore({ getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) }, () => now)
    expect(store.get()).toBeNull()
    store.set('p1~abc.7', 600)
    now += 599_000
    expect(store.get()).toBe('p1~abc.7')
    now += 1_000
    expect(store.get()).toBeNull()
    expect(memory.size).toBe(0)
  })
})

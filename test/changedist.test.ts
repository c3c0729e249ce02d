import { beforeEach, describe, expect, it } from 'vitest'
import { hasTraded, limitPrices, market } from '../src/emulator/market/index'
import { ANONYMOUS, call, fault, getJson, resetWorld, SESSION_CLOCK, upstreamRequests } from './helpers'

/** The emulator's own truth about the session at `clock`: what the whole-market list shows, counted without our parser or rules. */
function groundTruth(clock: string) {
  const now = Date.parse(clock)
  const today = new Date(now + 8 * 3600_000).toISOString().slice(0, 10)
  const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate <= today)
  const t = { total: stocks.length, traded: 0, advancers: 0, decliners: 0, unchanged: 0, limit_up: 0, limit_down: 0, atLimitUp: [] as string[], shsz: 0 }
  for (const inst of stocks) {
    const q = market.live(inst, now)
    if (!hasTraded(q)) continue
    t.traded++
    const { close, preClose } = q.bar
    if (close > preClose) t.advancers++
    else if (close < preClose) t.decliners++
    else t.unchanged++
    const [down, up] = limitPrices(preClose, inst.limit!, inst.decimals)
    if (close >= up) {
      t.limit_up++
      t.atLimitUp.push(inst.code)
    } else if (close <= down) t.limit_down++
    if (inst.prefix !== 'bj') t.shsz += q.bar.amount
  }
  return t
}

/**
 * The first walk of the emulator's whole market list (56 pages) also generates that market; on a
 * busy machine it can outlast the walk's budget, and the answer then comes, rightly, from Tencent's
 * list. This test is about Eastmoney's counts: the emulator keeps what it rendered, so forgetting
 * our own caches (`DELETE /__emulator/router`) and asking again walks Eastmoney's list warm.
 */
async function fromEastmoney() {
  for (let i = 0; ; i++) {
    const r = await getJson('/v1/changedist')
    if (r.body.source === 'emulator:eastmoney' || i === 2) return r
    await (await call('/__emulator/router', { method: 'DELETE' })).text()
  }
}

describe('GET /v1/changedist', () => {
  beforeEach(() => resetWorld())

  it('counts the whole market list: the numbers add up and equal the market\'s own', async () => {
    const { status, body } = await fromEastmoney()
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'changedist', source: 'emulator:eastmoney', as_of: '2026-11-20T10:30:00+08:00' })
    const d = body.data
    expect(d.date).toBe('2026-11-20')
    expect(d.advancers + d.decliners + d.unchanged).toBe(d.traded)
    expect(d.traded + d.halted).toBe(d.total)
    expect(d.buckets.reduce((s: number, b: any) => s + b.count, 0)).toBe(d.traded)
    expect(d.buckets.map((b: any) => b.label)).toEqual(['≤-9', '-9~-7', '-7~-5', '-5~-3', '-3~0', '0', '0~3', '3~5', '5~7', '7~9', '≥9'])

    const truth = groundTruth(SESSION_CLOCK)
    expect(d).toMatchObject({
      total: truth.total, traded: truth.traded, advancers: truth.advancers, decliners: truth.decliners,
      unchanged: truth.unchanged, limit_up: truth.limit_up, limit_down: truth.limit_down,
    })
    expect(d.turnover.sh_sz).toBeCloseTo(truth.shsz, -2)
    expect(d.turnover.sh_sz).toBeCloseTo(d.turnover.sh + d.turnover.sz, 1)
  }, 90_000)

  it('counts a stock that sits at its limit-up price in the list', async () => {
    // Find a session where some stock closes at its limit (limit days are rare by design).
    const clocks = ['2026-11-20T14:30:00+08:00', '2026-11-19T14:30:00+08:00', '2026-11-18T14:30:00+08:00', '2026-11-17T14:30:00+08:00']
    let clock = ''
    let truth = groundTruth(clocks[0])
    for (const c of clocks) {
      truth = c === clocks[0] ? truth : groundTruth(c)
      clock = c
      if (truth.limit_up > 0) break
    }
    expect(truth.limit_up).toBeGreaterThan(0)
    await resetWorld(clock)
    const { body } = await getJson('/v1/changedist')
    expect(body.data.limit_up).toBe(truth.limit_up)
    // …and that stock's /v1/quote price is the limit price the count used.
    const code = truth.atLimitUp[0]
    const q = (await getJson(`/v1/quote?code=${code}&count=2`)).body
    const inst = market.byCode(code)!
    const [, up] = limitPrices(Number(q.data[1].last), inst.limit!, 2)
    expect(Number(q.data[0].last)).toBe(up)
    expect(body.data.buckets.find((b: any) => b.label === (inst.limit! >= 0.1 ? '≥9' : '3~5')).count).toBeGreaterThan(0)
  }, 90_000)

  it('is computed once for many callers', async () => {
    await getJson('/v1/changedist')
    const before = await upstreamRequests()
    for (let i = 0; i < 3; i++) expect((await getJson('/v1/changedist')).body.ok).toBe(true)
    expect((await getJson('/v1/changedist', ANONYMOUS)).body).toMatchObject({ ok: true, tier: 'free' })
    expect(await upstreamRequests()).toEqual(before)
  }, 90_000)

  it('serves an answer up to 30 s old at once while one refresh runs, then the refreshed one', async () => {
    const first = (await getJson('/v1/changedist')).body
    const setClock = (now: string) => call('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now }) })
    await setClock('2026-11-20T10:30:20+08:00')
    const stale = (await getJson('/v1/changedist')).body
    expect(stale.data.computed_at).toBe(first.data.computed_at)
    // The refresh runs in the background; the next call past it gets the new count.
    let next = stale
    for (let i = 0; i < 400 && next.data.computed_at === first.data.computed_at; i++) {
      await new Promise((r) => setTimeout(r, 50))
      next = (await getJson('/v1/changedist')).body
    }
    expect(next.data.computed_at).toBe('2026-11-20T10:30:20+08:00')
    // Past the stale limit the answer is computed in the open.
    await setClock('2026-11-20T10:31:00+08:00')
    expect((await getJson('/v1/changedist')).body.data.computed_at).toBe('2026-11-20T10:31:00+08:00')
  })

  it('on a Saturday answers the latest session (Friday), dated, with its counts', async () => {
    await resetWorld('2026-11-21T10:30:00+08:00') // a Saturday
    const { status, body } = await getJson('/v1/changedist')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, data: { date: '2026-11-20' } })
    expect(body.data.traded).toBeGreaterThan(1000)
  })

  it.each(['http', 'garbage', 'empty'] as const)('counts the same from Tencent\'s rank list when Eastmoney answers %s', async (kind) => {
    const first = (await getJson('/v1/changedist')).body.data
    await resetWorld()
    await fault('eastmoney', kind)
    const { body } = await getJson('/v1/changedist')
    expect(body).toMatchObject({ ok: true, source: 'emulator:tencent' })
    const { turnover, ...counts } = body.data
    const { turnover: t0, ...counts0 } = first
    expect(counts).toEqual(counts0)
    // Tencent prints amounts in 10,000 CNY to 2 decimals: at most 50 CNY off per stock.
    expect(Math.abs(turnover.sh_sz - t0.sh_sz)).toBeLessThan(50 * counts.traded)
  }, 90_000)

  it.each(['http', 'timeout'] as const)('answers ok:false UPSTREAM_UNAVAILABLE when both lists answer %s', async (kind) => {
    await fault('eastmoney', kind)
    await fault('tencent', kind)
    // A hung host is given up after the channel timeout: a short one here, so the test does not sit out the default.
    await call('/__emulator/channel-timeout', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 400 }) }).then((r) => r.text())
    try {
      const { status, body } = await getJson('/v1/changedist')
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: null })
      expect(body.error).toMatch(/^whole-market list: eastmoney: .*; tencent: /)
    } finally {
      await call('/__emulator/channel-timeout', { method: 'DELETE' }).then((r) => r.text())
    }
  })

  it('refuses an unknown key with 401', async () => {
    expect((await getJson('/v1/changedist', { headers: { authorization: 'Bearer sk-nope' } })).status).toBe(401)
  })
})

/**
 * Polite at scale (docs/architecture.md): callers of one symbol share one upstream answer within the
 * source's 3 s cadence, and different symbols share batched requests, so the hosts see requests
 * that grow with symbols, not with callers.
 */
import { env, runInDurableObject } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { HostBudget } from '../src/runtime/host-budget-object'
import { buildHistory } from '../src/jobs/build-history'
import { channelSource } from '../src/jobs/eastmoney-source'
import { writeHistory } from '../src/store/history'
import { call, getJson, resetWorld, SESSION_CLOCK } from './helpers'
import { services } from './store-app'

/** A-share stocks listed well before the clock, in code order. */
const stocks = market.instruments().filter((i) => i.kind === 'stock' && ['sh', 'sz'].includes(i.prefix) && i.listDate < '2025-01-01').map((i) => i.code)

async function paths(): Promise<Record<string, number>> {
  return (await getJson('/__emulator')).body.paths
}

async function setClock(now: string) {
  await call('/__emulator/clock', { method: 'PUT', body: JSON.stringify({ now }), headers: { 'content-type': 'application/json' } })
}

describe('polite at scale', () => {
  beforeEach(() => resetWorld())

  it('200 keyed quote calls for 20 symbols at once make one quote request, and all agree', async () => {
    const symbols = stocks.slice(0, 20)
    const bodies = await Promise.all(Array.from({ length: 200 }, (_, k) => getJson(`/v1/quote?code=${symbols[k % 20]}&count=2`).then((r) => r.body)))
    expect(bodies.every((b) => b.ok && b.source === 'emulator:tencent')).toBe(true)
    const quoteRequests = (await paths())['qt.gtimg.cn/q='] ?? 0
    expect(quoteRequests).toBeGreaterThanOrEqual(1)
    expect(quoteRequests).toBeLessThanOrEqual(20)
    // Every caller of a symbol got the same live bar.
    for (let k = 20; k < 200; k++) expect(bodies[k].data[0]).toEqual(bodies[k % 20].data[0])
  })

  it('200 keyed quote calls for 200 symbols at once go out in batched requests', async () => {
    const symbols = stocks.slice(0, 200)
    const bodies = await Promise.all(symbols.map((code) => getJson(`/v1/quote?code=${code}&count=2`).then((r) => r.body)))
    expect(bodies.every((b) => b.ok)).toBe(true)
    const counts = await paths()
    expect(counts['qt.gtimg.cn/q=']).toBeLessThanOrEqual(20)
    // The past bars are one request per symbol (kept by the isolate for a minute).
    expect(counts['proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get']).toBe(200)
  })

  it('quote, order book and snapshot of a symbol share the line within the cadence, and ask again after it', async () => {
    await getJson('/v1/quote?code=sh600519&count=1')
    await getJson('/v1/orderbook?code=sh600519')
    const before = await paths()
    expect(before['qt.gtimg.cn/q=']).toBe(1)
    for (let k = 0; k < 5; k++) await getJson('/v1/quote?code=sh600519&count=1')
    expect((await paths())['qt.gtimg.cn/q=']).toBe(1)
    // 3 s later by the service's clock the line is asked for again: never older than the cadence.
    await setClock(new Date(Date.parse(SESSION_CLOCK) + 3_000).toISOString())
    const { body } = await getJson('/v1/quote?code=sh600519&count=1')
    expect(body.as_of).toBe('2026-11-20T10:30:03+08:00')
    expect((await paths())['qt.gtimg.cn/q=']).toBe(2)
  })

  it('calls of a symbol asking different counts share one load of past bars, and agree', async () => {
    const five = (await getJson('/v1/quote?code=sz000001&count=5')).body
    const twenty = (await getJson('/v1/quote?code=sz000001&count=20')).body
    const kline = (await getJson('/v1/kline?code=sz000001&period=day&count=40')).body
    const sixty = (await getJson('/v1/kline?code=sz000001&period=day&count=100')).body
    const counted = await paths()
    // One load each (30 bars for counts up to 30, 120 up to 120): the quote's channel (Tencent) and the day K-line's (Eastmoney).
    expect([counted['proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get'], counted['push2his.eastmoney.com/api/qt/stock/kline/get']]).toEqual([1, 1])
    expect([five.data.length, twenty.data.length, kline.data.length, sixty.data.length]).toEqual([5, 20, 40, 100])
    expect(twenty.data.slice(0, 5)).toEqual(five.data)
    expect(sixty.data.slice(0, 40)).toEqual(kline.data)
  })

  it("a stock the store holds: quote and day K-line take their past bars from its history, with no bars request, and agree with the channel's", async () => {
    const code = 'sz000001'
    const viaChannel = [(await getJson(`/v1/quote?code=${code}&count=20`)).body, (await getJson(`/v1/kline?code=${code}&period=day&count=40`)).body]
    expect(viaChannel.map((b) => b.history)).toEqual(['channel', 'channel'])
    // The history as the jobs build it, through the session before the clock's (Friday 2026-11-20).
    await writeHistory(env.STORE, (await buildHistory(channelSource(services), code, '2026-11-19'))!)
    await resetWorld()
    const viaStore = [(await getJson(`/v1/quote?code=${code}&count=20`)).body, (await getJson(`/v1/kline?code=${code}&period=day&count=40`)).body]
    expect(viaStore.map((b) => [b.history, b.source])).toEqual([['store', 'emulator:tencent'], ['store', 'emulator:eastmoney']])
    const counted = await paths()
    expect([counted['proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get'] ?? 0, counted['push2his.eastmoney.com/api/qt/stock/kline/get'] ?? 0]).toEqual([0, 0])
    // The same bars as the channels', to the cent, the live one included.
    for (const k of [0, 1]) {
      expect(viaStore[k].data.map((r: { date: string }) => r.date)).toEqual(viaChannel[k].data.map((r: { date: string }) => r.date))
      viaStore[k].data.forEach((r: Record<string, string>, i: number) => expect(Math.abs(Number(r.last) - Number(viaChannel[k].data[i].last))).toBeLessThanOrEqual(0.011))
    }
    expect(viaStore[0].data[0]).toEqual(viaChannel[0].data[0])
    // After the evening job has appended Friday (built after the close, as the job runs): at night,
    // on the Saturday and before Monday's open the stored bars still join the line (the line's own
    // day is left to the line).
    await resetWorld('2026-11-20T21:00:00+08:00')
    await writeHistory(env.STORE, (await buildHistory(channelSource(services), code, '2026-11-20'))!)
    for (const clock of ['2026-11-20T21:00:00+08:00', '2026-11-21T11:00:00+08:00', '2026-11-23T09:05:00+08:00']) {
      await resetWorld(clock)
      const { body } = await getJson(`/v1/quote?code=${code}&count=20`)
      expect([clock, body.history, body.data.length]).toEqual([clock, 'store', 20])
      expect((await paths())['proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get'] ?? 0).toBe(0)
      // The session before the line's day is the last past bar, once.
      expect(new Set(body.data.map((r: { date: string }) => r.date)).size).toBe(20)
    }
    await env.STORE.delete(`history/${code}.json`)
  })

  it('100 keyed snapshot calls for one symbol make one stock/get request', async () => {
    const bodies = await Promise.all(Array.from({ length: 100 }, () => getJson('/v1/snapshot?code=sz000001').then((r) => r.body)))
    expect(bodies.every((b) => b.ok && b.source === 'emulator:eastmoney')).toBe(true)
    expect((await paths())['push2.eastmoney.com/api/qt/stock/get']).toBe(1)
  })

  it('keeps within a host budget: past it the failover serves from the next channel, and the next minute opens it again', async () => {
    // A day K-line is two Eastmoney requests (the past bars and the live ulist.np line): two calls' worth.
    await call('/__emulator/budgets', { method: 'PUT', body: JSON.stringify({ eastmoney: 4 }), headers: { 'content-type': 'application/json' } })
    try {
      const sources = []
      for (const code of stocks.slice(0, 5)) sources.push((await getJson(`/v1/kline?code=${code}&period=day&count=5`)).body.source)
      expect(sources).toEqual(['emulator:eastmoney', 'emulator:eastmoney', 'emulator:tencent', 'emulator:tencent', 'emulator:tencent'])
      const counted = await paths()
      expect(counted['push2his.eastmoney.com/api/qt/stock/kline/get']).toBe(2)
      // /v1/status shows the budget and what the service has used of it this minute.
      const status = (await getJson('/v1/status')).body
      expect(status.hosts.find((h: { channel: string }) => h.channel === 'eastmoney')).toMatchObject({ budget_per_minute: 4, budget_used_this_minute: 4 })
      expect(status.hosts.find((h: { channel: string }) => h.channel === 'tencent')).toMatchObject({ budget_per_minute: null, budget_used_this_minute: null })
      await setClock(new Date(Date.parse(SESSION_CLOCK) + 60_000).toISOString())
      // The failover keeps to the channel that answered for a while; forget that, and the new minute's budget lets Eastmoney answer.
      await call('/__emulator/router', { method: 'DELETE' })
      expect((await getJson(`/v1/kline?code=${stocks[5]}&period=day&count=5`)).body.source).toBe('emulator:eastmoney')
    } finally {
      await call('/__emulator/budgets', { method: 'DELETE' })
    }
  })

  it("a budget object that restarts mid-minute (evicted while idle) keeps the minute's count", async () => {
    const stub = env.HOST_BUDGET.getByName(`restart-${crypto.randomUUID()}`) as unknown as DurableObjectStub<HostBudget>
    const minute = Math.floor(Date.parse(SESSION_CLOCK) / 60_000)
    expect(await stub.lease(minute, 4, 6)).toBe(4)
    // The same storage, a fresh object: what the platform builds after an eviction.
    const again = await runInDurableObject(stub, (_: HostBudget, state) => {
      const restarted = new HostBudget(state, env)
      return [restarted.used(), restarted.lease(minute, 4, 6), restarted.lease(minute, 4, 6), restarted.lease(minute + 1, 4, 6)]
    })
    expect(again).toEqual([{ minute, granted: 4 }, 2, 0, 4])
  })

  it('past every budget, quote, book and snapshot serve the last answer kept, stale with its own as_of; nothing is sent', async () => {
    // A minute of its own: the budget objects count per minute of the service's clock.
    const start = Date.parse('2026-11-20T02:45:00Z')
    await setClock(new Date(start).toISOString())
    await call('/__emulator/budgets', { method: 'PUT', body: JSON.stringify({ tencent: 2, sina: 0, eastmoney: 1 }), headers: { 'content-type': 'application/json' } })
    try {
      const fresh = { quote: (await getJson('/v1/quote?code=sh600519&count=2')).body, book: (await getJson('/v1/orderbook?code=sh600519')).body, snap: (await getJson('/v1/snapshot?code=sh600519')).body }
      for (const b of Object.values(fresh)) expect(b).toMatchObject({ ok: true })
      expect(fresh.quote.stale).toBeUndefined()
      const sent = await paths()
      await setClock(new Date(start + 5_000).toISOString())
      const quote = (await getJson('/v1/quote?code=sh600519&count=2')).body
      expect(quote).toMatchObject({ ok: true, stale: true, source: fresh.quote.source, as_of: fresh.quote.as_of, data: fresh.quote.data })
      expect(quote.notice).toMatch(/^stale: .*over_budget/)
      const book = (await getJson('/v1/orderbook?code=sh600519')).body
      expect(book).toMatchObject({ ok: true, stale: true, source: fresh.book.source, as_of: fresh.book.as_of, data: fresh.book.data })
      const snap = (await getJson('/v1/snapshot?code=sh600519')).body
      expect(snap).toMatchObject({ ok: true, stale: true, source: fresh.snap.source, as_of: fresh.snap.as_of, data: fresh.snap.data })
      // A symbol nobody asked for has nothing kept: ok:false, never a guess.
      const other = (await getJson('/v1/quote?code=sz000001&count=2')).body
      expect(other).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
      expect(other.error).toMatch(/over_budget/)
      expect(await paths()).toEqual(sent)
    } finally {
      await call('/__emulator/budgets', { method: 'DELETE' })
    }
  })

  it('the isolates of a location share lines through the Cache API', async () => {
    const json = { 'content-type': 'application/json' }
    await call('/__emulator/shared-lines', { method: 'PUT', body: JSON.stringify({ cache: true }), headers: json })
    try {
      const first = (await getJson('/v1/quote?code=sh600519&count=1')).body
      expect((await paths())['qt.gtimg.cn/q=']).toBe(1)
      // The line is written beside the answer (waitUntil); give it a moment, then start as a new isolate would.
      await new Promise((r) => setTimeout(r, 100))
      await call('/__emulator/shared-lines?own=1', { method: 'DELETE' })
      const second = (await getJson('/v1/quote?code=sh600519&count=1')).body
      expect(second).toMatchObject({ ok: true, as_of: first.as_of, data: first.data })
      expect((await paths())['qt.gtimg.cn/q=']).toBe(1)
      // Past the cadence the location's line is stale too: the host is asked again.
      await setClock(new Date(Date.parse(SESSION_CLOCK) + 3_000).toISOString())
      await call('/__emulator/shared-lines?own=1', { method: 'DELETE' })
      expect((await getJson('/v1/quote?code=sh600519&count=1')).body.as_of).toBe('2026-11-20T10:30:03+08:00')
      expect((await paths())['qt.gtimg.cn/q=']).toBe(2)
    } finally {
      await call('/__emulator/shared-lines', { method: 'PUT', body: JSON.stringify({ cache: false }), headers: json })
    }
  })
})

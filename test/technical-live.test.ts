import { describe, expect, it } from 'vitest'
import { decodeState, encodeState, nextRow } from '../src/domain/indicators/step'
import { stepStateThrough } from '../src/domain/stock-days'
import { hasTraded, market } from '../src/emulator/market/index'
import { afterClose } from './after-close'
import { call, fault, makeKey, resetWorld, upstreamRequests } from './helpers'
import { storeCall, storeJson } from './store-app'

const batch = (qs: string, key: string) => storeJson(`/v1/technical-batch?${qs}`, { key })
const single = async (code: string, key: string) => (await storeJson(`/v1/technical?code=${code}`, { key })).body

describe('/v1/technical-batch with a blank date during a session: live rows stepped from the stored states', () => {
  const CLOCK = '2026-11-20T10:30:00+08:00'
  const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.listDate < '2025-01-01' && hasTraded(market.live(i, Date.parse(CLOCK))))
  const BJ = stocks.find((i) => i.code.startsWith('bj'))!.code
  const CODES = ['sh600519', 'sz000001', BJ, ...stocks.slice(40, 77).map((i) => i.code)]

  it('gives each A-share stock today\'s row, equal to /v1/technical\'s whole-history row, from one batch of quotes', async () => {
    await resetWorld(CLOCK)
    const key = await makeKey('unlimited')
    await afterClose(CODES, '2026-11-19', Date.parse(CLOCK))
    const before = await upstreamRequests()
    const { body } = await batch(`codes=${[...CODES, 'hk00700'].join(',')}`, key)
    const after = await upstreamRequests()
    const spent = Object.keys(after).reduce((n, k) => n + after[k] - (before[k] ?? 0), 0)
    expect(body).toMatchObject({ ok: true, date: '2026-11-20', requested: CODES.length + 1, returned: CODES.length + 1, as_of: expect.stringMatching(/^2026-11-20T10:\d\d:\d\d\+08:00$/) })
    // 40 stocks in one or two quote requests, plus what the HK symbol's own series costs
    expect(spent).toBeLessThanOrEqual(6)
    for (const item of body.data.slice(0, CODES.length)) {
      expect(item.as_of, item.code).toMatch(/^2026-11-20T10:\d\d:\d\d\+08:00$/)
      expect(item.data.date).toBe('2026-11-20')
    }
    // The HK row is computed on the fly from its channel; its quote time is Beijing's clock too.
    expect(body.data[CODES.length]).toMatchObject({ code: 'hk00700', ok: true, as_of: expect.stringMatching(/^2026-11-20T10:\d\d:\d\d\+08:00$/) })
    for (const code of ['sh600519', 'sz000001', BJ, CODES[10], CODES[30]]) {
      const one = await single(code, key)
      expect(one.history).toBe('store')
      const item = body.data.find((x: any) => x.code === code)
      expect(item.data, code).toEqual(one.data[0])
      expect(item.as_of).toBe(one.as_of)
    }
  }, 120_000)

  it('shares a stock\'s live row among callers for one quote window (3 s), then asks for quotes again', async () => {
    await resetWorld(CLOCK)
    const [a, b] = [await makeKey('pro'), await makeKey('unlimited')]
    await afterClose(['sh600519', 'sz000001'], '2026-11-19', Date.parse(CLOCK))
    const spentOn = async (qs: string, key: string) => {
      const before = await upstreamRequests()
      const { body } = await batch(qs, key)
      const after = await upstreamRequests()
      return { body, spent: Object.keys(after).reduce((n, k) => n + after[k] - (before[k] ?? 0), 0) }
    }
    const first = await spentOn('codes=sh600519,sz000001', a)
    expect(first.spent).toBeGreaterThan(0)
    expect(first.body).toMatchObject({ ok: true, returned: 2, as_of: '2026-11-20T10:30:00+08:00' })
    // Another caller within the window, one code in another spelling: the same rows, no quote asked for
    const setClock = (now: string) => call('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now }) })
    await setClock('2026-11-20T10:30:02.900+08:00')
    const second = await spentOn('codes=SZ000001,sh600519', b)
    expect(second.spent).toBe(0)
    expect(second.body.data.map((x: any) => x.code)).toEqual(['SZ000001', 'sh600519'])
    expect(second.body.data.map((x: any) => [x.data, x.as_of])).toEqual([first.body.data[1], first.body.data[0]].map((x: any) => [x.data, x.as_of]))
    // Past the window: quotes asked for again, rows as of the new quote, equal to /v1/technical's
    await setClock('2026-11-20T10:30:03+08:00')
    const third = await spentOn('codes=sh600519', a)
    expect(third.spent).toBeGreaterThan(0)
    expect(third.body.as_of > first.body.as_of).toBe(true)
    const one = await single('sh600519', a)
    expect(third.body.data[0].data).toEqual(one.data[0])
    expect(third.body.data[0].as_of).toBe(one.as_of)
    // Callers arriving together at the start of a window share one round of quotes: the quote
    // channels answer slowly, so the later callers arrive while the first is still asking
    await setClock('2026-11-20T10:30:06+08:00')
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'slow', { ms: 400, count: 3 })
    const before = await upstreamRequests()
    const together = await Promise.all([batch('codes=sh600519,sz000001', a), batch('codes=sz000001,sh600519', b), batch('codes=sh600519', a)])
    const after = await upstreamRequests()
    expect(Object.keys(after).reduce((n, k) => n + after[k] - (before[k] ?? 0), 0)).toBe(first.spent)
    expect(together.map((r) => r.body.returned)).toEqual([2, 2, 1])
    expect(together[1].body.data[1]).toEqual(together[0].body.data[0])
  }, 60_000)

  it('keeps the previous session\'s rows with their date before the open, and says so when no quote can be had', async () => {
    await resetWorld('2026-11-20T09:05:00+08:00')
    const key = await makeKey('pro')
    // Its own store: the tables an earlier test built hold other stocks.
    await afterClose(['sh600519', BJ], '2026-11-19', Date.parse('2026-11-20T09:05:00+08:00'))
    const { body } = await batch(`codes=sh600519,${BJ}`, key)
    expect(body.data.map((x: any) => x.data.date)).toEqual(['2026-11-19', '2026-11-19'])
    expect(body.data[0].as_of).toBeUndefined()
    await resetWorld(CLOCK)
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http', { count: 50 })
    const down = await batch('codes=sh600519', key)
    expect(down.body).toMatchObject({ ok: false, returned: 0, failed: 1 })
    expect(down.body.data[0].error).toMatch(/no live quote/)
  }, 60_000)

  it('leaves a past date point in time: the stored table\'s row, not a live one', async () => {
    await resetWorld(CLOCK)
    const key = await makeKey('pro')
    const { body } = await batch('codes=sh600519&date=2026-11-19', key)
    expect(body).toMatchObject({ ok: true, date: '2026-11-19', source: 'store' })
    expect(body.data[0].data).toMatchObject({ date: '2026-11-19', closePrice: market.dailyBars(market.byCode('sh600519')!, '2026-11-19', '2026-11-19', Date.parse(CLOCK))[0].close })
    expect(body.data[0].as_of).toBeUndefined()
  })

  it('computes a stock on its ex-date from its whole history (stepping the old state would be wrong); a suspended one keeps its last row', async () => {
    const clock = '2026-06-17T10:30:00+08:00'
    const now = Date.parse(clock)
    await resetWorld(clock)
    const key = await makeKey('pro')
    const ex = market.instruments().find((i) => i.kind === 'stock' && market.actions(i, now).some((a) => a.exDate === '2026-06-17' && a.cash > 0))!
    const [h] = await afterClose([ex.code, 'sh600519'], '2026-06-16', now)
    const { body } = await batch(`codes=${ex.code},sh600519`, key)
    const one = await single(ex.code, key)
    expect(body.data[0].data).toEqual(one.data[0])
    expect(body.data[0].data.date).toBe('2026-06-17')
    // sh600519 does not trade that day in the model (suspended; its line carries the day's stamp, as
    // the hosts' suspended lines do): its latest row, the previous session's
    expect(market.live(market.byCode('sh600519')!, now).state).toBe('suspended')
    expect(body.data[1]).toMatchObject({ ok: true, data: { date: '2026-06-16' } })
    expect(body.data[1].as_of).toBeUndefined()
    // Stepping the unadjusted state with today's quote gives other numbers
    const q = (await storeJson(`/v1/quote?code=${ex.code}`, { key })).body.data[0]
    const state = decodeState(JSON.parse(encodeState(stepStateThrough(h, h.t.length - 1))))!
    const naive = nextRow(state, { date: '2026-06-17', open: Number(q.open), high: Number(q.high), low: Number(q.low), close: Number(q.last), volume: Number(q.volume) }, { code: ex.code, name: null, priceDecimals: 2 })
    expect(naive.ma_MA_250).not.toBe(one.data[0].ma_MA_250)
  }, 60_000)
})

describe('/v1/technical-batch answer encoding', () => {
  it('is plain JSON whatever the Accept-Encoding (the edge compresses for the clients that accept it)', async () => {
    await resetWorld('2026-11-20T16:30:00+08:00')
    await afterClose(['sh600519'], '2026-11-19', Date.parse('2026-11-20T16:30:00+08:00'))
    const key = await makeKey('unlimited')
    const codes = Array.from({ length: 200 }, () => 'sh600519').join(',')
    for (const enc of ['br, gzip', 'identity', undefined]) {
      const res = await storeCall(`/v1/technical-batch?codes=${codes}&date=2026-11-19`, { key, headers: enc ? { 'accept-encoding': enc } : {} })
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(await res.json()).toMatchObject({ ok: true, returned: 200 })
    }
  })
})

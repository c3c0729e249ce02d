import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { ANONYMOUS, fault, getJson, makeKey, passCadence, resetWorld } from './helpers'
import { limitStocks } from './market-scan'

const LEVELS = [1, 2, 3, 4, 5]
const AFTER_CLOSE = '2026-11-20T15:30:00+08:00'
const BEFORE_OPEN = '2026-11-20T09:00:00+08:00'

const bids = (d: any) => LEVELS.map((k) => [d[`b${k}_p`], d[`b${k}_v`]])
const asks = (d: any) => LEVELS.map((k) => [d[`a${k}_p`], d[`a${k}_v`]])

function expectSaneBook(d: any) {
  const b = bids(d).filter(([p]) => p > 0)
  const a = asks(d).filter(([p]) => p > 0)
  for (let k = 1; k < b.length; k++) expect(b[k][0]).toBeLessThan(b[k - 1][0])
  for (let k = 1; k < a.length; k++) expect(a[k][0]).toBeGreaterThan(a[k - 1][0])
  if (b.length && a.length) expect(b[0][0]).toBeLessThan(a[0][0])
  for (const [, v] of [...b, ...a]) expect(Number.isInteger(v) && v > 0).toBe(true)
}

describe('GET /v1/orderbook', () => {
  beforeEach(() => resetWorld())

  it('returns the flat five-level book, price and time, agreeing with /v1/quote', async () => {
    const { status, body } = await getJson('/v1/orderbook?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'orderbook', source: 'emulator:tencent', as_of: '2026-11-20T10:30:00+08:00' })
    const d = body.data
    expect(Object.keys(d).sort()).toEqual(
      ['code', 'time', 'status', 'last', 'change', 'change_pct', ...['b', 'a'].flatMap((s) => LEVELS.flatMap((k) => [`${s}${k}_p`, `${s}${k}_v`]))].sort()
    )
    expect(d.time).toBe('2026-11-20 10:30:00')
    expect(d.status).toBe('trading')
    expectSaneBook(d)
    // Best bid below the price, best ask at or above it; five levels each side while trading.
    expect(d.b1_p).toBeLessThan(d.last)
    expect(d.a1_p).toBeGreaterThanOrEqual(d.last)
    expect(bids(d).every(([p]) => p > 0) && asks(d).every(([p]) => p > 0)).toBe(true)
    const quote = await getJson('/v1/quote?code=sh600519&count=2')
    expect(d.last).toBe(Number(quote.body.data[0].last))
    expect(d.change).toBeCloseTo(Number(quote.body.data[0].last) - Number(quote.body.data[1].last), 2)
  })

  it('is the same book from every channel', async () => {
    const tencent = (await getJson('/v1/orderbook?code=sz000001')).body
    // The line Tencent gave is shared for its cadence: a fault shows once that has passed.
    await fault('tencent', 'http')
    await passCadence()
    const sina = (await getJson('/v1/orderbook?code=sz000001')).body
    expect(sina.source).toBe('emulator:sina')
    await fault('sina', 'garbage')
    await passCadence()
    const eastmoney = (await getJson('/v1/orderbook?code=sz000001')).body
    expect(eastmoney.source).toBe('emulator:eastmoney')
    for (const b of [sina, eastmoney]) expect(b.data).toEqual(tencent.data)
  })

  it('is ok:false UPSTREAM_UNAVAILABLE when all three channels fail', async () => {
    await fault('tencent', 'http')
    await fault('sina', 'http')
    await fault('eastmoney', 'garbage')
    const { status, body } = await getJson('/v1/orderbook?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.error).toMatch(/tencent.*sina.*eastmoney/)
  })

  it('has no asks at limit-up and no bids at limit-down, on every channel', async () => {
    await resetWorld(AFTER_CLOSE)
    const { up, down } = limitStocks(AFTER_CLOSE)
    for (const channelsDown of [[], ['tencent'], ['tencent', 'sina']] as const) {
      for (const c of channelsDown) await fault(c, 'http')
      const u = (await getJson(`/v1/orderbook?code=${up}`)).body
      expect(u.ok).toBe(true)
      expect(asks(u.data)).toEqual(LEVELS.map(() => [null, 0]))
      expect(u.data.b1_p).toBeGreaterThan(0)
      const dn = (await getJson(`/v1/orderbook?code=${down}`)).body
      expect(bids(dn.data)).toEqual(LEVELS.map(() => [null, 0]))
      expect(dn.data.a1_p).toBeGreaterThan(0)
      await resetWorld(AFTER_CLOSE)
    }
  })

  it('shows the closing book after the close, and null levels with a notice once the hosts re-stamp the line before the open', async () => {
    await resetWorld(AFTER_CLOSE)
    const closing = (await getJson('/v1/orderbook?code=sh600519')).body
    expect(closing.data.status).toBe('closed')
    expect(closing.notice).toBeUndefined()
    expect([...bids(closing.data), ...asks(closing.data)].every(([p, v]) => p > 0 && v > 0)).toBe(true)
    // 09:00: Tencent and Sina have re-stamped the line (no trade yet, empty book); never a price of 0.
    await resetWorld(BEFORE_OPEN)
    const { body } = await getJson('/v1/orderbook?code=sh600519')
    expect(body).toMatchObject({ ok: true, data: { status: 'closed', time: '2026-11-20 09:00:00' } })
    expect([...bids(body.data), ...asks(body.data)]).toEqual(Array(10).fill([null, 0]))
    expect(body.notice).toMatch(/no orders/)
    await fault('tencent', 'http')
    await passCadence()
    const next = (await getJson('/v1/orderbook?code=sh600519')).body
    expect(next.source).toBe('emulator:sina')
    expect(next.data).toMatchObject({ status: 'closed', last: body.data.last, b1_p: null, a1_p: null })
  })

  it('is NO_DATA (not counted) for a well-formed code nobody lists', async () => {
    let code = ''
    for (let n = 600000; !code; n++) if (!market.byCode(`sh${n}`)) code = `sh${n}`
    const { body } = await getJson(`/v1/orderbook?code=${code}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it.each(['hk00700', 'usAAPL', 'sh000001', 'sz399001'])('answers %s with empty data and a notice', async (code) => {
    const { body } = await getJson(`/v1/orderbook?code=${code}`)
    expect(body).toMatchObject({ ok: true, data: [] })
    expect(body.notice).toMatch(/A-share stocks, ETFs, convertible bonds/)
  })

  it('serves ETFs and convertible bonds too, in their 3-decimal ticks, from every channel', async () => {
    const bond = market.instruments().find((i) => i.kind === 'bond')!.code
    for (const code of ['sh510300', bond]) {
      await resetWorld()
      const tencent = (await getJson(`/v1/orderbook?code=${code}`)).body
      expect(tencent).toMatchObject({ ok: true, source: 'emulator:tencent' })
      expectSaneBook(tencent.data)
      expect(tencent.data.b1_p).toBeGreaterThan(0)
      await fault('tencent', 'http')
      expect((await getJson(`/v1/orderbook?code=${code}`)).body.data).toEqual(tencent.data)
      await fault('sina', 'http')
      expect((await getJson(`/v1/orderbook?code=${code}`)).body.data).toEqual(tencent.data)
    }
  })

  it.each(['sh600519,sz000001', 'sh99', ''])('422 naming code for %j', async (code) => {
    const { status, body } = await getJson(`/v1/orderbook?code=${code}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'code'])
  })

  it('needs a key; trial is enough', async () => {
    expect((await getJson('/v1/orderbook?code=sh600519', ANONYMOUS)).status).toBe(401)
    const trial = await makeKey('trial')
    const { body } = await getJson('/v1/orderbook?code=sh600519', { headers: { authorization: `Bearer ${trial}` } })
    expect(body.ok).toBe(true)
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { epsTtm, bookValuePerShare, epsStatic } from '../src/emulator/market/fundamentals'
import { ANONYMOUS, fault, getJson, makeKey, passCadence, resetWorld, SESSION_CLOCK } from './helpers'
import { limitStocks } from './market-scan'

const NOW = Date.parse(SESSION_CLOCK)
const AFTER_CLOSE = '2026-11-20T15:30:00+08:00'

const FIELDS = [
  'code', 'name', 'time', 'security_type', 'status', 'currency',
  'last', 'change', 'change_pct', 'open', 'high', 'low', 'pre_close', 'avg_price', 'volume', 'amount', 'turnover',
  'bids', 'asks', 'order_imbalance',
  'pe_ttm', 'pe_dynamic', 'pe_static', 'pb',
  'float_market_cap', 'total_market_cap', 'float_shares', 'total_shares',
  'limit_up', 'limit_down', 'volume_ratio', 'amplitude', 'rise_speed',
  'outer_volume', 'inner_volume',
]

/** `a` equals `b` up to the last printed decimal (0.01 relative slack for ratios of rounded inputs). */
const within = (a: number, b: number, rel = 0.002, abs = 0.011) => Math.abs(a - b) <= Math.max(abs, Math.abs(b) * rel)

describe('GET /v1/snapshot', () => {
  beforeEach(() => resetWorld())

  it('has the 35 fields, agreeing with /v1/quote, /v1/orderbook and /v1/finance', async () => {
    for (const code of ['sh600519', 'sz000001', 'sz300750', 'sh688981']) {
      const { status, body } = await getJson(`/v1/snapshot?code=${code}`)
      expect(status).toBe(200)
      expect(body).toMatchObject({ ok: true, endpoint: 'snapshot', source: 'emulator:eastmoney', as_of: '2026-11-20T10:30:00+08:00' })
      const s = body.data
      expect(Object.keys(s).sort()).toEqual([...FIELDS].sort())
      expect(FIELDS).toHaveLength(35)
      expect(s).toMatchObject({ code, status: 'trading', currency: 'CNY', time: '2026-11-20 10:30:00' })

      const quote = (await getJson(`/v1/quote?code=${code}&count=1`)).body.data[0]
      expect(s.last).toBe(Number(quote.last))
      expect(s.turnover).toBe(Number(quote.turnover))
      expect(s.volume).toBe(Number(quote.volume) / 100)
      // /v1/quote came from Tencent, whose amount is whole 10,000s of CNY.
      expect(within(s.amount, Number(quote.amount) / 1e4, 0, 0.51)).toBe(true)

      const book = (await getJson(`/v1/orderbook?code=${code}`)).body.data
      expect(s.bids).toEqual([1, 2, 3, 4, 5].map((k) => [book[`b${k}_p`], book[`b${k}_v`]]))
      expect(s.asks).toEqual([1, 2, 3, 4, 5].map((k) => [book[`a${k}_p`], book[`a${k}_v`]]))
      const bidLots = s.bids.reduce((n: number, [, v]: number[]) => n + v, 0)
      const askLots = s.asks.reduce((n: number, [, v]: number[]) => n + v, 0)
      expect(s.order_imbalance).toBeCloseTo(((bidLots - askLots) / (bidLots + askLots)) * 100, 1)

      // PE TTM is the price over the last four quarters' EPS of the statements /v1/finance serves.
      const fin = (await getJson(`/v1/finance?code=${code}&num=5`)).body.data[0]
      const [q3, , , y25, q3prev] = fin
      const eps = (q3.parent_net_profit + y25.parent_net_profit - q3prev.parent_net_profit) / s.total_shares
      expect(within(s.pe_ttm, s.last / eps)).toBe(true)
      const inst = market.byCode(code)!
      expect(within(s.pe_ttm, s.last / epsTtm(market, inst, '2026-11-20', NOW)!)).toBe(true)
      expect(within(s.pe_static, s.last / epsStatic(market, inst, '2026-11-20', NOW)!)).toBe(true)
      expect(within(s.pb, s.last / bookValuePerShare(market, inst, '2026-11-20', NOW)!)).toBe(true)
      expect(within(s.pe_static, s.last / (y25.parent_net_profit / s.total_shares))).toBe(true)

      // Market cap is price × shares; shares are the instrument's.
      expect(s.total_shares).toBe(inst.totalShares)
      expect(s.float_shares).toBe(inst.floatShares)
      expect(within(s.total_market_cap, (s.last * s.total_shares) / 1e8, 1e-6)).toBe(true)
      expect(within(s.float_market_cap, (s.last * s.float_shares) / 1e8, 1e-6)).toBe(true)
      expect(s.limit_down).toBeLessThan(s.last)
      expect(s.limit_up).toBeGreaterThan(s.last)
      expect(s.outer_volume + s.inner_volume).toBe(s.volume)
      expect(s.amplitude).toBeCloseTo(((s.high - s.low) / s.pre_close) * 100, 1)
      expect(s.volume_ratio).toBeGreaterThan(0)
      expect(typeof s.rise_speed).toBe('number')
    }
  })

  it('fails over to Tencent with the same numbers (no rise speed there)', async () => {
    const em = (await getJson('/v1/snapshot?code=sz000001')).body.data
    await fault('eastmoney', 'http')
    await passCadence()
    const { body } = await getJson('/v1/snapshot?code=sz000001')
    expect(body).toMatchObject({ ok: true, source: 'emulator:tencent' })
    const tx = body.data
    for (const k of ['code', 'name', 'time', 'security_type', 'status', 'currency', 'last', 'change', 'change_pct', 'open', 'high', 'low',
      'pre_close', 'volume', 'turnover', 'bids', 'asks', 'order_imbalance', 'pe_ttm', 'pe_dynamic', 'pe_static', 'pb', 'float_shares',
      'total_shares', 'limit_up', 'limit_down', 'volume_ratio', 'amplitude', 'outer_volume', 'inner_volume', 'avg_price']) {
      expect([k, tx[k]]).toEqual([k, em[k]])
    }
    for (const k of ['float_market_cap', 'total_market_cap', 'amount']) expect(within(tx[k], em[k], 1e-5, 1)).toBe(true)
    expect(tx.rise_speed).toBeNull()
  })

  it('is ok:false when both channels fail', async () => {
    await fault('eastmoney', 'garbage')
    await fault('tencent', 'http')
    const { body } = await getJson('/v1/snapshot?code=sh600519')
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
  })

  it('at limit-up: last is the limit price and there are no asks', async () => {
    await resetWorld(AFTER_CLOSE)
    const { up, down } = limitStocks(AFTER_CLOSE)
    const u = (await getJson(`/v1/snapshot?code=${up}`)).body.data
    expect(u.last).toBe(u.limit_up)
    expect(u.asks).toEqual(Array(5).fill([null, 0]))
    expect(u.order_imbalance).toBe(100)
    const d = (await getJson(`/v1/snapshot?code=${down}`)).body.data
    expect(d.last).toBe(d.limit_down)
    expect(d.bids).toEqual(Array(5).fill([null, 0]))
  })

  it('before the open: closed, never halted; the last session from Eastmoney, Tencent\'s re-stamped line without a trade', async () => {
    // 09:00 on a trading day: stock/get keeps the last session until 09:15, Tencent re-stamps at 09:00 (test/fixtures/*/SOURCE.md).
    await resetWorld('2026-11-20T09:00:00+08:00')
    const last = (await getJson('/v1/snapshot?code=sh600519')).body.data
    expect(last).toMatchObject({ status: 'closed' })
    expect(last.time.slice(0, 10)).toBe('2026-11-19')
    expect(last.volume).toBeGreaterThan(0)
    expect(last.open).toBeGreaterThan(0)
    await fault('eastmoney', 'http')
    await passCadence()
    const s = (await getJson('/v1/snapshot?code=sh600519')).body.data
    expect(s).toMatchObject({ status: 'closed', open: null, high: null, low: null, change: 0, volume: 0, order_imbalance: null, rise_speed: null })
    expect(s.time.slice(0, 10)).toBe('2026-11-20')
    expect(s.last).toBe(s.pre_close)
    expect(s.pre_close).toBe(last.last)
    expect([...s.bids, ...s.asks]).toEqual(Array(10).fill([null, 0]))
  })

  it('is NO_DATA (not counted) for a well-formed code nobody lists', async () => {
    let code = ''
    for (let n = 600000; !code; n++) if (!market.byCode(`sh${n}`)) code = `sh${n}`
    const { body } = await getJson(`/v1/snapshot?code=${code}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it.each(['hk00700', 'usAAPL', 'sh000001', 'sz159915'])('answers %s (not an A-share stock) with empty data and a notice', async (code) => {
    const { status, body } = await getJson(`/v1/snapshot?code=${code}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, data: [] })
    expect(body.notice).toMatch(/A-share stocks/)
  })

  it.each(['sh600519,sz000001', 'abc', ''])('422 naming code for %j', async (code) => {
    const { status, body } = await getJson(`/v1/snapshot?code=${code}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'code'])
  })

  it('bills one unit for a profile; a failed call and a 422 are not counted', async () => {
    const pro = { headers: { authorization: `Bearer ${await makeKey('pro')}` } }
    expect((await getJson('/v1/snapshot?code=sh600519', pro)).body.ok).toBe(true)
    expect((await getJson('/v1/snapshot?code=sh600519,sz000001', pro)).status).toBe(422)
    await fault('eastmoney', 'http')
    await fault('tencent', 'http')
    await passCadence()
    expect((await getJson('/v1/snapshot?code=sh600519', pro)).body.ok).toBe(false)
    await new Promise((r) => setTimeout(r, 50)) // settlement runs in waitUntil (as in access.test.ts)
    const usage = (await getJson('/v1/usage', pro)).body.data
    expect(usage.endpoints).toEqual({ snapshot: { units: 1, calls: 1 } })
    expect(usage.minute).toMatchObject({ limit: 300, remaining: 299 })
  })

  it('needs a pro key: anonymous 401, trial and standard 403', async () => {
    expect((await getJson('/v1/snapshot?code=sh600519', ANONYMOUS)).status).toBe(401)
    for (const tier of ['trial', 'standard'] as const) {
      const key = await makeKey(tier)
      const { status, body } = await getJson('/v1/snapshot?code=sh600519', { headers: { authorization: `Bearer ${key}` } })
      expect(status).toBe(403)
      expect(body.code).toBe('TIER_TOO_LOW')
    }
    const pro = await makeKey('pro')
    expect((await getJson('/v1/snapshot?code=sh600519', { headers: { authorization: `Bearer ${pro}` } })).body.ok).toBe(true)
  })
})

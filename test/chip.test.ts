import { beforeEach, describe, expect, it } from 'vitest'
import { chipDistribution } from '../src/domain/chip'
import { fault, getJson, makeKey, resetWorld } from './helpers'

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

/** /v1/kline's day bars, oldest first, as the chip module reads them: another view of the same history. */
async function klineBars(code: string, qs = '') {
  const { body } = await getJson(`/v1/kline?code=${code}&count=210${qs}`)
  expect(body.ok).toBe(true)
  return body.data
    .map((r: any) => ({ date: r.date, open: +r.open, high: +r.high, low: +r.low, close: +r.last, turnover: +r.turnover }))
    .reverse()
}

describe('GET /v1/chip', () => {
  beforeEach(() => resetWorld())

  it('computes the distribution over the last 210 qfq bars, agreeing with /v1/kline', async () => {
    const { status, body } = await getJson('/v1/chip?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'chip', source: 'emulator:eastmoney', as_of: '2026-11-20' })
    const d = body.data
    expect(d).toMatchObject({ code: 'sh600519', date: '2026-11-20', bars: 210 })
    expect(d.distribution).toHaveLength(150)

    const bars = await klineBars('sh600519')
    expect(d.first_date).toBe(bars[0].date)
    expect(d.close).toBe(bars.at(-1).close)
    const want = chipDistribution(bars)
    expect(d.average_cost).toBe(want.averageCost)
    expect([d.cost_90_low, d.cost_90_high, d.cost_70_low, d.cost_70_high]).toEqual([...want.range90, ...want.range70])
    expect(d.profit_ratio).toBeCloseTo(want.profitRatio * 100, 2)
  })

  it('has shares summing to 1 and costs inside the history\'s price range', async () => {
    const { body } = await getJson('/v1/chip?code=sz000001')
    const d = body.data
    expect(d.distribution.reduce((s: number, b: any) => s + b.share, 0)).toBeCloseTo(1, 3)
    const bars = await klineBars('sz000001')
    const lo = Math.min(...bars.map((b: any) => b.low))
    const hi = Math.max(...bars.map((b: any) => b.high))
    for (const v of [d.average_cost, d.cost_90_low, d.cost_90_high, d.cost_70_low, d.cost_70_high]) {
      expect(v).toBeGreaterThanOrEqual(lo - 0.01)
      expect(v).toBeLessThanOrEqual(hi + 0.01)
    }
    expect(d.cost_90_low).toBeLessThanOrEqual(d.cost_70_low)
    expect(d.cost_90_high).toBeGreaterThanOrEqual(d.cost_70_high)
    expect(d.profit_ratio).toBeGreaterThanOrEqual(0)
    expect(d.profit_ratio).toBeLessThanOrEqual(100)
  })

  it('computes a past day from the bars up to it; a weekend means the Friday before', async () => {
    const { body } = await getJson('/v1/chip?code=sh600519&date=2026-11-15')
    expect(body.ok).toBe(true)
    expect(body.data.date).toBe('2026-11-13')
    const bars = await klineBars('sh600519', '&start=2025-01-01&end=2026-11-13')
    const want = chipDistribution(bars.slice(-210))
    expect(body.data.average_cost).toBe(want.averageCost)
    expect(body.data.first_date).toBe(bars.at(-210).date)
  })

  it('moves to tencent when eastmoney fails, and skips sina (no turnover rates)', async () => {
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/chip?code=sh600519')
    expect(body).toMatchObject({ ok: true, source: 'emulator:tencent' })
    await resetWorld()
    await fault('eastmoney', 'http')
    await fault('tencent', 'http')
    const only = await getJson('/v1/chip?code=sh600519')
    expect(only.body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: {} })
    expect(only.body.error).toContain('sina')
  })

  it('is ok:false and not counted when every channel fails', async () => {
    const key = await makeKey('trial')
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http')
    const { body } = await getJson('/v1/chip?code=sh600519', bearer(key))
    expect(body).toMatchObject({ ok: false, endpoint: 'chip', tier: 'trial', code: 'UPSTREAM_UNAVAILABLE' })
    await new Promise((r) => setTimeout(r, 50))
    expect((await getJson('/v1/usage', bearer(key))).body.data.endpoints).toEqual({})
  })

  it.each([
    ['', 'code'],
    ['?code=sh600519,sz000001', 'code'],
    ['?code=sh000001', 'code'],
    ['?code=hk00700', 'code'],
    ['?code=nope', 'code'],
    ['?code=sh600519&date=2026-13-01', 'date'],
    ['?code=sh600519&date=2030-01-01', 'date'],
    ['?code=sh600519&date=2026-11-21', 'date'],
  ])('answers 422 for %s naming %s', async (qs, field) => {
    const { status, body } = await getJson('/v1/chip' + qs)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it('refuses a future date as technical-batch and block-trade do, with one message', async () => {
    const { body } = await getJson('/v1/chip?code=sh600519&date=2030-01-01')
    expect(body.detail[0].msg).toBe('date 2030-01-01 is in the future (today is 2026-11-20, Beijing)')
    const block = await getJson('/v1/block-trade?date=2030-01-01')
    expect(block.body.detail[0].msg).toBe(body.detail[0].msg)
    expect((await getJson('/v1/chip?code=sh600519&date=2026-11-20')).body).toMatchObject({ ok: true, data: { date: '2026-11-20' } })
    // No key would help: the 422, not the 401 asking for one.
    expect((await getJson('/v1/chip?code=sh600519&date=2030-01-01', { anonymous: true })).status).toBe(422)
  })

  it('needs a key (trial is enough)', async () => {
    expect((await getJson('/v1/chip?code=sh600519', { anonymous: true })).status).toBe(401)
    const key = await makeKey('trial')
    expect((await getJson('/v1/chip?code=sh600519', bearer(key))).body.ok).toBe(true)
  })
})

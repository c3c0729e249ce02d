import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { fault, getJson, passCadence, resetWorld } from './helpers'

/** The contract the emulator's fuRB0 follows on a date (largest open interest at the previous close). */
const mainOf = (code: string, date: string) => market.mainContract(market.byCode(code)!, date)!.code
const prices = (r: any) => ({ date: r.date, open: r.open, high: r.high, low: r.low, last: r.last, volume: r.volume })

describe('futures main continuous contracts (fuRB0)', () => {
  beforeEach(() => resetWorld())

  it('quotes fuRB0 as the current main contract, from Eastmoney and, failing that, Sina', async () => {
    const main = mainOf('fuRB0', '2026-11-20')
    const contract = (await getJson(`/v1/quote?code=${main}&count=5`)).body
    const cont = (await getJson('/v1/quote?code=fuRB0&count=1')).body
    expect(cont).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(cont.data[0]).toEqual(contract.data[0])
    expect(cont.data[0].date).toBe('2026-11-20')

    await fault('eastmoney', 'http')
    // The line just fetched is shared for the cadence: the fault shows once it has passed.
    await passCadence()
    const sina = (await getJson('/v1/quote?code=fuRB0&count=1')).body
    expect(sina).toMatchObject({ ok: true, source: 'emulator:sina' })
    expect(prices(sina.data[0])).toEqual(prices(contract.data[0]))
  })

  it('serves fuRB0 day bars spliced from the main contracts, and Sina agrees', async () => {
    const em = (await getJson('/v1/kline?code=fuRB0&count=60')).body
    expect(em).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(em.data).toHaveLength(60)
    // Bars come from more than one contract across 60 sessions (a roll a month), each the main contract's own.
    const mains = new Set<string>()
    for (const bar of em.data.slice(0, 45)) {
      const c = mainOf('fuRB0', bar.date)
      mains.add(c)
      const own = market.dailyBars(market.byCode(c)!, bar.date, bar.date, Date.parse('2026-11-20T02:30:00Z'))[0]
      expect(Number(bar.last)).toBe(own.close)
    }
    expect(mains.size).toBeGreaterThan(1)

    await resetWorld()
    await fault('eastmoney', 'http')
    const sina = (await getJson('/v1/kline?code=fuRB0&count=60')).body
    expect(sina).toMatchObject({ ok: true, source: 'emulator:sina' })
    const ohlc = (r: any) => [r.date, r.open, r.high, r.low, r.last, r.volume]
    expect(sina.data.map(ohlc)).toEqual(em.data.map(ohlc))
  })

  it.each(['fuIF0', 'fuSR0', 'fuau0', 'fuM0'])('serves %s on quote and kline', async (code) => {
    expect((await getJson(`/v1/quote?code=${code}&count=2`)).body).toMatchObject({ ok: true })
    expect((await getJson(`/v1/kline?code=${code}&count=5`)).body.data).toHaveLength(5)
    expect((await getJson(`/v1/kline?code=${code}&period=week&count=3`)).body).toMatchObject({ ok: true, data: expect.any(Array) })
  })

  it.each(['fuZZ0', 'fuRB00', 'fuRB1'])('refuses %s with a 422 naming code', async (code) => {
    const { status, body } = await getJson(`/v1/kline?code=${code}`)
    expect(status).toBe(422)
    expect(JSON.stringify(body)).toContain('code')
  })

  it('documents futures and forex examples for code on quote and kline, and each example answers', async () => {
    const doc = (await getJson('/openapi.json')).body
    for (const path of ['/v1/quote', '/v1/kline']) {
      const code = doc.paths[path].get.parameters.find((p: any) => p.name === 'code')
      const values = Object.values<any>(code.examples).map((e) => e.value)
      expect(values).toEqual(expect.arrayContaining(['fuRB0', 'fxUSDCNH']))
      for (const v of values) expect((await getJson(`${path}?code=${v}&count=2`)).body, `${path} ${v}`).toMatchObject({ ok: true })
    }
  })
})

import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { researchReport } from '../src/emulator/market/research'
import { ANONYMOUS, call, fault, getJson, makeKey, resetWorld, SESSION_CLOCK, upstreamRequests } from './helpers'

const NOW = Date.parse(SESSION_CLOCK)
const RATING = { 买入: 'buy', 增持: 'overweight', 中性: 'neutral', 减持: 'underweight', 卖出: 'sell' } as const

/** A well-formed SH main-board code the emulator does not list. */
function unlistedCode(): string {
  for (let n = 600000; n < 604000; n++) if (!market.byCode(`sh${n}`)) return `sh${n}`
  throw new Error('every code is listed')
}

const newestFirst = (dates: string[]) => expect([...dates].sort().reverse()).toEqual(dates)

async function quoteLast(code: string): Promise<number> {
  const { body } = await getJson(`/v1/quote?code=${code}&count=1`)
  expect(body.ok).toBe(true)
  return Number(body.data[0].last)
}

describe('GET /v1/dehydrated', () => {
  beforeEach(() => resetWorld())

  it('lists the market\'s latest 30 digests, newest first, as the emulator published them', async () => {
    const { status, body } = await getJson('/v1/dehydrated')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'dehydrated', source: 'emulator:eastmoney' })
    expect(body.data).toHaveLength(30)
    expect(body.consensus).toBeUndefined()
    newestFirst(body.data.map((d: any) => d.date))
    expect(body.as_of).toBe(body.data[0].date)
    for (const d of body.data) {
      expect(d.code).toMatch(/^(sh|sz|bj)\d{6}$/)
      expect(d.url).toBe(`https://data.eastmoney.com/report/info/${d.info_code}.html`)
      expect(d.key_points.length).toBeGreaterThan(0)
      for (const p of d.key_points) expect([...p].length).toBeLessThanOrEqual(120)
      expect(d.key_points.join('|')).not.toMatch(/风险提示|免责/)
      // One market: the digest is the emulator's report, field for field.
      const model = researchReport(market, market.byCode(d.code)!, d.date, NOW)!
      expect(model.infoCode).toBe(d.info_code)
      expect(d).toMatchObject({
        broker: model.broker.shortName, name: model.inst.name, rating: RATING[model.rating], rating_text: model.rating,
        previous_rating_text: model.lastRating, rating_changed: model.lastRating === null ? null : model.lastRating !== model.rating,
        target_price: model.target, target_price_low: model.targetLow, eps_this_year: model.epsThisYear, pe_next_year: model.peNextYear,
        forecast_year: 2026, analysts: model.analysts.map((a) => a.name),
      })
    }
  })

  it('prices the upside from the same last price /v1/quote serves', async () => {
    const { body } = await getJson('/v1/dehydrated?limit=40')
    const d = body.data.find((x: any) => x.target_price !== null)
    const last = await quoteLast(d.code)
    expect(d.last).toBe(last)
    expect(d.upside_pct).toBeCloseTo((d.target_price / last - 1) * 100, 2)
    for (const x of body.data.filter((y: any) => y.target_price === null)) expect(x.upside_pct).toBeNull()
  })

  it('details one stock with a consensus that agrees with its digests', async () => {
    const { body } = await getJson('/v1/dehydrated?mode=detail&symbol=sh600519')
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(body.data.length).toBeGreaterThan(1)
    for (const d of body.data) expect(d.code).toBe('sh600519')
    newestFirst(body.data.map((d: any) => d.date))
    // Each broker counted once, by its latest digest.
    const latest = new Map<string, any>()
    for (const d of body.data) if (!latest.has(d.broker)) latest.set(d.broker, d)
    const counts: Record<string, number> = { buy: 0, overweight: 0, neutral: 0, underweight: 0, sell: 0 }
    for (const d of latest.values()) counts[d.rating] += 1
    const targets = [...latest.values()].map((d) => d.target_price).filter((t) => t !== null).sort((a, b) => a - b)
    const mid = targets.length === 0 ? null : targets.length % 2 ? targets[targets.length >> 1] : Math.round(((targets[targets.length / 2 - 1] + targets[targets.length / 2]) / 2) * 100) / 100
    const last = await quoteLast('sh600519')
    expect(body.consensus).toEqual({
      code: 'sh600519', brokers: latest.size, rating_counts: counts, median_target_price: mid, targets: targets.length, last,
      upside_pct: mid === null ? null : Math.round((mid / last - 1) * 10000) / 100,
    })
  })

  it('honours limit, and list with a symbol lists that stock', async () => {
    expect((await getJson('/v1/dehydrated?limit=5')).body.data).toHaveLength(5)
    const { body } = await getJson('/v1/dehydrated?symbol=sh600519&limit=2')
    expect(body.data).toHaveLength(2)
    expect(body.data.every((d: any) => d.code === 'sh600519')).toBe(true)
    expect(body.consensus).toBeUndefined()
  })

  it.each([
    ['mode=detail', 'symbol'],
    ['mode=detail&symbol=', 'symbol'],
    ['mode=detail&symbol=xx123', 'symbol'],
    ['mode=detail&symbol=sh600519,sz000001', 'symbol'],
    ['mode=summary', 'mode'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
  ])('422 for %s naming %s', async (q, field) => {
    const { status, body } = await getJson(`/v1/dehydrated?${q}`)
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', field])
  })

  it.each(['hk00700', 'usAAPL', 'sh000001', 'sh510300'])('answers %s (not an A-share stock) with empty data and a notice', async (code) => {
    const { status, body } = await getJson(`/v1/dehydrated?mode=detail&symbol=${code}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, data: [] })
    expect(body.notice).toMatch(/A-share stocks/)
  })

  it('is NO_DATA for a stock nobody lists', async () => {
    const { body } = await getJson(`/v1/dehydrated?mode=detail&symbol=${unlistedCode()}`)
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it('is ok:false when the upstream fails (there is no second source), NO_DATA when it has nothing', async () => {
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/dehydrated?mode=detail&symbol=sh600519')
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.error).toMatch(/eastmoney/)
    await resetWorld()
    await fault('eastmoney', 'empty')
    expect((await getJson('/v1/dehydrated')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('keeps digests service-wide: a second caller is answered without asking the upstream again', async () => {
    const first = (await getJson('/v1/dehydrated?mode=detail&symbol=sz000001')).body
    expect(first.ok).toBe(true)
    const before = (await upstreamRequests()).eastmoney
    await fault('eastmoney', 'http')
    const other = await makeKey('pro')
    const { body } = await getJson('/v1/dehydrated?mode=detail&symbol=sz000001', { headers: { authorization: `Bearer ${other}` } })
    expect(body).toMatchObject({ ok: true, source: 'emulator:eastmoney' })
    expect(body.data.map((d: any) => d.info_code)).toEqual(first.data.map((d: any) => d.info_code))
    // Only the live price was asked for (and Eastmoney's quote failed over to another channel).
    expect((await upstreamRequests()).eastmoney - before).toBeLessThanOrEqual(1)
    expect(body.data[0].last).toBe(first.data[0].last)
  })

  it('needs a key; trial is enough', async () => {
    const anon = await getJson('/v1/dehydrated', ANONYMOUS)
    expect(anon.status).toBe(401)
    const trial = await makeKey('trial')
    const { status, body } = await getJson('/v1/dehydrated?limit=3', { headers: { authorization: `Bearer ${trial}` } })
    expect(status).toBe(200)
    expect(body.ok).toBe(true)
  })
})

describe('no input makes a 500 on /v1/dehydrated', () => {
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom('list', 'detail', 'graph', 'sh600519', 'sz000001', 'bj920001', 'hk00700', 'sh000001', 'sh600519,sz000001', '', '0', '-1', '100', '101', '1e3', 'NaN'),
    fc.integer({ min: -10, max: 200 }).map(String)
  )

  it('with random query strings', async () => {
    await resetWorld()
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.oneof(fc.constantFrom('mode', 'symbol', 'limit', 'x'), fc.string()), value), { maxLength: 4 }), async (pairs) => {
        const qs = new URLSearchParams(pairs).toString()
        const res = await call(`/v1/dehydrated?${qs}`)
        const text = await res.text()
        expect(res.status, `?${qs} → ${text.slice(0, 200)}`).toBeLessThan(500)
        if (res.status === 200) expect(typeof JSON.parse(text).ok).toBe('boolean')
      }),
      { numRuns: 40 }
    )
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { boardMembers } from '../src/emulator/market/industries'
import { valuationAt } from '../src/emulator/market/valuation'
import { tradingDaysBetween } from '../src/domain/trading-calendar'
import { fault, getJson, makeKey, resetWorld, upstreamRequests } from './helpers'

const CLOCK = '2026-10-22T10:30:00+08:00'
/** The evening of the data date: what was published by the close the board's row is of. */
const DATA_DAY_END = Date.parse('2026-10-21T20:00:00+08:00')

beforeEach(() => resetWorld(CLOCK))

describe('GET /v1/sector-valuation', () => {
  it("values a stock's industry board on the last closed day, with percentiles over five years", async () => {
    const { status, body } = await getJson('/v1/sector-valuation?code=sh600519')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'sector-valuation', source: 'emulator:eastmoney' })
    const d = body.data
    expect(d.board).toMatchObject({ code: 'pt0477', name: '酿酒行业', data_date: '2026-10-21' })
    expect(d.stock).toBe('sh600519')
    expect(d.board.constituents).toBe(boardMembers(market, '0477').filter((i) => i.listDate <= '2026-10-21').length)
    for (const k of ['pe_ttm', 'pb_mrq', 'ps_ttm', 'pcf_ttm']) {
      const m = d[k]
      expect(m.value, k).toEqual(expect.any(Number))
      if (m.value > 0) {
        expect(m.percentile).toBeGreaterThanOrEqual(0)
        expect(m.percentile).toBeLessThan(100)
        expect(m.window.end).toBe('2026-10-21')
        expect(m.window.start >= '2021-10-21').toBe(true)
        expect(m.window.days).toBeLessThanOrEqual(tradingDaysBetween('2021-10-21', '2026-10-21').length)
        expect(m.window.days).toBeGreaterThan(1100)
      }
    }
    expect(d.dividend_yield).toMatchObject({ value: expect.any(Number), percentile: null, window: null, note: expect.stringMatching(/constituents paid cash from 2025-10-22 to 2026-10-21/) })
  })

  it("dividend yield is the members' cash dividends of the year (the corporate actions /v1/dividend lists) over their market cap", async () => {
    const d = (await getJson('/v1/sector-valuation?code=pt0475')).body.data
    let paid = 0
    let cap = 0
    for (const inst of boardMembers(market, '0475')) {
      if (inst.listDate > '2026-10-21') continue
      const close = market.dailyBars(inst, '2026-09-01', '2026-10-21', DATA_DAY_END).at(-1)!.close
      cap += close * inst.totalShares!
      for (const a of market.actions(inst, DATA_DAY_END)) if (a.exDate >= '2025-10-22' && a.exDate <= '2026-10-21') paid += Math.round(a.cash * 1e4) / 1e4 * inst.totalShares!
    }
    expect(paid).toBeGreaterThan(0)
    expect(d.dividend_yield.value).toBeCloseTo((paid / cap) * 100, 2)
  })

  it("agrees with the quotes: PE TTM and PB are the members' caps over the earnings and equity their own PE and PB imply", async () => {
    const d = (await getJson('/v1/sector-valuation?code=pt0477')).body.data
    let cap = 0
    let profit = 0
    let book = 0
    for (const inst of boardMembers(market, '0477')) {
      const bar = market.dailyBars(inst, '2026-09-01', '2026-10-21', DATA_DAY_END).at(-1)
      if (!bar || inst.listDate > '2026-10-21') continue
      const v = valuationAt(market, inst, bar.close, DATA_DAY_END)
      const c = bar.close * inst.totalShares!
      cap += c
      if (v.peTtm !== null) profit += c / v.peTtm
      if (v.pb !== null) book += c / v.pb
    }
    expect(d.pe_ttm.value).toBeCloseTo(cap / profit, 3)
    expect(d.pb_mrq.value).toBeCloseTo(cap / book, 3)
  })

  it('answers a board code as it answers a stock of that board', async () => {
    const byStock = (await getJson('/v1/sector-valuation?code=sh600519')).body.data
    const byBoard = (await getJson('/v1/sector-valuation?code=pt0477')).body.data
    expect({ ...byBoard, stock: 'sh600519' }).toEqual(byStock)
  })

  it('is served from the shared cache: a second call asks no upstream', async () => {
    await getJson('/v1/sector-valuation?code=pt0475')
    const before = await upstreamRequests()
    const again = await getJson('/v1/sector-valuation?code=pt0475', { headers: { authorization: `Bearer ${await makeKey('trial')}` } })
    expect(again.body.ok).toBe(true)
    expect(await upstreamRequests()).toEqual(before)
  })

  it('refuses what is not a stock or a board, and says NO_DATA for a board the report does not value', async () => {
    for (const code of ['sh000001', 'pt12', "$'", '%', '', 'sh600519,sz000001', 'x'.repeat(500)]) {
      const { status, body } = await getJson(`/v1/sector-valuation?code=${encodeURIComponent(code)}`)
      expect(status, code).toBe(422)
      expect(JSON.stringify(body)).toMatch(/code/)
    }
    const none = await getJson('/v1/sector-valuation?code=pt9999')
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ ok: false, code: 'NO_DATA', data: null })
    // A well-formed stock code the market does not list: the report has no row of it.
    let n = 600000
    while (market.byCode(`sh${n}`)) n++
    const unknown = await getJson(`/v1/sector-valuation?code=sh${n}`)
    expect(unknown.body).toMatchObject({ ok: false, code: 'NO_DATA', data: null })
  })

  it('needs a key of trial or above', async () => {
    const { status } = await getJson('/v1/sector-valuation?code=pt0477', { anonymous: true })
    expect(status).toBe(401)
  })

  it('says UPSTREAM_UNAVAILABLE when the datacenter fails', async () => {
    await fault('eastmoney', 'http')
    const { status, body } = await getJson('/v1/sector-valuation?code=pt0477')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { market } from '../src/emulator/market'
import { ANONYMOUS, fault, getJson, resetWorld, upstreamRequests } from './helpers'

/** Late October: the emulator's last listings (up to 2026-10-30) are in the window. */
const CLOCK = '2026-10-22T10:30:00+08:00'

beforeEach(() => resetWorld(CLOCK))

describe('GET /v1/ipo', () => {
  it('lists IPO events in the window, and a listed IPO is a stock whose first bar is its listing day', async () => {
    const { status, body } = await getJson('/v1/ipo?days=30')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'ipo', source: 'emulator:eastmoney', window: { start: '2026-09-22', end: '2026-11-21' } })
    expect(body.data.length).toBeGreaterThan(0)
    const listed = body.data.filter((r: { listing_date: string | null }) => r.listing_date && r.listing_date < '2026-10-22')
    expect(listed.length).toBeGreaterThan(0)
    for (const row of listed.slice(0, 3)) {
      expect(row.listing_date).toBe(market.byCode(row.code)!.listDate)
      const kline = await getJson(`/v1/kline?code=${row.code}&count=60`)
      const bars = kline.body.data
      expect(bars.at(-1).date, row.code).toBe(row.listing_date)
      expect(Number(bars.at(-1).last)).toBe(row.first_close)
      expect(Number(bars.at(-1).open)).toBe(row.first_open)
      expect(row.issue_price).toBeLessThan(row.first_open)
    }
    for (const row of body.data) {
      expect(row.events.length).toBeGreaterThan(0)
      for (const e of row.events) expect(e.date >= '2026-09-22' && e.date <= '2026-11-21').toBe(true)
    }
  })

  it('shows upcoming IPOs without values that are not public yet', async () => {
    const { body } = await getJson('/v1/ipo?days=15')
    const upcoming = body.data.filter((r: { subscription_date: string }) => r.subscription_date > '2026-10-22')
    for (const row of upcoming) {
      expect(row.first_close).toBeNull()
      expect(row.winning_rate_pct).toBeNull()
    }
  })

  it('defaults to 15 days and serves repeats from the shared cache', async () => {
    const first = await getJson('/v1/ipo')
    expect(first.body.window).toEqual({ start: '2026-10-07', end: '2026-11-06' })
    const before = (await upstreamRequests()).eastmoney
    await getJson('/v1/ipo')
    await getJson('/v1/ipo?days=14')
    expect((await upstreamRequests()).eastmoney).toBe(before)
  })

  it('answers ok:false UPSTREAM_UNAVAILABLE when Eastmoney fails', async () => {
    await fault('eastmoney', 'garbage')
    const { status, body } = await getJson('/v1/ipo')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
  })

  it('answers ok:false NO_DATA when the upstream has no IPO at all', async () => {
    await fault('eastmoney', 'empty')
    const { body } = await getJson('/v1/ipo')
    expect(body).toMatchObject({ ok: false, code: 'NO_DATA', data: [] })
  })

  it('refuses days outside 1..90 with a 422 naming the field, and a call without a key with 401', async () => {
    for (const days of ['0', '91', 'abc', '1.5']) {
      const { status, body } = await getJson(`/v1/ipo?days=${days}`)
      expect(status, days).toBe(422)
      expect(body.detail[0].loc).toEqual(['query', 'days'])
    }
    expect((await getJson('/v1/ipo', ANONYMOUS)).status).toBe(401)
  })
})

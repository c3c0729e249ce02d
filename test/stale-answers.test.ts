/**
 * Stale-if-error (docs/architecture.md "Stale answers"): with every upstream down, slow-moving data answers
 * ok:true from its last good copy, marked `stale` with the copy's `as_of` and a notice naming the
 * failure, and counted; live data never does.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { previousTradingDay } from '../src/domain/trading-calendar'
import { call, fault, getJson, makeKey, resetWorld } from './helpers'
import { storeJson } from './store-app'

const CHANNELS = ['eastmoney', 'tencent', 'sina', 'ths', 'hkex'] as const

async function everyUpstreamDown() {
  for (const ch of CHANNELS) await fault(ch, 'http')
}

async function setClock(iso: string) {
  const res = await call('/__emulator/clock', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: iso }) })
  await res.text()
}

/** First call through the worker's own handler, waiting for its background work (the last good copy is written there). */
async function warm(path: string, key: string) {
  const { body } = await storeJson(path, { key })
  expect(body.ok, `${path}: ${body.error}`).toBe(true)
  expect(body.stale, path).toBeUndefined()
  return body
}

const FRIDAY_1030 = '2026-11-20T10:30:00+08:00'
/** Seven hours later: past the reference cache's six hours, so the upstream is asked again. */
const FRIDAY_1730 = '2026-11-20T17:30:00+08:00'

describe('stale-if-error', () => {
  let key: string
  beforeEach(async () => {
    await resetWorld(FRIDAY_1030)
    key = await makeKey('unlimited')
  })

  it.each([
    ['/v1/dividend?code=sh600519', 'dividend'],
    ['/v1/shareholder?code=sh600519', 'shareholder'],
    ['/v1/shareholder?code=hk00700', 'shareholder'],
    ['/v1/events?code=sh600519', 'events'],
    ['/v1/search?q=gzmt', 'search'],
    ['/v1/macro?region=cn&names=cpi', 'macro'],
    ['/v1/ipo', 'ipo'],
    ['/v1/calendar', 'calendar'],
    [`/v1/block-trade?date=${previousTradingDay('2026-11-20')}`, 'block-trade'],
    ['/v1/market-overview?type=margin', 'market-overview'],
  ])('%s answers its last good copy, marked stale, when every upstream fails', async (path, endpoint) => {
    const fresh = await warm(path, key)
    await setClock(FRIDAY_1730)
    await everyUpstreamDown()
    const { body } = await getJson(path, { headers: { authorization: `Bearer ${key}` } })
    expect(body).toMatchObject({ ok: true, endpoint, stale: true, as_of: '2026-11-20T10:30:00+08:00', source: fresh.source })
    expect(body.notice).toMatch(/^stale: every upstream failed just now \(.*eastmoney.*\); this is the last good answer, fetched 2026-11-20T10:30:00\+08:00 \(7 h ago\)/)
    expect(body.data).toEqual(fresh.data)
    // A stale answer is data: counted like any other call.
    await new Promise((r) => setTimeout(r, 50))
    const usage = (await getJson('/v1/usage', { headers: { authorization: `Bearer ${key}` } })).body.data
    expect(usage.endpoints[endpoint]).toMatchObject({ calls: 2 })
  })

  it('serves money flows stale only while the copy holds the latest complete session', async () => {
    await setClock('2026-11-20T16:00:00+08:00')
    const fresh = await warm('/v1/fund?code=sh600519&rank=false', key)
    await everyUpstreamDown()
    // Saturday: Friday is still the latest complete session.
    await setClock('2026-11-21T12:00:00+08:00')
    const sat = (await getJson('/v1/fund?code=sh600519&rank=false')).body
    expect(sat).toMatchObject({ ok: true, stale: true, as_of: '2026-11-20T16:00:00+08:00', data: fresh.data })
    // Monday after the close: Monday's flows are missing from the copy, so it no longer stands in.
    await setClock('2026-11-23T15:40:00+08:00')
    expect((await getJson('/v1/fund?code=sh600519&rank=false')).body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
  })

  it('never serves a copy older than its limit', async () => {
    await warm('/v1/market-overview?type=margin', key)
    await setClock('2026-11-24T10:30:00+08:00')
    await everyUpstreamDown()
    expect((await getJson('/v1/market-overview?type=margin')).body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE' })
  })

  it('does not stand in when the upstream answers that it has nothing', async () => {
    await warm('/v1/search?q=gzmt', key)
    await setClock(FRIDAY_1730)
    for (const ch of CHANNELS) await fault(ch, 'empty')
    expect((await getJson('/v1/search?q=gzmt')).body).toMatchObject({ ok: false, code: 'NO_DATA' })
  })

  it('never serves live quotes stale', async () => {
    await warm('/v1/quote?code=sh600519', key)
    await setClock(FRIDAY_1730)
    await everyUpstreamDown()
    const { body } = await getJson('/v1/quote?code=sh600519')
    expect(body).toMatchObject({ ok: false })
    expect(body.stale).toBeUndefined()
  })
})

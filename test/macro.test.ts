import { beforeEach, describe, expect, it } from 'vitest'
import { MACRO_CATALOGUE } from '../src/data/macro-catalogue'
import { ANONYMOUS, fault, getJson, resetWorld, upstreamRequests } from './helpers'

beforeEach(() => resetWorld())

describe('GET /v1/macro', () => {
  it('serves every China series by default, each with unit, frequency, period, value and history', async () => {
    const { status, body } = await getJson('/v1/macro')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'macro', source: 'emulator:eastmoney' })
    expect(body.data.map((s: { name: string }) => s.name)).toEqual(MACRO_CATALOGUE.cn.map((s) => s.name))
    for (const s of body.data) {
      expect(s.history.length).toBeGreaterThan(0)
      expect(s.history.length).toBeLessThanOrEqual(12)
      expect(s.history[0]).toEqual({ period: s.period, value: s.value, release_date: s.release_date })
      const periods = s.history.map((p: { period: string }) => p.period)
      expect(periods).toEqual([...periods].sort().reverse())
    }
    const cpi = body.data.find((s: { name: string }) => s.name === 'cpi')
    expect(cpi).toMatchObject({ unit: '%', frequency: 'monthly', period: '2026-10', release_date: null })
    // The clock is 2026-11-20 10:30: October's PMI is out (31 Oct), November's is not; the latest yield is yesterday's.
    expect(body.data.find((s: { name: string }) => s.name === 'pmi').period).toBe('2026-10')
    expect(body.data.find((s: { name: string }) => s.name === 'treasury_10y')).toMatchObject({ frequency: 'daily', period: '2026-11-19', release_date: '2026-11-19' })
    expect(body.data.find((s: { name: string }) => s.name === 'gdp').period).toBe('2026-Q3')
  })

  it('serves the names asked, in that order, for other regions with release dates', async () => {
    const { body } = await getJson('/v1/macro?region=us&names=unemployment,cpi&count=3')
    expect(body.data.map((s: { name: string }) => s.name)).toEqual(['unemployment', 'cpi'])
    for (const s of body.data) {
      expect(s.history).toHaveLength(3)
      for (const p of s.history) expect(p.release_date <= '2026-11-20').toBe(true)
    }
  })

  it('asks each report once and serves repeats from the shared cache', async () => {
    const before = (await upstreamRequests()).eastmoney
    await getJson('/v1/macro?names=cpi,cpi_mom')
    expect((await upstreamRequests()).eastmoney).toBe(before + 1)
    await getJson('/v1/macro?names=cpi_mom')
    expect((await upstreamRequests()).eastmoney).toBe(before + 1)
  })

  it('answers ok:false UPSTREAM_UNAVAILABLE when the upstream fails', async () => {
    await fault('eastmoney', 'http')
    const { body } = await getJson('/v1/macro?names=cpi')
    expect(body).toMatchObject({ ok: false, code: 'UPSTREAM_UNAVAILABLE', data: [] })
    expect(body.errors.cpi).toMatch(/http/)
  })

  it('refuses an unknown name with a 422 listing the valid ones', async () => {
    const { status, body } = await getJson('/v1/macro?region=jp&names=cpi,gdp')
    expect(status).toBe(422)
    expect(body.detail[0].loc).toEqual(['query', 'names'])
    expect(body.detail[0].msg).toContain('unknown indicator gdp for region jp; valid names: cpi, policy_rate')
  })

  it('lists the catalogue of every region in the OpenAPI document', async () => {
    const { body } = await getJson('/openapi.json')
    const text = body.paths['/v1/macro'].get.description as string
    for (const region of Object.keys(MACRO_CATALOGUE) as Array<keyof typeof MACRO_CATALOGUE>) {
      for (const s of MACRO_CATALOGUE[region]) expect(text).toContain(`\`${s.name}\` (${s.title}; ${s.unit}; ${s.frequency})`)
    }
  })

  it('refuses a bad region or count, and a call without a key', async () => {
    expect((await getJson('/v1/macro?region=uk')).body.detail[0].loc).toEqual(['query', 'region'])
    expect((await getJson('/v1/macro?count=0')).body.detail[0].loc).toEqual(['query', 'count'])
    expect((await getJson('/v1/macro', ANONYMOUS)).status).toBe(401)
  })
})

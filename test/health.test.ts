import { beforeEach, describe, expect, it } from 'vitest'
import { fault, getJson, resetWorld } from './helpers'

describe('GET /v1/health', () => {
  beforeEach(() => resetWorld())

  it('has ok, uptime_s, data_ready and tiers, says the data is simulated under the emulator, and has no envelope', async () => {
    const { status, body, headers } = await getJson('/v1/health')
    expect(status).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['data_ready', 'ok', 'tiers', 'upstream', 'uptime_s'])
    expect(body).toMatchObject({ ok: true, data_ready: true, tiers: ['free', 'trial', 'standard', 'pro', 'unlimited'], upstream: 'emulator' })
    expect(headers.get('x-data-simulated')).toBe('true')
    expect(Number.isInteger(body.uptime_s)).toBe(true)
  })

  it('reports data_ready false once every channel circuit is open, and the service still answers', async () => {
    for (const ch of ['eastmoney', 'tencent', 'sina'] as const) await fault(ch, 'http')
    for (let i = 0; i < 3; i++) await getJson('/v1/quote?code=sh600519')
    const { status, body } = await getJson('/v1/health')
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, data_ready: false })
  })

  it('answers another method with 405 METHOD_NOT_ALLOWED and Allow (as documented), an unknown path with 404', async () => {
    const { status, body, headers } = await getJson('/v1/health', { method: 'POST' })
    expect(status).toBe(405)
    expect(body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' })
    expect(headers.get('allow')).toBe('GET, HEAD')
    expect((await getJson('/v1/health/nope')).status).toBe(404)
  })
})

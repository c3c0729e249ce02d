import { beforeEach, describe, expect, it } from 'vitest'
import { getJson, makeKey, resetWorld } from './helpers'

let key: string
const from = (ip: string, method = 'GET') => ({ method, headers: { authorization: `Bearer ${key}`, 'cf-connecting-ip': ip } })

describe('/v1/ip-whitelist: read, replace and clear', () => {
  beforeEach(async () => {
    await resetWorld()
    key = await makeKey('unlimited')
  })

  it('starts empty: the key works from any IP', async () => {
    const { status, body } = await getJson('/v1/ip-whitelist', from('203.0.113.1'))
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: true, endpoint: 'ip-whitelist', data: { ips: [], count: 0, max: 50 } })
  })

  it('POST fills it, keeping the caller IP so it cannot lock itself out; other IPs then get 403', async () => {
    const set = await getJson('/v1/ip-whitelist?ips=198.51.100.7,2001:DB8::1', from('203.0.113.1', 'POST'))
    expect(set.status).toBe(200)
    expect(set.body.data).toMatchObject({ ips: ['198.51.100.7', '2001:db8::1', '203.0.113.1'], caller_ip: '203.0.113.1', caller_ip_kept: true })
    expect((await getJson('/v1/kline?code=sh600519&count=1', from('203.0.113.1'))).status).toBe(200)
    expect((await getJson('/v1/kline?code=sh600519&count=1', from('198.51.100.7'))).status).toBe(200)
    const foreign = await getJson('/v1/kline?code=sh600519&count=1', from('192.0.2.99'))
    expect(foreign.status).toBe(403)
    expect(foreign.body).toMatchObject({ code: 'IP_NOT_ALLOWED', ip: '192.0.2.99' })
  })

  it('POST replaces rather than appends, and says when the caller IP was already listed', async () => {
    await getJson('/v1/ip-whitelist?ips=198.51.100.7', from('203.0.113.1', 'POST'))
    const again = await getJson('/v1/ip-whitelist?ips=198.51.100.8,203.0.113.1', from('203.0.113.1', 'POST'))
    expect(again.body.data).toMatchObject({ ips: ['198.51.100.8', '203.0.113.1'], caller_ip_kept: false })
    expect((await getJson('/v1/ip-whitelist', from('203.0.113.1'))).body.data.ips).toEqual(['198.51.100.8', '203.0.113.1'])
  })

  it('DELETE clears it and the key works from any IP again; a foreign IP cannot clear it', async () => {
    await getJson('/v1/ip-whitelist?ips=198.51.100.7', from('203.0.113.1', 'POST'))
    expect((await getJson('/v1/ip-whitelist', from('192.0.2.99', 'DELETE'))).status).toBe(403)
    const cleared = await getJson('/v1/ip-whitelist', from('198.51.100.7', 'DELETE'))
    expect(cleared.body.data).toMatchObject({ ips: [], count: 0 })
    expect((await getJson('/v1/kline?code=sh600519&count=1', from('192.0.2.99'))).status).toBe(200)
  })

  it.each([
    ['missing ips', ''],
    ['an invalid address', '?ips=198.51.100.7,not-an-ip'],
    ['an empty list', '?ips=,,'],
    ['more than 50 addresses with the caller', '?ips=' + Array.from({ length: 50 }, (_, i) => `10.0.0.${i + 1}`).join(',')],
  ])('POST with %s is 422 naming ips', async (_what, qs) => {
    const r = await getJson('/v1/ip-whitelist' + qs, from('203.0.113.1', 'POST'))
    expect(r.status).toBe(422)
    expect(r.body.detail[0].loc).toEqual(['query', 'ips'])
  })

  it('accepts exactly 50 when the caller IP is among them', async () => {
    const ips = Array.from({ length: 49 }, (_, i) => `10.0.0.${i + 1}`).concat('203.0.113.1')
    const r = await getJson('/v1/ip-whitelist?ips=' + ips.join(','), from('203.0.113.1', 'POST'))
    expect(r.status).toBe(200)
    expect(r.body.data.count).toBe(50)
  })

  it('is for the unlimited tier only', async () => {
    const pro = await makeKey('pro')
    const r = await getJson('/v1/ip-whitelist', { headers: { authorization: `Bearer ${pro}` } })
    expect(r.status).toBe(403)
    expect(r.body.min_tier).toBe('unlimited')
  })
})

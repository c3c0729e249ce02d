import { describe, expect, it } from 'vitest'
import { call, getJson } from './helpers'

describe('error contract', () => {
  it('answers an unknown path with 404 {error, code}', async () => {
    const { status, body } = await getJson('/v1/nope')
    expect(status).toBe(404)
    expect(body).toEqual({ error: expect.stringContaining('/v1/nope'), code: 'NOT_FOUND' })
  })

  it.each([
    ['keyed', '/v1/quote?code=sh600519&count=5000', {}],
    ['anonymous script', '/v1/quote?code=sh600519&count=300', { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.71' } }],
    ['anonymous browser', '/v1/quote?code=sh600519&count=300', { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.72', 'sec-fetch-mode': 'cors' } }],
    ['zod schema', '/v1/kline?code=sh600519&count=abc', {}],
  ])('echoes a 422 input as the string the caller sent (%s)', async (_who, path, init) => {
    const { status, body } = await getJson(path, init)
    expect(status).toBe(422)
    const sent = new URL('http://x' + path).searchParams.get('count')
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'count'], input: sent })
  })

  it('answers CORS preflight for any origin and exposes the rate-limit headers', async () => {
    const res = await call('/v1/quote?code=sh600519', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,x-pow' },
    })
    await res.text()
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-pow')
  })

  it.each([
    ['an ok answer', '/v1/quote?code=sh600519', 200],
    ['a 422', '/v1/quote?code=nope', 422],
    ['a 401', '/v1/quote?code=sh600519&key=mk_unknown', 401],
    ['a 404', '/v1/nowhere', 404],
  ])('lets any origin read %s and its rate-limit headers', async (_what, path, status) => {
    const res = await call(path, { headers: { Origin: 'https://example.org' } })
    await res.text()
    expect(res.status).toBe(status)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining')
  })

  it('sets a request id on every response', async () => {
    const res = await call('/v1/health')
    await res.text()
    expect(res.headers.get('x-request-id')).toBeTruthy()
  })
})

import { describe, expect, it } from 'vitest'
import { ANONYMOUS, call, getJson, makeKey } from './helpers'

describe('error contract', () => {
  it('answers an unknown path with 404 {error, code}', async () => {
    const { status, body } = await getJson('/v1/nope')
    expect(status).toBe(404)
    expect(body).toEqual({ error: expect.stringContaining('/v1/nope'), code: 'NOT_FOUND' })
    // A long path is named as every input is echoed: 256 characters and its length.
    const long = await getJson(`/v1/${'p'.repeat(8000)}`)
    expect(long.body.error).toBe(`no route GET /v1/${'p'.repeat(252)}… (8004 characters); see /openapi.json`)
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

  it.each([
    ['/v1/quote?code=sh600519&code=sz000001', 'code'],
    ['/v1/kline?code=sh600519&period=day&period=week', 'period'],
    ['/v1/trade-calendar?year=2025&year=2026', 'year'],
  ])('refuses a repeated single-valued parameter with a 422 naming it (%s)', async (path, name) => {
    const { status, body } = await getJson(path)
    expect(status).toBe(422)
    expect(body.detail).toEqual([expect.objectContaining({ loc: ['query', name], msg: expect.stringContaining(`${name} is given 2 times`) })])
  })

  it('answers two different ?key= values with 400 KEY_CONFLICT, as a header key with another query key', async () => {
    const [a, b] = await Promise.all([makeKey('pro'), makeKey('pro')])
    const twice = await getJson(`/v1/quote?code=sh600519&key=${a}&key=${b}`, ANONYMOUS)
    expect(twice.status).toBe(400)
    expect(twice.body.code).toBe('KEY_CONFLICT')
    const same = await getJson(`/v1/quote?code=sh600519&key=${a}&key=${a}`, ANONYMOUS)
    expect(same.status).toBe(200)
  })

  it('cuts a long echoed input to 256 characters and says so', async () => {
    const long = 'x'.repeat(40_000)
    const { status, body } = await getJson(`/v1/quote?code=${long}`)
    expect(status).toBe(422)
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'code'], input: 'x'.repeat(256), input_truncated: true, input_length: 40_000 })
    expect(JSON.stringify(body).length, JSON.stringify(body).slice(0, 600)).toBeLessThan(2_000)
  })

  it('marks every /v1 answer nosniff; keyed answers no-store, the anonymous quote public for what is left of its cache bucket', async () => {
    const keyed = await call('/v1/quote?code=sh600519', { headers: { authorization: `Bearer ${await makeKey('pro')}` } })
    await keyed.text()
    expect(keyed.headers.get('x-content-type-options')).toBe('nosniff')
    expect(keyed.headers.get('cache-control')).toBe('no-store')
    const refused = await call('/v1/quote?code=nope')
    await refused.text()
    expect(refused.headers.get('cache-control')).toBe('no-store')
    const anon = await call('/v1/quote?code=sh600519', { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.73' } })
    await anon.text()
    expect(anon.status).toBe(200)
    expect(anon.headers.get('x-content-type-options')).toBe('nosniff')
    // The test clock stands at 10:30:00, the start of a five-minute bucket.
    expect(anon.headers.get('cache-control')).toMatch(/^public, max-age=(300|[1-2]\d\d|[1-9]\d?)$/)
  })

  it('answers an anonymous query too long for the KV cache (unknown parameters) from the route, not a 500', async () => {
    const { status, body } = await getJson(`/v1/quote?code=sh600519&x=${'9'.repeat(600)}`, { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.74' } })
    expect(status).toBe(200)
    expect(body.ok).toBe(true)
  })
})

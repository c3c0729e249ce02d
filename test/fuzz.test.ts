import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, resetWorld } from './helpers'

const ROUTES = ['/v1/health', '/v1/quote', '/v1/kline', '/v1/challenge', '/v1/usage', '/v1/ip-whitelist', '/openapi.json', '/v1/nope']
const NAMES = ['code', 'count', 'period', 'start', 'end', 'difficulty', 'ips', 'key', 'x']

const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('sh600519', 'sz000001,hk00700', 'us.DJI', 'fuRB2701', 'm5', 'm120', 'season', '2025-01-01', '2026-11-20', '0', '-1', '1212', '99999', '1e3', 'NaN', ',,,', 'sh600519,'.repeat(20)),
  fc.integer({ min: -10, max: 70000 }).map(String)
)

describe('no input makes a 500', () => {
  beforeAll(() => resetWorld())

  it.each(ROUTES)('%s with random query strings', async (route) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string()), value), { maxLength: 5 }), async (pairs) => {
        const qs = new URLSearchParams(pairs).toString()
        const res = await call(`${route}?${qs}`)
        const text = await res.text()
        expect(res.status, `${route}?${qs} → ${text.slice(0, 200)}`).toBeLessThan(500)
      }),
      { numRuns: 60 }
    )
  })

  it('raw, badly encoded query strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
        const res = await call(`/v1/kline?${encodeURI(raw).replaceAll('#', '%23')}%`)
        await res.text()
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 60 }
    )
  })
})

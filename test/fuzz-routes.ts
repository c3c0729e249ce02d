import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, resetWorld } from './helpers'

// Every GET operation of /openapi.json, fuzzed with its own parameter names (and strangers): a new
// route is covered the day it is registered. Plus a path that does not exist.
type Operation = { parameters?: Array<{ name: string }> }
const document = (await (await call('/openapi.json')).json()) as { paths: Record<string, { get?: Operation }> }
const ROUTES: Array<[string, string[]]> = [
  ...Object.entries(document.paths)
    .filter(([path, item]) => path.startsWith('/v1/') && item.get)
    .map(([path, item]) => [path, (item.get!.parameters ?? []).map((p) => p.name)] as [string, string[]]),
  ['/openapi.json', []],
  ['/v1/nope', []],
]

const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    'sh600519', 'sz000001,hk00700', 'bj920001', 'us.DJI', 'usAAPL', 'fuRB2701', 'pt0477', 'hk00700', 'm5', 'm120', 'season', 'summary', 'updown', 'technical',
    'detail', 'list', 'graph', 'hs', 'us', 'cn', 'gzmt', '茅台', 'cpi,pmi', 'LowPE', 'intersect([PE_TTM < 15, ROETTM > 15])', 'PE_TTM <', '('.repeat(40),
    'csv', 'json', 'money_flow', 'top10_holders', 'income',
    '2016-01-01', '2025-01-01', '2026-11-20', '2026-02-30', '9999-12-31', '0', '-1', '1212', '99999', 'true', '1e3', 'NaN', ',,,', '%', "'\"()", 'sh600519,'.repeat(20)
  ),
  fc.integer({ min: -10, max: 70000 }).map(String)
)

/**
 * Fuzzes one of `parts` shares of the routes (a route by its index modulo `parts`). The suite is cut
 * in files because the test pool's worker wrapper nests a Proxy per instance it constructs and a
 * file past about 1,400 requests overflows the stack (vitest-pool-workers 0.15, test-internal.mjs
 * createProxyPrototypeClass): a limit of the harness, not of the service.
 */
export function fuzzRoutes(part: number, parts: number, runs = 25) {
  const mine = ROUTES.filter((_, i) => i % parts === part)
  describe(`no input makes a 500 (routes ${part + 1} of ${parts})`, () => {
    beforeAll(async () => {
      await resetWorld()
      // The first whole-market count is a cold walk of the emulated market (seconds); the fuzz is about inputs, so it starts warm.
      await (await call('/v1/changedist')).text()
    }, 120_000)

    if (part === 0) {
      it('covers every documented GET route', () => {
        expect(ROUTES.length).toBeGreaterThan(30)
      })
    }

    it.each(mine)('%s with random query strings', async (route, names) => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names, 'key', 'x'), fc.string()), value), { maxLength: 5 }), async (pairs) => {
          const qs = new URLSearchParams(pairs).toString()
          const res = await call(`${route}?${qs}`)
          const text = await res.text()
          expect(res.status, `${route}?${qs} → ${text.slice(0, 200)}`).toBeLessThan(500)
          // A CSV answer (format=csv) is a table; every other 200 is an envelope.
          if (res.status === 200 && route.startsWith('/v1/') && route !== '/v1/health' && !res.headers.get('content-type')?.startsWith('text/csv')) expect(typeof JSON.parse(text).ok, `${route}?${qs}`).toBe('boolean')
        }),
        { numRuns: runs }
      )
    }, 90_000 * Math.max(1, runs / 25))

    if (part === parts - 1) {
      it('raw, badly encoded query strings', async () => {
        await fc.assert(
          fc.asyncProperty(fc.string({ maxLength: 60 }), async (raw) => {
            const res = await call(`/v1/kline?${encodeURI(raw).replaceAll('#', '%23')}%`)
            await res.text()
            expect(res.status).toBeLessThan(500)
          }),
          { numRuns: 60 }
        )
      }, 120_000)
    }
  })
}

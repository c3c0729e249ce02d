import access from '../docs/access.md?raw'
import architecture from '../docs/architecture.md?raw'
import readme from '../README.md?raw'
import { describe, expect, it } from 'vitest'
import { STREAM_LIMITS, TIER_LIMITS, TIERS } from '../src/access/tiers'
import { STALE_IF_ERROR, type StalePolicy } from '../src/store/reference-cache'
import { getJson } from './helpers'

/** The rows of the Markdown table of `page` between `<!-- name:begin` and `<!-- name:end -->`. */
function tableRows(page: string, name: string): string[][] {
  const block = page.split(`<!-- ${name}:begin`)[1]?.split(`<!-- ${name}:end -->`)[0] ?? ''
  return block
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---'))
    .slice(1)
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
}

describe('the tables of README.md and docs/ match the code', () => {
  it.each([
    ['README.md', readme],
    ['docs/access.md', access],
  ])('the tiers table of %s is src/access/tiers.ts', (_, page) => {
    const rows = tableRows(page, 'tiers')
    expect(rows.map((r) => r[0].replace(/ .*/, ''))).toEqual(['anonymous', ...TIERS.slice(1)])
    for (const [name, perMinute, heavy, batch, connections, symbols] of rows.slice(1)) {
      const t = TIER_LIMITS[name as keyof typeof TIER_LIMITS]
      const s = STREAM_LIMITS[name as keyof typeof STREAM_LIMITS]
      expect([Number(perMinute), Number(heavy), Number(batch), Number(connections), Number(symbols)]).toEqual([t.perMinute, t.heavyPerDay, t.technicalBatchSymbols, s.connections, s.symbols])
    }
    expect(rows[0].slice(4)).toEqual([String(STREAM_LIMITS.free.connections), String(STREAM_LIMITS.free.symbols)])
    expect(rows[0][1]).toContain(String(TIER_LIMITS.free.perMinute))
  })

  it('the stale-answers table of docs/architecture.md is STALE_IF_ERROR', () => {
    const words = (p: StalePolicy) => ('never' in p ? 'never' : 'session' in p ? 'latest complete session' : `${p.maxAgeMs / 86_400_000} days`)
    expect(tableRows(architecture, 'stale').map(([kind, limit]) => [kind, limit])).toEqual(Object.entries(STALE_IF_ERROR).map(([kind, p]) => [kind, words(p)]))
  })

  it('the endpoints table of docs/access.md is /openapi.json (x-min-tier, x-cost)', async () => {
    const { body } = await getJson('/openapi.json')
    const rows = tableRows(access, 'endpoints')
    expect(rows.length).toBe(Object.keys(body.paths).length)
    for (const [endpoint, tier, cost] of rows) {
      const [methods, path] = endpoint.replaceAll('`', '').split(' ')
      for (const method of methods.split('/')) {
        const op = body.paths[path]?.[method.toLowerCase()]
        expect(op, `${method} ${path} is documented`).toBeTruthy()
        expect(tier.split(' ')[0]).toBe(op['x-min-tier'])
        expect(Number(cost.split(' ')[0])).toBe(op['x-cost'])
      }
    }
  })
})

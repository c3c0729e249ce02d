import { describe, expect, it } from 'vitest'
import { services } from '../src/emulator/worker'
import { IsolateCaches } from '../src/runtime/isolate-caches'
import { getJson, resetWorld } from './helpers'

/**
 * Every cache an isolate keeps between requests, by the name its kind declares, with the module
 * that owns it (the table: docs/architecture.md, "Caches"). A new cache is a kind declared beside
 * its class and joins this list; a cache kept any other way is one `Services.reset()` cannot clear.
 */
const MADE_WITH_SERVICES = [
  'live quote lines and pages', // src/channels/live-lines.ts
  'recent daily bars', // src/channels/recent-bars.ts
  'shared market answers', // src/services/shared-answers.ts
  'reference answers', // src/store/reference-cache.ts
  'trading calendar table', // src/store/calendar-source.ts
  'latest technicals date', // src/store/technicals.ts
  'parsed technicals tables', // src/store/technicals.ts
  'indicator-state shards', // src/store/state-shards.ts
  'factor tables', // src/store/factor-table.ts
  'parsed stock histories', // src/store/history-cache.ts
  'industry-chain members', // src/store/chain-members.ts
  'owned tables (static assets)', // src/store/owned-tables.ts
]
const MADE_ON_FIRST_USE = [
  'API key records', // src/access/key-lookup.ts
  'keyed minutes leased to this isolate', // src/access/key-lease.ts
  'anonymous minutes leased to this isolate', // src/access/anon-lease.ts
  'anonymous answers in memory', // src/http/anon-cache.ts
  'envelope texts of shared answers', // src/http/shared-envelope.ts
  'live technical rows', // src/features/technical/live-items.ts
  "budget objects' counts read for /v1/status", // src/routes/status.ts
]

describe('caches', () => {
  it('are all kinds of one mechanism, and these are all of them', () => {
    expect([...IsolateCaches.names()].sort()).toEqual([...MADE_WITH_SERVICES, ...MADE_ON_FIRST_USE].sort())
  })

  it("the services' own are made with them; the others join on first use, in the same place", async () => {
    await resetWorld()
    expect(services.caches.names()).toEqual(expect.arrayContaining(MADE_WITH_SERVICES))
    const anonymous = { anonymous: true, headers: { 'cf-connecting-ip': '198.51.100.77' } }
    expect((await getJson('/v1/quote?code=sh600519&count=3', anonymous)).headers.get('x-cache')).toBe('MISS')
    await getJson('/v1/hot?limit=5')
    expect(services.caches.names()).toEqual(expect.arrayContaining(['anonymous answers in memory', 'envelope texts of shared answers']))
    for (const name of services.caches.names()) expect(IsolateCaches.names()).toContain(name)
  })
})

// The owned data tables in public/_data/ are the Worker's, not the public's (node --test src/cli/):
// wrangler.toml's [assets] as wrangler hands it to Miniflare (the router Cloudflare stands for), in
// front of a stand-in Worker whose every answer is a JSON 404. A request for /docs gets the static
// file; one for a table reaches the Worker, while the Worker's own ASSETS binding still reads it.
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { test } from 'node:test'
import { Miniflare } from 'miniflare'
import { ROOT } from './harness.mjs'

const WORKER = `export default {
  async fetch(req, env) {
    const url = new URL(req.url)
    if (url.pathname === '/__read') return env.ASSETS.fetch(new Request('https://assets/_data/industry-chains.json'))
    return Response.json({ code: 'NOT_FOUND' }, { status: 404 })
  },
}`

test('/_data/ answers the Worker\'s JSON 404 to the public; the Worker reads the tables through ASSETS', async () => {
  const { unstable_getMiniflareWorkerOptions } = createRequire(import.meta.url)('wrangler')
  const { assets } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml')).workerOptions
  const mf = new Miniflare({ modules: true, script: WORKER, compatibilityDate: '2026-05-01', assets })
  try {
    const docs = await mf.dispatchFetch('http://localhost/docs')
    assert.equal(docs.status, 200)
    assert.match(await docs.text(), /swagger-ui/)
    const table = await mf.dispatchFetch('http://localhost/_data/industry-chains.json')
    assert.equal(table.status, 404)
    assert.deepEqual(await table.json(), { code: 'NOT_FOUND' })
    const read = await mf.dispatchFetch('http://localhost/__read')
    assert.equal(read.status, 200)
    assert.ok(Array.isArray((await read.json()).groups))
  } finally {
    await mf.dispose()
  }
})

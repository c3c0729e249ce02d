import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Miniflare } from 'miniflare'
import { miniflareWithV8Flags } from './v8-flags.mjs'

// Holds `mb` megabytes of live doubles, then answers how many it holds.
const HOLDER = `export default { async fetch(req) {
  const mb = Number(new URL(req.url).searchParams.get('mb'))
  const held = []
  for (let i = 0; i < mb; i++) held.push(new Array(131072).fill(i + 0.5))
  return new Response(String(held.length))
} }`

// The runtime's abort report (its stack) is expected here: not printed.
const OPTIONS = { modules: true, script: HOLDER, compatibilityDate: '2026-05-01', handleRuntimeStdio: () => {} }

test('without flags the isolate holds 200 MB', async () => {
  const mf = new Miniflare(OPTIONS)
  try {
    assert.equal(await (await mf.dispatchFetch('http://x/?mb=200')).text(), '200')
  } finally {
    await mf.dispose()
  }
})

test('the runtime gets the V8 flags: an isolate past its heap limit aborts, one within it answers', async () => {
  const mf = await miniflareWithV8Flags(OPTIONS, ['--max-old-space-size=64'])
  try {
    assert.equal(await (await mf.dispatchFetch('http://x/?mb=20')).text(), '20')
    await assert.rejects(async () => (await mf.dispatchFetch('http://x/?mb=200')).text())
  } finally {
    await mf.dispose().catch(() => {})
  }
})

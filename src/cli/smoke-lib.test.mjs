import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runSmoke, smokeTable } from './smoke-lib.mjs'

const held = (id, host) => ({ endpoint: { id }, capture: { file: `${id}.json` }, url: new URL(`https://${host}/x`), headers: {} })

test('asks each endpoint once, and reports the same form or what changed', async () => {
  const rows = await runSmoke({
    held: [held('a.one', 'a.example'), held('a.one', 'a.example'), held('b.two', 'b.example')],
    readFile: () => new Uint8Array(),
    ask: async (h) => new Response(h.endpoint.id),
    departures: async (h) => (h.endpoint.id === 'b.two' ? ['$.x: a key the real host does not send'] : []),
  })
  assert.deepEqual(rows.map((r) => [r.endpoint, r.status]), [['a.one', 'same form'], ['b.two', 'changed']])
  assert.match(smokeTable(rows, 'emulator'), /2 endpoints: 1 same form, 1 changed, 0 unreachable/)
})

test('live: one request at a time, a gap between them, and a silent host is not asked again', async () => {
  const calls = []
  const slept = []
  const rows = await runSmoke({
    held: [held('a.one', 'down.example'), held('a.two', 'down.example'), held('b.one', 'up.example')],
    readFile: () => new Uint8Array(),
    departures: async () => [],
    gapMs: 3000,
    timeoutMs: 50,
    sleep: async (ms) => slept.push(ms),
    fetchImpl: async (url, init) => {
      calls.push(url.hostname)
      if (url.hostname === 'down.example') return new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)))
      return new Response('{}')
    },
  })
  assert.deepEqual(calls, ['down.example', 'up.example'])
  assert.deepEqual(slept, [3000])
  assert.deepEqual(rows.map((r) => r.status), ['unreachable', 'unreachable', 'same form'])
  assert.match(rows[0].detail, /no answer in 50 ms/)
})

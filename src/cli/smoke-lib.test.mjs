import assert from 'node:assert/strict'
import { test } from 'node:test'
import { beijingInstant, extensionOf, runSmoke, smokeTable } from './smoke-lib.mjs'

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

const probe = (id, host, path = '/p', extra = {}) => ({ endpoint: { id, captures: [] }, url: host ? new URL(`https://${host}${path}`) : null, headers: {}, ...extra })

/** A `record` that keeps what is written in memory. */
function memoryRecord(takenAt) {
  const files = new Map()
  return { files, record: { writeFile: async (name, bytes) => files.set(name, bytes), hourOf: () => 'session', upstream: 'live', ...(takenAt ? { takenAt } : {}) } }
}

test('--record: every endpoint once, each answer written byte for byte, and record.json lists them', async () => {
  const gbk = Uint8Array.from([0x76, 0x5f, 0x73, 0x68, 0x31, 0x3d, 0x22, 0xb9, 0xf3, 0xd6, 0xdd, 0x22, 0x3b, 0x0a]) // v_sh1="贵州"; in GBK
  const html = new TextEncoder().encode('<!DOCTYPE html><html><body>正文</body></html>')
  const json = new TextEncoder().encode('{"code":0,"data":[1]}')
  const answers = { 'q.example': [gbk, 'text/plain; charset=GBK'], 'page.example': [html, 'text/html'], 'api.example': [json, 'application/json'] }
  const calls = []
  const { files, record } = memoryRecord()
  const rows = await runSmoke({
    held: [held('q.lines', 'q.example')],
    probes: [probe('page.one', 'page.example'), probe('api.rank', 'api.example', '/rank', { body: '{"pageNo":1}' }), probe('none.yet', null)],
    record,
    readFile: () => new Uint8Array(),
    departures: async () => [],
    now: () => Date.parse('2026-11-20T02:30:00Z'),
    fetchImpl: async (url, init) => {
      calls.push([url.hostname, init.method ?? 'GET', init.body])
      const [bytes, type] = answers[url.hostname]
      return new Response(bytes, { headers: { 'content-type': type } })
    },
  })
  assert.deepEqual(calls, [['q.example', 'GET', undefined], ['page.example', 'GET', undefined], ['api.example', 'POST', '{"pageNo":1}']])
  assert.deepEqual(rows.map((r) => [r.endpoint, r.status]), [['q.lines', 'same form'], ['page.one', 'recorded'], ['api.rank', 'recorded'], ['none.yet', 'not asked']])
  assert.deepEqual([...files.keys()].sort(), ['api.rank.json', 'page.one.html', 'q.lines.js', 'record.json'])
  assert.deepEqual(files.get('q.lines.js'), gbk)
  assert.deepEqual(files.get('page.one.html'), html)
  assert.deepEqual(files.get('api.rank.json'), json)
  const listed = JSON.parse(new TextDecoder().decode(files.get('record.json')))
  assert.deepEqual(listed[0], {
    id: 'q.lines',
    request: 'https://q.example/x',
    status: 200,
    contentType: 'text/plain; charset=GBK',
    taken: '2026-11-20T10:30:00+08:00',
    hour: 'session',
    file: 'q.lines.js',
    bytes: gbk.length,
    upstream: 'live',
  })
  assert.equal(listed[2].method, 'POST')
  assert.deepEqual(listed.map((e) => e.probe), [undefined, true, true, undefined])
  assert.deepEqual(listed[3], { id: 'none.yet', request: null, status: null, note: 'no probe' })
  const table = smokeTable(rows, 'live hosts', { recording: true })
  assert.match(table, /4 endpoints: 1 same form, 0 changed, 0 unreachable, 2 recorded, 0 other HTTP status, 1 not asked/)
})

test('--record: a probe that answers another status is listed with it; the time is the emulator\'s when given', async () => {
  const { files, record } = memoryRecord(() => Date.parse('2026-11-21T03:00:00Z'))
  const rows = await runSmoke({
    held: [],
    probes: [probe('gone.page', 'page.example')],
    record,
    readFile: () => new Uint8Array(),
    departures: async () => [],
    ask: async () => new Response('not here', { status: 404 }),
  })
  assert.deepEqual(rows.map((r) => r.status), ['HTTP 404'])
  assert.equal(new TextDecoder().decode(files.get('gone.page.txt')), 'not here')
  const [entry] = JSON.parse(new TextDecoder().decode(files.get('record.json')))
  assert.equal(entry.status, 404)
  assert.equal(entry.taken, '2026-11-21T11:00:00+08:00')
})

test('--record: a host that does not answer is asked once; its probes are unreachable, not retried', async () => {
  const calls = []
  const { files, record } = memoryRecord()
  const rows = await runSmoke({
    held: [held('a.one', 'down.example')],
    probes: [probe('a.two', 'down.example'), probe('a.three', 'down.example'), probe('b.one', 'up.example')],
    record,
    readFile: () => new Uint8Array(),
    departures: async () => [],
    timeoutMs: 50,
    fetchImpl: async (url, init) => {
      calls.push(url.hostname)
      if (url.hostname === 'down.example') return new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)))
      return new Response('{}')
    },
  })
  assert.deepEqual(calls, ['down.example', 'up.example'])
  assert.deepEqual(rows.map((r) => r.status), ['unreachable', 'unreachable', 'unreachable', 'recorded'])
  assert.deepEqual([...files.keys()].sort(), ['b.one.json', 'record.json'])
})

test('without --record, probes are not asked and nothing is written', async () => {
  const calls = []
  const rows = await runSmoke({
    held: [held('a.one', 'a.example')],
    probes: [probe('b.one', 'b.example')],
    readFile: () => new Uint8Array(),
    departures: async () => [],
    fetchImpl: async (url) => {
      calls.push(url.hostname)
      return new Response('{}')
    },
  })
  assert.deepEqual(calls, ['a.example'])
  assert.deepEqual(rows.map((r) => r.endpoint), ['a.one'])
  assert.doesNotMatch(smokeTable(rows, 'live hosts'), /recorded/)
})

test('the extension of an answer: JSON, script lines and JSONP, a page, else text', () => {
  const enc = (s) => new TextEncoder().encode(s)
  assert.equal(extensionOf(enc(' {"a":1}'), 'text/plain'), 'json')
  assert.equal(extensionOf(enc('var hq_str_sh600519="a,b";'), ''), 'js')
  assert.equal(extensionOf(enc('v_sh600519="1~2";'), ''), 'js')
  assert.equal(extensionOf(enc('kline_dayqfq={"code":0}'), ''), 'js')
  assert.equal(extensionOf(enc('/*<script>location.href="//sina.com";</script>*/\ncb({"a":1})'), ''), 'js')
  assert.equal(extensionOf(enc('=([{"day":"2026-11-20"}])'), ''), 'js')
  assert.equal(extensionOf(enc('<html><body></body></html>'), ''), 'html')
  assert.equal(extensionOf(enc('plain words'), 'text/plain'), 'txt')
})

test('an instant in Beijing time', () => assert.equal(beijingInstant(Date.parse('2026-11-29T03:05:09Z')), '2026-11-29T11:05:09+08:00'))

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'node:test'
import { adoptRecording, fixtureDir, planAdoption, withCapture } from './adopt-lib.mjs'
import { readCatalogue } from './captures-lib.mjs'

const CATALOGUE = `[
  {
    "id": "dc.holders",
    "url": "https://dc.example/api/get?reportName=HOLDERS",
    "report": "HOLDERS",
    "callers": ["src/channels/dc/holders.ts"],
    "captures": [],
    "searched": "2026-11-29: find_string \\"HOLDER\\" (mocks only; a [bracket] and a \\"quote\\")",
    "probe": "https://dc.example/api/get?reportName=HOLDERS&filter=600519"
  },
  {
    "id": "dc.old",
    "url": "https://dc.example/api/get?reportName=OLD",
    "report": "OLD",
    "callers": [
      "src/channels/dc/old.ts"
    ],
    "captures": [
      {
        "file": "test/fixtures/dc/old-2019.json",
        "request": null,
        "taken": "2019-05-06",
        "hour": "unknown",
        "source": "a 2019 blog post"
      }
    ],
    "searched": null,
    "probe": "https://dc.example/api/get?reportName=OLD&filter=600519"
  },
  {
    "id": "dc.held",
    "url": "https://dc.example/api/get?reportName=HELD",
    "report": "HELD",
    "callers": ["src/channels/dc/held.ts"],
    "captures": [{ "file": "test/fixtures/dc/held.json", "request": "https://dc.example/api/get?reportName=HELD", "taken": "2026-01-05", "hour": "unknown", "source": "x" }],
    "searched": null
  }
]
`
const LINES = `[
  {
    "id": "q.lines",
    "url": "https://q.example/q={codes}",
    "report": null,
    "charset": "gbk",
    "callers": ["src/channels/q/lines.ts"],
    "captures": [],
    "searched": "nothing found",
    "probe": "https://q.example/q=sh600519"
  }
]
`

const endpoints = [...JSON.parse(CATALOGUE).map((e) => ({ ...e, family: 'dc' })), ...JSON.parse(LINES).map((e) => ({ ...e, family: 'q' }))]

const live = (id, file, extra = {}) => ({ id, request: endpoints.find((e) => e.id === id).probe, status: 200, contentType: 'application/json', taken: '2026-12-01T10:31:02+08:00', hour: 'session', file, bytes: 3, upstream: 'live', probe: true, ...extra })

test('an endpoint goes where its host\'s captures are, else under its family\'s name', () => {
  assert.equal(fixtureDir(endpoints[0], endpoints), 'test/fixtures/dc')
  assert.equal(fixtureDir(endpoints[3], endpoints), 'test/fixtures/q')
})

test('adopts live 200 answers of endpoints without a held capture, and says why it leaves the rest', () => {
  const entries = [
    live('dc.holders', 'dc.holders.json'),
    live('dc.old', 'dc.old.json', { status: 403 }),
    { ...live('dc.held', 'dc.held.json'), request: 'https://dc.example/api/get?reportName=HELD', probe: undefined },
    { ...live('q.lines', 'q.lines.js'), upstream: 'emulator' },
    { id: 'gone', request: null, status: null, note: 'no probe' },
    { id: 'dc.old', request: 'https://dc.example/x', status: null, note: 'dc.example: no answer in 10000 ms', upstream: 'live' },
  ]
  const { adopt, skip } = planAdoption(entries, endpoints, () => false)
  assert.deepEqual(adopt.map((a) => a.capture), [
    {
      file: 'test/fixtures/dc/holders-recorded-2026-12-01.json',
      request: 'https://dc.example/api/get?reportName=HOLDERS&filter=600519',
      taken: '2026-12-01T10:31:02+08:00',
      hour: 'session',
      source: 'recorded with npm run smoke -- --live --record on 2026-12-01 from dc.example',
    },
  ])
  assert.deepEqual(skip, [
    { id: 'dc.old', why: 'HTTP 403' },
    { id: 'dc.held', why: 'has a held capture (the smoke run compares it)' },
    { id: 'q.lines', why: 'not a live answer (emulator): record it with --live' },
    { id: 'gone', why: 'not in the catalogue' },
    { id: 'dc.old', why: 'dc.example: no answer in 10000 ms' },
  ])
  // Adopted once: the same recording again finds the file there.
  assert.deepEqual(planAdoption(entries.slice(0, 1), endpoints, () => true).skip, [{ id: 'dc.holders', why: 'test/fixtures/dc/holders-recorded-2026-12-01.json is there already' }])
})

test('the catalogue edit touches only the adopted entry: an empty list, or one with captures, and searched cleared', () => {
  const capture = { file: 'test/fixtures/dc/x.json', request: 'https://dc.example/y', taken: '2026-12-01T10:31:02+08:00', hour: 'session', source: 'recorded' }
  const first = withCapture(CATALOGUE, 'dc.holders', capture)
  const parsed = JSON.parse(first)
  assert.deepEqual(parsed[0].captures, [capture])
  assert.equal(parsed[0].searched, null)
  assert.deepEqual(parsed.slice(1), JSON.parse(CATALOGUE).slice(1))
  assert.equal(first.slice(first.indexOf('"id": "dc.old"')), CATALOGUE.slice(CATALOGUE.indexOf('"id": "dc.old"')))
  assert.match(first, /"captures": \[\n {6}\{\n {8}"file": "test\/fixtures\/dc\/x\.json",/)

  const second = JSON.parse(withCapture(CATALOGUE, 'dc.old', capture))
  assert.deepEqual(second[1].captures.map((c) => c.file), ['test/fixtures/dc/old-2019.json', 'test/fixtures/dc/x.json'])
  assert.deepEqual(second[0], JSON.parse(CATALOGUE)[0])
  assert.throws(() => withCapture(CATALOGUE, 'nope', capture), /nope is not in this catalogue file/)
})

test('every endpoint of the real catalogue that has a probe can take a capture, and nothing else in its file changes', () => {
  const capture = { file: 'test/fixtures/x/y.json', request: 'https://x.example/', taken: '2026-12-01T10:31:02+08:00', hour: 'session', source: 'recorded' }
  const dir = new URL('../data/upstreams/', import.meta.url).pathname
  const real = readCatalogue(dir)
  for (const e of real.filter((x) => x.probe)) {
    const text = readFileSync(join(dir, `${e.family}.json`), 'utf8')
    const after = JSON.parse(withCapture(text, e.id, capture))
    const before = JSON.parse(text)
    const i = before.findIndex((x) => x.id === e.id)
    assert.deepEqual(after[i], { ...before[i], captures: [...before[i].captures, capture], searched: null }, e.id)
    assert.deepEqual(after.filter((_, k) => k !== i), before.filter((_, k) => k !== i), e.id)
  }
})

test('adoptRecording copies the bytes as recorded, appends SOURCE.md, and writes the catalogue', () => {
  const gbk = new Uint8Array([0x76, 0x5f, 0xb9, 0xf3, 0xd6, 0xdd])
  const files = new Map([
    ['rec/record.json', new TextEncoder().encode(JSON.stringify([live('dc.holders', 'dc.holders.json'), { ...live('q.lines', 'q.lines.js'), method: 'POST', body: '{"a":1}', contentType: 'text/plain; charset=GBK' }]))],
    ['rec/dc.holders.json', new TextEncoder().encode('{}\n')],
    ['rec/q.lines.js', gbk],
    ['test/fixtures/dc/SOURCE.md', new TextEncoder().encode('# dc wire samples\n\n- `old-2019.json`: a blog post.\n')],
    ['src/data/upstreams/dc.json', new TextEncoder().encode(CATALOGUE)],
    ['src/data/upstreams/q.json', new TextEncoder().encode(LINES)],
  ])
  const io = { read: (f) => files.get(f), write: (f, b) => files.set(f, b), exists: (f) => files.has(f) }
  const { adopt } = adoptRecording('rec', endpoints, io)
  assert.equal(adopt.length, 2)
  assert.deepEqual(files.get('test/fixtures/q/lines-recorded-2026-12-01.js'), gbk)
  assert.equal(new TextDecoder().decode(files.get('test/fixtures/dc/holders-recorded-2026-12-01.json')), '{}\n')
  const dcSource = new TextDecoder().decode(files.get('test/fixtures/dc/SOURCE.md'))
  assert.match(dcSource, /^# dc wire samples\n\n- `old-2019\.json`: a blog post\.\n\n## holders-recorded-2026-12-01\.json\n\nRecorded with `npm run smoke -- --live --record` at 2026-12-01T10:31:02\+08:00 \(Beijing time; session\): `https:\/\/dc\.example\/api\/get\?reportName=HOLDERS&filter=600519`\./)
  const qSource = new TextDecoder().decode(files.get('test/fixtures/q/SOURCE.md'))
  assert.match(qSource, /^# q: wire samples\n\n## lines-recorded-2026-12-01\.js\n/)
  assert.match(qSource, /POST `https:\/\/q\.example\/q=sh600519` with the body `\{"a":1\}`/)
  assert.match(qSource, /kept byte for byte \(GBK, as the host sends it\)/)
  const q = JSON.parse(new TextDecoder().decode(files.get('src/data/upstreams/q.json')))[0]
  assert.equal(q.captures[0].encoding, 'gbk')
  assert.equal(q.searched, null)
  assert.equal(JSON.parse(new TextDecoder().decode(files.get('src/data/upstreams/dc.json')))[0].captures[0].file, 'test/fixtures/dc/holders-recorded-2026-12-01.json')
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatDuration, parseCli, progressLine, UsageError } from './backfill-lib.mjs'

test('parses the options with their defaults', () => {
  assert.deepEqual(parseCli([], {}), { help: false, from: undefined, to: undefined, url: 'http://127.0.0.1:8787', token: undefined, parallel: 1, chunkSize: undefined, restart: false })
  const o = parseCli(['--from', '2026-10-20', '--to=2026-11-20', '--url', 'http://x:9/', '--parallel', '3', '--restart'], { ADMIN_TOKEN: 't' })
  assert.equal(o.from, '2026-10-20')
  assert.equal(o.to, '2026-11-20')
  assert.equal(o.url, 'http://x:9')
  assert.equal(o.token, 't')
  assert.equal(o.parallel, 3)
  assert.equal(o.restart, true)
  assert.equal(parseCli([], { PORT: '8799' }).url, 'http://127.0.0.1:8799')
  assert.equal(parseCli(['-h']).help, true)
})

test('refuses what it cannot use', () => {
  for (const argv of [['--from', '2026/10/20'], ['--parallel', '0'], ['--chunk-size', '500'], ['--nope'], ['x'], ['--url', 'localhost:8787']]) {
    assert.throws(() => parseCli(argv, {}), UsageError, argv.join(' '))
  }
})

test('formats durations and the progress line with an ETA from this session’s rate', () => {
  assert.equal(formatDuration(83), '1:23')
  assert.equal(formatDuration(3725), '1:02:05')
  assert.equal(formatDuration(NaN), '--:--')
  const line = progressLine({ label: 'chunks', done: 30, total: 60, elapsed: 20, doneHere: 10, width: 10 })
  assert.equal(line, 'chunks [#####·····] 30/60  50%  elapsed 0:20  ETA 1:00')
  assert.match(progressLine({ label: 'x', done: 0, total: 5, elapsed: 0, doneHere: 0 }), /ETA --:--/)
  assert.match(progressLine({ label: 'x', done: 5, total: 5, elapsed: 9, doneHere: 5 }), /100%.*ETA 0:00/)
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { readFileSync } from 'node:fs'
import { coverage, coverageMarkdown, formatCoverage, readCatalogue, UPSTREAMS_PAGE, withCoverage } from './captures-lib.mjs'

const endpoint = (over) => ({ id: 'x.a', url: 'https://x/a', report: null, callers: [], captures: [], searched: null, ...over })
const capture = { file: 'package.json', request: null, taken: '2026-01-05', hour: 'unknown', source: 'here' }

test('counts captured endpoints and lists the rest with what was searched', () => {
  const report = coverage([endpoint({ captures: [capture] }), endpoint({ id: 'x.b', searched: 'code search for x/b' })])
  assert.equal(report.captured.length, 1)
  assert.deepEqual(report.problems, [])
  const text = formatCoverage(report)
  assert.match(text, /2 endpoints: 1 with a real capture, 1 without/)
  assert.match(text, /- x\.b \(https:\/\/x\/a\): code search for x\/b/)
})

test('flags a missing fixture, an id listed twice and an entry with neither capture nor search', () => {
  const report = coverage([endpoint({ captures: [{ ...capture, file: 'nowhere.json' }] }), endpoint({})])
  assert.deepEqual(report.problems, ['x.a: nowhere.json is not on disk', 'x.a: listed twice', 'x.a: neither a capture nor what was searched'])
})

test("docs/upstreams.md lists the catalogue's coverage as it is (npm run captures -- --docs)", () => {
  const page = readFileSync(UPSTREAMS_PAGE, 'utf8')
  const report = coverage(readCatalogue())
  assert.deepEqual(report.problems, [])
  assert.equal(page, withCoverage(page, coverageMarkdown(report)))
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fileTimes, slowestTable } from './slowest-files.mjs'

/** A test module as vitest's reporter API hands it over. */
const module = (file, project, d) => ({
  moduleId: `/repo/${file}`,
  project: { name: project, config: { root: '/repo' } },
  diagnostic: () => ({ environmentSetupDuration: 0, prepareDuration: d.prepare ?? 0, setupDuration: 0, collectDuration: d.collect, duration: d.run }),
})

const modules = [
  module('src/a.test.ts', 'unit', { collect: 100, run: 900 }),
  module('test/b.test.ts', 'workerd', { prepare: 50, collect: 6000, run: 2000 }),
  module('test/c.test.ts', 'workerd', { collect: 10, run: 30000 }),
]

test('splits each file into setup, import and run, with its path from the root', () => {
  assert.deepEqual(fileTimes(modules)[1], { file: 'test/b.test.ts', project: 'workerd', setup: 50, collect: 6000, run: 2000 })
})

test('lists the slowest first, after each project\'s totals, and only as many as asked', () => {
  const lines = slowestTable(fileTimes(modules), 2).split('\n')
  assert.match(lines[2], /^  unit: 1 files, setup 0\.0, import 0\.1, run 0\.9$/)
  assert.match(lines[3], /^  workerd: 2 files, setup 0\.1, import 6\.0, run 32\.0$/)
  assert.match(lines[5], /^ +30\.0 +0\.0 +0\.0 +30\.0  test\/c\.test\.ts \(workerd\)$/)
  assert.match(lines[6], /^ +8\.1 +0\.1 +6\.0 +2\.0  test\/b\.test\.ts \(workerd\)$/)
  assert.equal(lines.length, 7)
})

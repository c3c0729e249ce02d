import assert from 'node:assert/strict'
import { test } from 'node:test'
import { heavyFirst } from './heavy-first.mjs'

const file = (project, path) => ({ project, path })
const order = (files) => heavyFirst(files, (f) => f.project, (f) => f.path).map((f) => `${f.project}:${f.path}`)

test('moves the heavy files of each project to its front, in HEAVY\'s order, and keeps the rest as vitest sorted them', () => {
  const files = [
    file('unit', 'src/a.test.ts'),
    file('unit', 'src/b.test.ts'),
    file('workerd', 'test/quote.test.ts'),
    file('workerd', 'test/fault-matrix-2.test.ts'),
    file('workerd', 'test/health.test.ts'),
    file('workerd', 'test/clock-sweep-1.test.ts'),
    file('workerd', 'test/fault-matrix-1.test.ts'),
  ]
  assert.deepEqual(order(files), [
    'unit:src/a.test.ts',
    'unit:src/b.test.ts',
    'workerd:test/clock-sweep-1.test.ts',
    'workerd:test/fault-matrix-2.test.ts',
    'workerd:test/fault-matrix-1.test.ts',
    'workerd:test/quote.test.ts',
    'workerd:test/health.test.ts',
  ])
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { instantMs, quantile, random, zipf } from './bench-many-users.mjs'

test('the generator is deterministic per seed, in [0, 1)', () => {
  const [a, b] = [random(7), random(7)]
  const xs = Array.from({ length: 1000 }, () => a())
  assert.deepEqual(xs.slice(0, 5), Array.from({ length: 5 }, () => b()))
  assert.ok(xs.every((x) => x >= 0 && x < 1))
})

test('Zipf ranks: rank k drawn about 1/(k+1) as often as rank 0', () => {
  const draw = zipf(1000, random(1))
  const counts = new Array(1000).fill(0)
  for (let k = 0; k < 200_000; k++) counts[draw()]++
  assert.ok(counts[0] > counts[1] && counts[1] > counts[3] && counts[3] > counts[99])
  assert.ok(Math.abs(counts[1] / counts[0] - 0.5) < 0.05)
  assert.ok(Math.abs(counts[9] / counts[0] - 0.1) < 0.03)
})

test('quantiles of the answer ages', () => {
  assert.equal(quantile([], 0.5), null)
  assert.equal(quantile([3, 1, 2], 0.5), 2)
  assert.equal(quantile(Array.from({ length: 100 }, (_, k) => k), 0.99), 99)
})

test("an answer's age is read from an instant, never from a date", () => {
  assert.equal(instantMs('2026-11-20T10:30:03+08:00'), Date.parse('2026-11-20T02:30:03Z'))
  assert.equal(instantMs('2026-11-20T09:30:03-05:00'), Date.parse('2026-11-20T14:30:03Z'))
  assert.equal(instantMs('2026-11-20'), null)
  assert.equal(instantMs('2026-11-20 10:30:03'), null)
})

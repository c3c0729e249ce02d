import assert from 'node:assert/strict'
import { test } from 'node:test'
import { barLines } from './bench-rounds.mjs'

const rows = [
  { name: 'bare', runs: [] },
  { name: '/v1/hot keyed', ratios: [0.6, 0.66, 0.7] },
  { name: '  … a copy of its answer', ratios: [0.7, 0.72, 0.9] },
  { name: '/v1/quote keyed', ratios: [0.75, 0.8, 0.72] },
  { name: '  … its upstream requests', ratios: [0.9, 0.95, 0.97] },
  { name: '  … its upstream requests, admitted', ratios: [0.6, 0.65, 0.68] },
  { name: '/v1/snapshot keyed', ratios: [0.5, 0.55, 0.6] },
  { name: 'kline-full', ratios: [0.1, 0.12, 0.14] },
  { name: '  … R2 object', ratios: [0.2, 0.2, 0.2] },
]

test('a bar below its goal whose ceiling is below the goal too says so', () => {
  const [line] = barLines(rows, [{ target: '/v1/hot keyed', goal: 0.85, ceiling: '  … a copy of its answer' }])
  assert.match(line, /^\/v1\/hot keyed +0\.66 × bare +goal 0\.85  not met: the goal is above the ceiling; ceiling 0\.72 \(… a copy of its answer\)$/)
})

test('a bar at or above its goal is met, with its ceiling beside it', () => {
  const [line] = barLines(rows, [{ target: '/v1/quote keyed', goal: 0.7, ceiling: '  … its upstream requests' }])
  assert.match(line, /0\.75 × bare +goal 0\.7  met; ceiling 0\.95/)
})

test('a goal under the bare ceiling but above the ceiling behind admission says so, with both ceilings', () => {
  const [line] = barLines(rows, [{ target: '/v1/snapshot keyed', goal: 0.7, ceiling: '  … its upstream requests', admitted: '  … its upstream requests, admitted' }])
  assert.match(line, /0\.55 × bare +goal 0\.7  not met: the goal is above the ceiling with admission; ceiling 0\.95 \(… its upstream requests\), with admission 0\.65$/)
})

test('a goal under both ceilings is plainly not met', () => {
  const [line] = barLines(rows, [{ target: '/v1/snapshot keyed', goal: 0.6, ceiling: '  … its upstream requests', admitted: '  … its upstream requests, admitted' }])
  assert.match(line, /0\.55 × bare +goal 0\.6  not met; ceiling 0\.95 \(… its upstream requests\), with admission 0\.65$/)
})

test('a bar stated against an anchor is measured against it', () => {
  const [line] = barLines(rows, [{ target: 'kline-full', goal: 0.6, per: '  … R2 object' }])
  assert.match(line, /^kline-full +0\.60 × … R2 object +goal 0\.6  met$/)
})

test('a bar whose rows did not run prints nothing', () => {
  assert.deepEqual(barLines(rows, [{ target: '/v1/orderbook keyed', goal: 0.65 }]), [])
})

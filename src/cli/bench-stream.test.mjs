import assert from 'node:assert/strict'
import { test } from 'node:test'
import { beijing, hostCounts, parseSseFrames, shardOf } from './bench-stream.mjs'

test('SSE frames: complete events out, the incomplete rest kept for the next chunk', () => {
  const first = parseSseFrames('retry: 3000\n\nevent: quote\ndata: {"code":"sh600519"}\n\nevent: status\nda')
  assert.deepEqual(first.events, [{ event: 'quote', data: '{"code":"sh600519"}' }])
  assert.equal(first.rest, 'event: status\nda')
  const second = parseSseFrames(first.rest + 'ta: {"phase":"session"}\n\n')
  assert.deepEqual(second.events, [{ event: 'status', data: '{"phase":"session"}' }])
  assert.equal(second.rest, '')
})

test('SSE frames: CRLF, comments, no event name (message), data over several lines', () => {
  const { events, rest } = parseSseFrames(': keep-alive\r\n\r\ndata: a\r\ndata: b\r\n\r\nevent:heartbeat\ndata:{}\n\n')
  assert.deepEqual(events, [{ event: 'message', data: 'a\nb' }, { event: 'heartbeat', data: '{}' }])
  assert.equal(rest, '')
})

test("the shard of a code is the Worker's (FNV-1a modulo 16)", () => {
  // Values computed by src/features/stream/stream-shard.ts's shardOf.
  assert.deepEqual(['sh600519', 'sz000001', 'sh600000', 'bj830799', 'sz300750'].map(shardOf), ['cn-1', 'cn-11', 'cn-8', 'cn-3', 'cn-7'])
})

test('upstream requests per host between two counts of the paths', () => {
  const before = { 'qt.gtimg.cn/q=': 4, 'hq.sinajs.cn/list=': 1 }
  const after = { 'qt.gtimg.cn/q=': 14, 'hq.sinajs.cn/list=': 1, 'push2.eastmoney.com/api/qt/ulist.np/get': 2, 'push2.eastmoney.com/api/qt/stock/get': 1 }
  assert.deepEqual(hostCounts(before, after), { 'qt.gtimg.cn': 10, 'push2.eastmoney.com': 3 })
})

test('Beijing time of a clock instant, as the quotes stamp it', () => {
  assert.equal(beijing(Date.parse('2026-11-20T10:31:00+08:00')), '2026-11-20T10:31:00+08:00')
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { shapeDifferences, shapeOf } from './wire-shape.mjs'

const utf8 = (s) => new TextEncoder().encode(s)
const json = (s) => shapeOf(utf8(s), 'application/json; charset=utf-8')

test('two answers of the same form, on other days and numbers, do not differ', () => {
  const a = json('{"rc":0,"data":{"klines":["2024-12-18,6.11,6.18,6.28,6.10,842743,542829495.00,2.96,1.64,0.10,1.03"],"dktotal":4621}}')
  const b = json('{"rc":0,"data":{"klines":["2026-11-20,16.01,16.20,16.33,15.90,12,123.00,2.00,-1.04,-0.10,1.00"],"dktotal":12}}')
  assert.deepEqual(shapeDifferences(a, b), [])
})

test('names a key, a row width, decimals and a class the real host never sends', () => {
  const real = json('{"rc":0,"data":{"klines":["2024-12-18,6.11,6.18,6.28,6.10,842743,542829495.00,2.96,1.64,0.10,1.03"]}}')
  const emu = json('{"rc":0,"data":{"klines":["2024-12-18,6.110,6.18,6.28,6.10,842743,542829495.00,2.96,1.64,0.10"],"extra":1}}')
  assert.deepEqual(shapeDifferences(real, emu), [
    '$.data.klines[]: rows of 10 fields, the real host sends 11',
    '$.data.klines[][1]: 3 decimals, the real host sends at most 2',
    '$.data.extra: a key the real host does not send',
  ])
  assert.deepEqual(shapeDifferences(json('{"t":"2026-09-11 15:00:00"}'), json('{"t":1757574000}')), ['$.t: int, the real host sends datetime:19'])
})

test('keeps decimals as written, and allows an integer where the host writes decimals', () => {
  assert.deepEqual(shapeDifferences(json('{"p":1.50}'), json('{"p":2}')), [])
  // A JSON number is written short (6.1 for 6.10): only places past the capture's two count.
  assert.deepEqual(shapeDifferences(json('{"p":1.5}'), json('{"p":1.25}')), [])
  assert.deepEqual(shapeDifferences(json('{"p":[1.5,2.25]}'), json('{"p":[1.253]}')), ['$.p[]: 3 decimals, the real host sends at most 2'])
  assert.deepEqual(shapeDifferences(json('{"p":"1.5"}'), json('{"p":"1.25"}')), ['$.p: 2 decimals, the real host sends at most 1'])
})

test("reads JSONP wrappers, Tencent's ~ lines and Sina's comma lines, and tells charsets apart", () => {
  assert.equal(shapeOf(utf8('/*<script>location.href="//sina.com";</script>*/\ncb([{"day":"2026-01-05","open":"1.00"}]);'), 'text/javascript').kind, 'json')
  assert.equal(shapeOf(utf8('var x=({"a":1});'), 'text/javascript').kind, 'json')
  const tencent = shapeOf(utf8('v_sh600519="1~name~600519~1275.16";\nv_sz000001="51~name~000001~11.02";\n'), 'text/html; charset=GBK')
  assert.equal(tencent.kind, 'lines')
  assert.equal(tencent.charset, 'gbk')
  const sina = shapeOf(utf8('var hq_str_sh600519="name,1354.500,1354.550,2026-05-13,15:00:03,00";\n'), 'application/javascript; charset=GB18030')
  assert.deepEqual([...sina.root.widths], [6])
  const differences = shapeDifferences(tencent, sina)
  assert.ok(differences.includes('$: comma-line, the real host sends tilde-line'), differences.join('\n'))
  assert.ok(differences.includes('$: rows of 6 fields, the real host sends 4'), differences.join('\n'))
  assert.deepEqual(shapeDifferences(tencent, shapeOf(utf8('v_sh600519="1~name~600519~1275.16";'), 'text/html; charset=utf-8')), ['charset: utf-8, the real host sends gbk'])
})

test('compares the part of an answer a capture kept, and tells a compact stamp from a long code', async () => {
  const { partOf } = await import('./wire-shape.mjs')
  const whole = json('{"version":"x","result":{"data":[{"A":1}]},"success":true}')
  assert.deepEqual(shapeDifferences(json('{"data":[{"A":2}]}'), partOf(whole, 'result')), [])
  assert.deepEqual(shapeDifferences(json('{"id":"20260911161500"}'), json('{"id":"15855238340715"}')), ['$.id: text-int, the real host sends stamp14'])
})

test("reads quote statements published on one line, a statement's body kept alone, and Sina's `=(…);`", () => {
  const oneLine = shapeOf(utf8('v_hk09988="100~a~09988~136.400"; v_usAAPL="200~b~AAPL.OQ~271.42~USD";'), 'text/html; charset=GBK')
  assert.equal(oneLine.kind, 'lines')
  assert.deepEqual([...oneLine.root.widths], [4, 5])
  const body = shapeOf(utf8(`龙芯中科,${Array(30).fill('1.000').join(',')},2024-09-30,15:00:01,00,\n`), 'application/javascript; charset=GB18030')
  assert.equal(body.kind, 'lines')
  assert.deepEqual([...body.root.widths], [35])
  assert.equal(shapeOf(utf8('=([{"day":"2026-03-18","open":"1489.000"}]);'), 'application/javascript').kind, 'json')
  // A US share class names its statement with a dot (Tencent v_usBRK.B, Sina hq_str_gb_brk.b).
  const dotted = shapeOf(utf8('v_usBRK.B="200~a~BRK.B.N~504.00";\nvar hq_str_gb_brk.b="";\n'), 'text/html; charset=GBK')
  assert.equal(dotted.kind, 'lines')
})

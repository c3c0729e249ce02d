// Tests for the pure half of `npm run fuzz` (node --test src/cli/): arguments, the generator over a
// small OpenAPI document with every feature it reads, and the report's arithmetic.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  DEFAULTS, HOSTILE_DATES, MAX_TARGET, UsageError, createGenerator, createReport, curlOf, encodeQuery, exitCodeOf, fitQuery,
  csvAsked, formatReport, hostileExpressions, isCsvAnswer, jsonExpected, loopbackOrigin, makeRng, operationsOf, parseFuzzArgs, parseJsonAnswer, percentile,
  recordResult, relationsOf, screenExpression, summarize, targetOf, validParams, vocabularyOf,
} from './fuzz-lib.mjs'

const TODAY = '2026-11-27'
const date = (name, extra = '') => ({ name, in: 'query', schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, description: `A day, YYYY-MM-DD${extra}` })
const DOC = {
  openapi: '3.1.0',
  paths: {
    '/v1/health': { get: { 'x-min-tier': 'free' } },
    '/v1/kline': {
      get: {
        'x-min-tier': 'free',
        'x-cost': 1,
        parameters: [
          { name: 'code', in: 'query', required: true, schema: { type: 'string', example: 'sh600519' }, description: 'Stock, index or ETF code with prefix' },
          { name: 'period', in: 'query', schema: { type: 'string', enum: ['day', 'week', 'm5'] }, description: 'Bar period' },
          { name: 'count', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1212, example: 30 }, description: 'Bars' },
          date('start', '; paired with end'),
          date('end', '; paired with start'),
        ],
      },
    },
    '/v1/trade-calendar': {
      get: {
        'x-min-tier': 'free',
        'x-cost': 1,
        parameters: [
          date('date', '. Not with start/end or year.'),
          date('start', '; paired with end'),
          date('end', '; paired with start'),
          { name: 'year', in: 'query', schema: { type: 'string', pattern: '^\\d{4}$' }, description: 'A whole year. Not with date or start/end.' },
        ],
      },
    },
    '/v1/screen': {
      get: {
        'x-min-tier': 'trial',
        'x-cost': 1,
        description: 'Screens.\n\n**Factors**:\n- `PE_TTM` — ratio — hs — P/E\n- `ROETTM` — % — hs — ROE\n- `LowPE` — hs — preset\n',
        parameters: [
          { name: 'expr', in: 'query', schema: { type: 'string' }, description: 'A factor expression. Give expr or preset.' },
          { name: 'preset', in: 'query', schema: { type: 'string' }, description: "A preset's name instead of expr: LowPE, HighROE" },
          { name: 'market', in: 'query', schema: { type: 'string', enum: ['hs', 'hk', ''] }, description: 'Market' },
        ],
      },
    },
    '/v1/industry-chain': {
      get: {
        'x-min-tier': 'trial',
        'x-cost': 1,
        description: 'Themes (锂电池, 光伏, …).',
        parameters: [
          { name: 'mode', in: 'query', schema: { type: 'string', enum: ['list', 'graph', 'stock'] }, description: '`list`: themes; `graph`: one theme (needs `topic`); `stock`: a stock (needs `code`)' },
          { name: 'topic', in: 'query', schema: { type: 'string', example: '锂电池' }, description: 'Theme; required with `mode=graph`' },
          { name: 'code', in: 'query', schema: { type: 'string' }, description: 'One A-share stock with its prefix; required with `mode=stock`' },
        ],
      },
    },
    '/v1/ip-whitelist': {
      get: { 'x-min-tier': 'unlimited' },
      post: { 'x-min-tier': 'unlimited', parameters: [{ name: 'ips', in: 'query', required: true, schema: { type: 'string' }, description: 'Comma-separated addresses' }] },
      delete: { 'x-min-tier': 'unlimited' },
    },
    '/v1/item/{id}': { get: { 'x-min-tier': 'free', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 9 } }] } },
  },
}

const take = (gen, n) => Array.from({ length: n }, () => gen.next())
const queryOf = (req) => [...new URLSearchParams(req.query)]
const realDate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s

test('arguments: defaults, numbers, loopback-only --url, pairs of options', () => {
  const d = parseFuzzArgs([])
  assert.equal(d.requests, 100_000)
  assert.equal(d.concurrency, 16)
  assert.equal(d.url, null)
  assert.equal(d.store, true)
  assert.equal(d.clock, null)
  assert.equal(parseFuzzArgs(['--requests', '2000']).requests, 2000)
  assert.equal(parseFuzzArgs(['--requests', '100_000']).requests, 100_000)
  assert.equal(parseFuzzArgs(['--clock', '2026-11-20T10:30:00+08:00']).clock, '2026-11-20T02:30:00.000Z')
  const ext = parseFuzzArgs(['--url', 'http://127.0.0.1:8787', '--keys', 'k1, k2,,k3'])
  assert.equal(ext.url, 'http://127.0.0.1:8787')
  assert.deepEqual(ext.keys, ['k1', 'k2', 'k3'])
  assert.equal(parseFuzzArgs(['-h']).help, true)
  for (const bad of [
    ['--requests', '0'], ['--requests', '-5'], ['--requests', '1e3'], ['--concurrency', 'many'], ['--concurrency', '100000'],
    ['--clock', 'tomorrow'], ['--clock', '2026-11-20T10:30:00'], ['--keys', 'k'], ['--url', 'http://127.0.0.1:8787'], ['--nope'],
    ['--url', 'http://127.0.0.1:8787', '--keys', 'k', '--no-store'], ['--seed', ''],
  ]) assert.throws(() => parseFuzzArgs(bad), UsageError, bad.join(' '))
})

test('only loopback addresses are targeted', () => {
  // What the URL parser makes of the host is what is checked (and connected to): 2130706433 is 127.0.0.1.
  for (const ok of ['http://2130706433:8787', 'http://127.0.0.1:8787', 'http://127.0.0.1:8787/', 'http://127.1.2.3:1', 'http://[::1]:8787', 'https://127.0.0.1']) {
    assert.match(loopbackOrigin(ok), /^https?:\/\/(127\.|\[::1\])/, ok)
  }
  for (const bad of [
    'http://example.com', 'http://10.0.0.1:8787', 'http://localhost:8787', 'http://127.0.0.1.nip.io', 'http://0.0.0.0:8787', 'http://[::]:8787',
    'http://128.0.0.1', 'http://user:pw@127.0.0.1', 'ftp://127.0.0.1', 'http://127.0.0.1:8787/v1', 'not a url',
  ]) assert.throws(() => loopbackOrigin(bad), UsageError, bad)
})

test('the random source replays for a seed and stays in range', () => {
  const a = makeRng('s')
  const b = makeRng('s')
  const xs = Array.from({ length: 100 }, () => a.next())
  assert.deepEqual(xs, Array.from({ length: 100 }, () => b.next()))
  assert.notDeepEqual(xs, Array.from({ length: 100 }, makeRng('t').next))
  assert.ok(xs.every((x) => x >= 0 && x < 1))
  const r = makeRng(1)
  const ints = Array.from({ length: 2000 }, () => r.int(3, 7))
  assert.deepEqual([...new Set(ints)].sort(), [3, 4, 5, 6, 7])
})

test("presets come from the preset parameter's enum, and are not taken for factors", () => {
  const v = vocabularyOf([{
    route: 'GET /v1/screen',
    description: '**Factors**:\n- `PE_TTM` — ratio — hs — P/E\n- `LowPE` — hs — preset\n- `HighDividend` — hs — preset\n',
    params: [{ name: 'preset', in: 'query', schema: { type: 'string', enum: ['LowPE', 'HighDividend'] }, description: "A preset's name instead of expr (the list below says what each selects)" }],
  }])
  assert.deepEqual(v.presets, ['LowPE', 'HighDividend'])
  assert.deepEqual(v.factors, ['PE_TTM'])
})

test('operations and what their descriptions name', () => {
  const ops = operationsOf(DOC)
  assert.deepEqual(ops.map((o) => o.route), [
    'GET /v1/health', 'GET /v1/kline', 'GET /v1/trade-calendar', 'GET /v1/screen', 'GET /v1/industry-chain',
    'GET /v1/ip-whitelist', 'POST /v1/ip-whitelist', 'DELETE /v1/ip-whitelist', 'GET /v1/item/{id}',
  ])
  assert.equal(ops[1].cost, 1)
  assert.equal(ops[6].minTier, 'unlimited')
  const v = vocabularyOf(ops)
  assert.deepEqual(v.factors, ['PE_TTM', 'ROETTM'])
  assert.deepEqual(v.presets, ['LowPE', 'HighROE'])
  assert.ok(v.themes.includes('锂电池') && v.themes.includes('光伏'))
  const rel = relationsOf(ops[2])
  assert.deepEqual(rel.get('date').notWith, ['start', 'end', 'year'])
  assert.deepEqual(rel.get('start').pairedWith, ['end'])
  assert.deepEqual(relationsOf(ops[3]).get('expr').oneOf, ['expr', 'preset'])
  assert.deepEqual(relationsOf(ops[4]).get('mode').needsByValue, { graph: ['topic'], stock: ['code'] })
  assert.deepEqual(relationsOf(ops[4]).get('topic').requiredWhen, [['mode', 'graph']])
})

test('valid parameters follow each schema and the stated relations', () => {
  const ops = operationsOf(DOC)
  const ctx = { today: TODAY, vocab: vocabularyOf(ops) }
  const rng = makeRng(7)
  const [kline, calendar, screen, chain] = [1, 2, 3, 4].map((i) => ops[i])
  const stockCodes = []
  for (let i = 0; i < 2000; i++) {
    const k = Object.fromEntries(validParams(rng, kline, ctx).map(([p, v]) => [p.name, v]))
    assert.ok(k.code, 'the required code is always there')
    if (k.period !== undefined) assert.ok(['day', 'week', 'm5'].includes(k.period))
    if (k.count !== undefined) assert.ok(/^\d+$/.test(k.count) && +k.count >= 1 && +k.count <= 1212, k.count)
    assert.equal('start' in k, 'end' in k, 'start and end come together')
    if (k.start) {
      assert.ok(realDate(k.start) && realDate(k.end), `${k.start} ${k.end}`)
      assert.ok(k.start <= k.end && k.end <= TODAY && k.start >= '2016-08-08')
    }
    const c = Object.fromEntries(validParams(rng, calendar, ctx).map(([p, v]) => [p.name, v]))
    if (c.date) assert.ok(!('start' in c) && !('year' in c), JSON.stringify(c))
    if (c.year) assert.ok(!('start' in c) && !('date' in c) && /^\d{4}$/.test(c.year) && c.year >= '2016' && c.year <= '2026')
    const s = validParams(rng, screen, ctx).map(([p]) => p.name)
    assert.equal(s.filter((n) => n === 'expr' || n === 'preset').length, 1, s.join())
    const ch = Object.fromEntries(validParams(rng, chain, ctx).map(([p, v]) => [p.name, v]))
    if (ch.mode === 'graph') assert.ok(ch.topic)
    if (ch.code) stockCodes.push(ch.code)
  }
  // A parameter that takes "One A-share stock" gets one most of the time (and now and then another kind of code).
  assert.ok(stockCodes.filter((c) => /^(sh|sz|bj)\d{6}$/.test(c)).length > stockCodes.length * 0.75)
})

/** A recogniser of the screen grammar the /v1/screen description gives (throws on anything else). */
function parseSet(text) {
  const tokens = text.match(/\d+(\.\d+)?(e\d+)?|[A-Za-z_][A-Za-z0-9_]*|<=|>=|==|!=|[<>()[\],+\-*/]/g)
  assert.equal(tokens.join(''), text.replace(/\s+/g, ''), 'every character is part of a token')
  let i = 0
  const peek = () => tokens[i]
  const eat = (t) => {
    if (t !== undefined && tokens[i] !== t) throw new Error(`expected ${t} at ${i}, got ${tokens[i]}`)
    return tokens[i++]
  }
  const atom = () => {
    if (peek() === '-') return eat('-'), atom()
    if (peek() === '(') return eat('('), sum(), eat(')')
    if (!/^[\dA-Za-z_]/.test(peek() ?? '')) throw new Error(`atom expected at ${i}`)
    eat()
  }
  const term = () => { atom(); while (peek() === '*' || peek() === '/') eat(), atom() }
  const sum = () => { term(); while (peek() === '+' || peek() === '-') eat(), term() }
  const set = () => {
    const f = peek()
    if ((f === 'intersect' || f === 'union') && tokens[i + 1] === '(') {
      eat(), eat('('), eat('['), set()
      while (peek() === ',') eat(), set()
      return eat(']'), eat(')')
    }
    if (f === 'exclude' && tokens[i + 1] === '(') return eat(), eat('('), set(), eat(','), set(), eat(')')
    if ((f === 'top' || f === 'bottom') && tokens[i + 1] === '(') return eat(), eat('('), sum(), eat(','), assert.match(eat(), /^\d+$/), eat(')')
    sum()
    assert.match(eat(), /^(<|<=|>|>=|==|!=)$/)
    sum()
  }
  set()
  if (i !== tokens.length) throw new Error(`trailing tokens at ${i}`)
}

test('screen expressions: generated ones parse as the grammar; hostile ones test its bounds', () => {
  const rng = makeRng(3)
  for (let i = 0; i < 500; i++) {
    const e = screenExpression(rng, ['PE_TTM', 'ROETTM'])
    assert.doesNotThrow(() => parseSet(e), e)
  }
  for (const bad of ['intersect([PE_TTM > 1,])', 'PE_TTM', 'top(PE_TTM)', 'PE_TTM > 1 > 2', '(PE_TTM > 1']) assert.throws(() => parseSet(bad), bad)
  const hostile = hostileExpressions(['PE_TTM'])
  assert.ok(hostile.some((e) => e.length === 2001) && hostile.some((e) => e.length === 2000))
  assert.ok(hostile.includes(`intersect([${Array(65).fill('PE_TTM > 1').join(', ')}])`))
  assert.ok(hostile.some((e) => e.startsWith('intersect(['.repeat(17))))
})

test('the generator covers every operation, replays for a seed, and differs for another', () => {
  const reqs = take(createGenerator(DOC, { seed: 'a', today: TODAY }), 3000)
  const labels = new Set(reqs.map((r) => r.label))
  for (const op of operationsOf(DOC)) assert.ok(labels.has(op.route), op.route)
  for (const extra of ['GET /openapi.json', 'GET /docs', 'unknown path', 'wrong method', 'HEAD', 'OPTIONS (preflight)']) assert.ok(labels.has(extra), extra)
  assert.deepEqual(take(createGenerator(DOC, { seed: 'a', today: TODAY }), 3000), reqs)
  assert.notDeepEqual(take(createGenerator(DOC, { seed: 'b', today: TODAY }), 50), reqs.slice(0, 50))
  assert.deepEqual(reqs.map((r) => r.n), reqs.map((_, i) => i))
  // path parameters are filled in
  assert.ok(reqs.filter((r) => r.label === 'GET /v1/item/{id}').every((r) => !r.path.includes('{')))
})

test('requests carry hostile values, odd query strings and every kind of caller', () => {
  const reqs = take(createGenerator(DOC, { seed: 'h', today: TODAY }), 4000)
  const values = reqs.flatMap((r) => queryOf(r).map(([k, v]) => [r, k, v]))
  const has = (what, pred) => assert.ok(values.some(([r, k, v]) => pred(r, k, v)), what)
  has('an integer out of its bounds', (r, k, v) => r.path === '/v1/kline' && k === 'count' && /^-?\d+$/.test(v) && (+v < 1 || +v > 1212))
  has('an impossible date', (r, k, v) => ['2026-02-30', '2026-13-01', '2025-02-29'].includes(v))
  has('a date in the future', (r, k, v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && v > TODAY && v < '2100')
  has('an enum value in the wrong case', (r, k, v) => k === 'period' && ['DAY', 'WEEK', 'M5'].includes(v))
  has('a long value', (r, k, v) => v.length >= 2000)
  has('a non-ASCII value', (r, k, v) => /[^\x00-\x7f]/.test(v))
  has('an injection-like value', (r, k, v) => v.includes('<script>') || v.includes("' OR '1'='1"))
  has('a control character', (r, k, v) => /[\x00-\x1f]/.test(v))
  has('an unknown parameter', (r, k) => r.mode !== 'extra' && ['x', 'foo', '__proto__', 'callback'].includes(k))
  has('a hostile screen expression', (r, k, v) => k === 'expr' && (v.startsWith('((((') || v.includes('__proto__') || v.length > 2000))
  assert.ok(reqs.some((r) => { const names = queryOf(r).map(([k]) => k); return new Set(names).size < names.length }), 'a repeated parameter')
  assert.ok(reqs.some((r) => r.mode === 'hostile' && /%zz|%C3(?![0-9A-F]{2}%)|%ED%A0%80|(^|&)%(&|$)/.test(r.query)), 'a badly encoded query')
  assert.ok(reqs.some((r) => r.label === 'GET /v1/kline' && !queryOf(r).some(([k]) => k === 'code')), 'a required parameter left out')
  const auth = new Set(reqs.map((r) => (r.auth.kind === 'key' ? `key ${r.auth.tier}` : r.auth.kind)))
  for (const kind of ['key unlimited', 'key pro', 'key standard', 'key trial', 'anon', 'bad', 'conflict']) assert.ok(auth.has(kind), kind)
  assert.ok(new Set(reqs.filter((r) => r.auth.kind === 'key').map((r) => r.auth.via)).size >= 4)
  assert.ok(reqs.some((r) => r.label === 'POST /v1/ip-whitelist') && reqs.some((r) => r.label === 'DELETE /v1/ip-whitelist'))
  for (const r of reqs.filter((x) => x.label === 'wrong method')) {
    const item = DOC.paths[r.path]
    if (item) assert.ok(!item[r.method.toLowerCase()], `${r.method} ${r.path} is documented`)
  }
  for (const r of reqs) assert.ok(targetOf(r).length <= MAX_TARGET, `${r.label}: ${targetOf(r).length} characters`)
  for (const r of reqs) assert.doesNotMatch(targetOf(r), /[^\x21-\x7e]|#/, 'the request line is printable ASCII without a fragment')
  for (const r of reqs) assert.doesNotMatch(r.path, /^\/__/, 'no control routes')
})

test('long queries are cut to fit the URL limit, keeping their names', () => {
  const q = fitQuery('/v1/x', [['codes', 'sh600519,'.repeat(5000)], ['a', 'b']], encodeQuery)
  assert.ok(q.length + '/v1/x?'.length <= MAX_TARGET)
  assert.ok(q.startsWith('codes=sh600519%2C') && q.endsWith('&a=b'))
  assert.equal(fitQuery('/v1/x', [['a', 'b']], encodeQuery), 'a=b')
})

test('percentiles are nearest-rank', () => {
  const xs = Float64Array.from({ length: 100 }, (_, i) => i + 1)
  assert.equal(percentile(xs, 50), 50)
  assert.equal(percentile(xs, 99), 99)
  assert.equal(percentile(xs, 100), 100)
  assert.equal(percentile(xs, 0), 1)
  assert.equal(percentile([7], 99), 7)
  assert.equal(percentile([1, 2, 3, 4], 50), 2)
  assert.equal(percentile([], 50), null)
})

test('what counts as a JSON answer', () => {
  assert.equal(parseJsonAnswer('application/json; charset=UTF-8', '{"ok":true}').json, true)
  assert.equal(parseJsonAnswer('application/problem+json', '{}').json, true)
  assert.equal(parseJsonAnswer('text/plain', '{"ok":true}').json, false)
  assert.equal(parseJsonAnswer('application/json', '{"ok":tru').json, false)
  assert.equal(parseJsonAnswer(null, '{}').json, false)
  const get = { method: 'GET', path: '/v1/quote' }
  assert.equal(jsonExpected(get, 200), true)
  assert.equal(jsonExpected({ method: 'HEAD', path: '/v1/quote' }, 200), false)
  assert.equal(jsonExpected({ method: 'OPTIONS', path: '/v1/quote' }, 204), false)
  assert.equal(jsonExpected({ method: 'GET', path: '/docs' }, 200), false)
  assert.equal(jsonExpected({ method: 'GET', path: '/v1' }, 404), true)
  assert.equal(jsonExpected({ method: 'GET', path: '/v10' }, 404), false)
})

test('a CSV answer counts as one only when the request asked for CSV', () => {
  assert.equal(csvAsked({ query: 'code=sh600519&format=csv' }), true)
  assert.equal(csvAsked({ query: 'format=json', headers: { accept: 'text/csv' } }), false)
  assert.equal(csvAsked({ query: 'code=sh600519', headers: { accept: 'text/csv' } }), true)
  assert.equal(csvAsked({ query: 'code=sh600519' }), false)
  assert.equal(isCsvAnswer('text/csv; charset=utf-8; header=present'), true)
  assert.equal(isCsvAnswer('text/plain'), false)
  const report = createReport()
  const csvBody = { status: 200, contentType: 'text/csv; charset=utf-8', body: 'date,open\r\n', ms: 5 }
  recordResult(report, { n: 1, label: 'GET /v1/quote', method: 'GET', path: '/v1/quote', query: 'code=sh600519&format=csv', auth: { kind: 'none' } }, { method: 'GET', target: '/v1/quote', curl: 'curl' }, csvBody)
  recordResult(report, { n: 2, label: 'GET /v1/quote', method: 'GET', path: '/v1/quote', query: 'code=sh600519', auth: { kind: 'none' } }, { method: 'GET', target: '/v1/quote', curl: 'curl' }, csvBody)
  recordResult(report, { n: 3, label: 'GET /v1/quote', method: 'GET', path: '/v1/quote', query: 'format=csv', auth: { kind: 'none' } }, { method: 'GET', target: '/v1/quote', curl: 'curl' }, { ...csvBody, status: 422 })
  assert.deepEqual(report.findings.nonJson.map((f) => f.n), [2, 3])
})

const shown = (target) => ({ method: 'GET', target, curl: `curl '${target}'` })
const req = (n, label, path, method = 'GET') => ({ n, label, path, method, mode: 'valid', auth: { kind: 'key', tier: 'unlimited', via: 'bearer' } })
const JSON_CT = 'application/json; charset=UTF-8'

test('the report: histograms, percentiles, and each kind of finding kept apart', () => {
  const report = createReport({ slowMs: 15_000, listCap: 2 })
  for (let i = 1; i <= 100; i++) recordResult(report, req(i, 'GET /v1/quote', '/v1/quote'), shown('/v1/quote'), { status: i <= 90 ? 200 : 429, contentType: JSON_CT, body: i <= 90 ? '{"ok":true}' : '{"error":"slow down","code":"RATE_LIMITED"}', ms: i })
  recordResult(report, req(101, 'GET /v1/kline', '/v1/kline'), shown('/v1/kline?x'), { status: 504, contentType: JSON_CT, body: '{"ok":false,"code":"DEADLINE_EXCEEDED","error":"late"}', ms: 15_001 })
  for (let i = 0; i < 3; i++) recordResult(report, req(102 + i, 'GET /v1/kline', '/v1/kline'), shown('/v1/kline?y'), { status: 500, contentType: JSON_CT, body: `{"error":"boom ${'x'.repeat(400)}","code":"INTERNAL"}`, ms: 5 })
  recordResult(report, req(105, 'GET /v1/kline', '/v1/kline'), shown('/v1/kline?z'), { status: 502, contentType: 'text/html', body: '<html>bad gateway</html>', ms: 5 })
  recordResult(report, req(106, 'GET /v1/kline', '/v1/kline'), shown('/v1/kline?w'), { status: 200, contentType: 'text/plain', body: 'ok', ms: 5 })
  recordResult(report, req(107, 'GET /docs', '/docs'), shown('/docs'), { status: 200, contentType: 'text/html', body: '<!doctype html>', ms: 5 })
  recordResult(report, req(108, 'HEAD', '/v1/quote', 'HEAD'), shown('/v1/quote'), { status: 200, contentType: JSON_CT, body: '', ms: 5 })
  recordResult(report, req(109, 'GET /v1/kline', '/v1/kline'), shown('/v1/kline?t'), { error: 'ECONNRESET', ms: 60_000 })

  const s = summarize(report, { elapsed_s: 10, slow_ms: 15_000 })
  assert.equal(s.total, 109)
  assert.deepEqual(s.statuses, { 200: 93, 429: 10, 500: 3, 502: 1, 504: 1, 'no answer': 1 })
  assert.equal(s.five_xx, 5)
  const quote = s.routes.find((r) => r.route === 'GET /v1/quote')
  assert.deepEqual(quote.statuses, { 200: 90, 429: 10 })
  assert.deepEqual(quote.codes, { ok: 90, RATE_LIMITED: 10 })
  assert.equal(quote.p50_ms, 50)
  assert.equal(quote.p99_ms, 99)
  assert.equal(quote.max_ms, 100)
  assert.equal(s.routes.find((r) => r.route === 'GET /v1/kline').codes.INTERNAL, 3)
  assert.deepEqual(s.counts, { crashes: 4, deadline: 1, nonJson: 2, slow: 2, noAnswer: 1 })
  assert.equal(s.findings.crashes.length, 2, 'lists are capped')
  assert.equal(s.findings.crashes[0].body.length, 300, 'bodies cut at 300 characters')
  assert.equal(s.findings.deadline[0].status, 504)
  assert.deepEqual(s.findings.nonJson.map((f) => f.n), [105, 106])
  assert.deepEqual(s.findings.slow.map((f) => f.n), [101, 109])
  assert.equal(s.findings.noAnswer[0].error, 'ECONNRESET')
  assert.equal(exitCodeOf(s), 1)
  const text = formatReport(s)
  assert.match(text, /total: 109 requests in 10 s/)
  assert.match(text, /5xx: 5 \(crashes 4, deadline answers 504 DEADLINE_EXCEEDED 1\); non-JSON \/v1 answers: 2; slower than 15 s: 2; no answer: 1/)
  assert.match(text, /5xx other than the deadline answer: 4 \(first 2 listed\)/)
  assert.match(text, /curl '\/v1\/kline\?y'/)
})

test('a clean run exits 0', () => {
  const report = createReport()
  recordResult(report, req(0, 'GET /v1/quote', '/v1/quote'), shown('/v1/quote'), { status: 422, contentType: JSON_CT, body: '{"detail":[]}', ms: 3 })
  const s = summarize(report)
  assert.equal(exitCodeOf(s), 0)
  assert.deepEqual(s.routes[0].codes, { VALIDATION: 1 })
  assert.equal(DEFAULTS.slowMs, 15_000)
})

test('curl reproducers quote what the shell would mangle', () => {
  assert.equal(
    curlOf('http://127.0.0.1:8787', 'POST', "/v1/x?q=it's", { authorization: 'Bearer <unlimited key>' }, '{"a":1}'),
    `curl -i -g -X POST -H 'authorization: Bearer <unlimited key>' --data-binary '{"a":1}' 'http://127.0.0.1:8787/v1/x?q=it'\\''s'`
  )
  assert.equal(curlOf('http://127.0.0.1:1', 'HEAD', '/v1/quote', {}, null), "curl -i -g -I 'http://127.0.0.1:1/v1/quote'")
})

test('HOSTILE_DATES are all refused by a strict reader of YYYY-MM-DD (or not that shape at all)', () => {
  for (const d of HOSTILE_DATES) {
    if (realDate(d)) assert.ok(d < '2016-08-08' || d > TODAY, `${d} is a real, in-range date`)
  }
})

test('the printed report cuts a very long reproducer; the JSON keeps it', () => {
  const report = createReport()
  const long = `/v1/quote?x=${'9'.repeat(2000)}`
  recordResult(report, req(0, 'GET /v1/quote', '/v1/quote'), shown(long), { status: 500, contentType: JSON_CT, body: '{"code":"INTERNAL"}', ms: 3 })
  const s = summarize(report)
  assert.equal(s.findings.crashes[0].curl, `curl '${long}'`)
  const text = formatReport(s)
  assert.ok(text.includes(`… (${s.findings.crashes[0].curl.length} characters in all; --json keeps it whole)`))
  assert.ok(text.split('\n').every((l) => l.length < 1000))
})

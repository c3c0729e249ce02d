// The pure half of `npm run fuzz`: argument parsing, the request generator (every operation of an
// OpenAPI document, each with its own parameters, valid and hostile values, deterministic for a
// seed) and the report (status histograms per route, percentiles, findings). No I/O here, so
// `node --test src/cli/` covers it; fuzz.mjs starts the worker (or targets a running service),
// sends the requests and prints what this file computes.
import { parseArgs } from 'node:util'

/** A usage mistake: fuzz.mjs prints the message and exits 2. */
export class UsageError extends Error {}

export const DEFAULTS = {
  requests: 100_000,
  concurrency: 16,
  seed: '1',
  /** A request with no answer after this long is given up (and reported as slow and unanswered). */
  timeoutSeconds: 60,
  /** The whole run stops after this long, whatever is left to send. */
  maxMinutes: 120,
  /** An answer slower than this is a finding (the service's own deadline is 15 s). */
  slowMs: 15_000,
  /** Findings of each kind listed in full; the rest are counted. */
  listCap: 50,
}

export const HELP = `npm run fuzz -- [options]

Sends generated requests to the service: every operation of its /openapi.json (GET, POST and
DELETE where documented) with its own parameters, valid and hostile values (long, unicode,
injection-like, repeated and unknown parameters, impossible dates, hostile screen expressions),
keyed with keys of every tier, anonymous, with a bad key and with conflicting keys; plus
/openapi.json, /docs, unknown paths and wrong methods. Prints the status histogram per route,
p50/p99 latency, and every 5xx, every non-JSON /v1 answer and every answer slower than 15 s.

Target: by default the emulator worker, built with wrangler and run in Miniflare (as npm run bench
does), with keys of every tier stored in it. With --url, a running service on this machine.

Options:
  --requests N        requests to send (default ${DEFAULTS.requests})
  --concurrency N     requests in flight (default ${DEFAULTS.concurrency})
  --seed S            seed of the generator: the same seed sends the same requests (default ${DEFAULTS.seed})
  --url URL           a running service instead (loopback only: http://127.0.0.1:PORT or http://[::1]:PORT)
  --keys K1,K2,…      with --url: API keys to rotate (their tiers are read from /v1/usage)
  --whitelist-key K   with --url: an unlimited key for POST/DELETE /v1/ip-whitelist (without it those
                      calls are sent without a valid key: POST replaces the key's allow-list)
  --clock ISO         emulator only: start its clock at this instant (PUT /__emulator/clock) and
                      keep it running from there, e.g. 2026-11-20T10:30:00+08:00 (a session)
  --no-store          in-process only: do not build the small history store first (a few stocks'
                      histories, the last session's technicals, factor and market-kline tables)
  --timeout S         give up on a request after S seconds (default ${DEFAULTS.timeoutSeconds})
  --max-minutes M     stop the run after M minutes, sent or not (default ${DEFAULTS.maxMinutes})
  --json FILE         also write the report as JSON
  -h, --help          this text

FUZZ_LOG=1 prints Miniflare's log line of every request the in-process worker serves.

Exit codes: 0 no findings, 1 a 5xx, a non-JSON /v1 answer, an answer slower than 15 s or no answer,
2 usage error.`

const OPTIONS = {
  requests: { type: 'string' },
  concurrency: { type: 'string' },
  seed: { type: 'string' },
  url: { type: 'string' },
  keys: { type: 'string' },
  'whitelist-key': { type: 'string' },
  clock: { type: 'string' },
  'no-store': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'max-minutes': { type: 'string' },
  json: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
}

function positiveInt(name, raw, fallback, max = Number.MAX_SAFE_INTEGER) {
  if (raw === undefined) return fallback
  const n = Number(raw.replaceAll('_', '').replaceAll(',', ''))
  if (!/^[0-9][0-9_,]*$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`invalid --${name} '${raw}' (a whole number from 1 to ${max})`)
  }
  return n
}

/**
 * The origin of `raw` when its host is a loopback address written as an IP (127.0.0.0/8 or ::1),
 * else a UsageError: the fuzz never sends anything to another machine. `localhost` is refused too,
 * since what it resolves to is up to the system.
 */
export function loopbackOrigin(raw) {
  let url
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`invalid --url '${raw}' (e.g. http://127.0.0.1:8787)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http or https, not ${url.protocol}`)
  if (url.username || url.password) throw new UsageError('--url must not carry a user name or password')
  const host = url.hostname
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  const loopback = host === '[::1]' || (v4 !== null && v4[1] === '127' && v4.slice(2).every((o) => Number(o) <= 255 && String(Number(o)) === o))
  if (!loopback) throw new UsageError(`refusing --url ${raw}: the fuzz only targets this machine's loopback addresses (127.0.0.1, [::1])`)
  if (url.pathname !== '/' || url.search || url.hash) throw new UsageError(`--url is an origin (e.g. http://127.0.0.1:8787), without a path or query`)
  return url.origin
}

/** Parses `npm run fuzz` arguments; throws UsageError for anything malformed. */
export function parseFuzzArgs(argv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true })
  } catch (e) {
    throw new UsageError(e.message)
  }
  const v = parsed.values
  if (v.help) return { help: true }
  const url = v.url === undefined ? null : loopbackOrigin(v.url)
  const keys = v.keys === undefined ? [] : v.keys.split(',').map((k) => k.trim()).filter(Boolean)
  if (!url && keys.length) throw new UsageError('--keys goes with --url (in-process, the fuzz makes its own keys)')
  if (!url && v['whitelist-key'] !== undefined) throw new UsageError('--whitelist-key goes with --url')
  if (url && !keys.length) throw new UsageError('--url needs --keys K1,K2,… (keys of the running service; npm run key -- create --tier unlimited)')
  if (url && v['no-store']) throw new UsageError('--no-store only applies in-process (a running service has its own store)')
  let clock = null
  if (v.clock !== undefined) {
    const ms = Date.parse(v.clock)
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v.clock) || Number.isNaN(ms)) {
      throw new UsageError(`invalid --clock '${v.clock}' (an ISO 8601 instant with its offset, e.g. 2026-11-20T10:30:00+08:00)`)
    }
    clock = new Date(ms).toISOString()
  }
  const seed = v.seed ?? DEFAULTS.seed
  if (!seed.length) throw new UsageError('--seed must not be empty')
  return {
    help: false,
    requests: positiveInt('requests', v.requests, DEFAULTS.requests, 10_000_000),
    concurrency: positiveInt('concurrency', v.concurrency, DEFAULTS.concurrency, 512),
    seed,
    url,
    keys,
    whitelistKey: v['whitelist-key'] ?? null,
    clock,
    store: !v['no-store'],
    timeoutSeconds: positiveInt('timeout', v.timeout, DEFAULTS.timeoutSeconds, 3600),
    maxMinutes: positiveInt('max-minutes', v['max-minutes'], DEFAULTS.maxMinutes, 7 * 24 * 60),
    json: v.json ?? null,
  }
}

// ---------------------------------------------------------------------------------------------
// Randomness: a small seeded generator (xmur3 hash of the seed, then sfc32), so a seed replays.

/** A deterministic random source for `seed` (any string or number). */
export function makeRng(seed) {
  const s = String(seed)
  let h = 1779033703 ^ s.length
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 3432918353)
    h = (h << 13) | (h >>> 19)
  }
  const seedWord = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507)
    h = Math.imul(h ^ (h >>> 13), 3266489909)
    return (h ^= h >>> 16) >>> 0
  }
  let a = seedWord()
  let b = seedWord()
  let c = seedWord()
  let d = seedWord()
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 15; i++) next()
  const rng = {
    next,
    /** An integer in [lo, hi], both included. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    /** One of `[weight, value]` pairs, by weight. */
    weighted: (pairs) => {
      const total = pairs.reduce((s, [w]) => s + w, 0)
      let x = next() * total
      for (const [w, value] of pairs) if ((x -= w) < 0) return value
      return pairs[pairs.length - 1][1]
    },
  }
  return rng
}

// ---------------------------------------------------------------------------------------------
// The document: operations and the vocabulary their descriptions give.

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/**
 * Every operation of an OpenAPI document: `{ method, path, route, params, minTier, cost, heavy }`,
 * `params` being its query and path parameters with their schemas.
 */
export function operationsOf(doc) {
  const ops = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m]
      if (!op) continue
      const method = m.toUpperCase()
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .filter((p) => p && (p.in === 'query' || p.in === 'path'))
        .map((p) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? {}, description: p.description ?? p.schema?.description ?? '', example: p.example ?? p.schema?.example }))
      ops.push({
        method,
        path,
        route: `${method} ${path}`,
        params,
        minTier: op['x-min-tier'] ?? 'free',
        cost: Number(op['x-cost'] ?? 0) || 0,
        heavy: Boolean(op['x-heavy']),
        description: op.description ?? '',
      })
    }
  }
  return ops
}

const IDENT = /^[A-Za-z][A-Za-z0-9_]*$/
const backticked = (text) => [...String(text).matchAll(/`([^`\n]{1,80})`/g)].map((m) => m[1])

/**
 * What the descriptions name, for values the schemas alone cannot give: the screen's factors (its
 * description lists them as "- `Name` — …", presets excepted) and presets (the `preset`
 * parameter's enum, or its description's list), macro series names, industry-chain themes (CJK words), and every operation's
 * backticked words.
 */
export function vocabularyOf(ops) {
  const presets = new Set()
  const factors = new Set()
  const seriesNames = new Set()
  const themes = new Set()
  const words = new Map()
  for (const op of ops) {
    const texts = [op.description, ...op.params.map((p) => p.description)]
    words.set(op.route, [...new Set(texts.flatMap(backticked))])
    for (const p of op.params) {
      if (p.name === 'preset') {
        // The schema's enum where the document has one (it does now), else the description's list.
        for (const v of p.schema?.enum ?? []) presets.add(String(v))
        const list = p.description.split(':').slice(1).join(':')
        for (const w of list.split(',')) if (IDENT.test(w.trim())) presets.add(w.trim())
      }
      if (p.name === 'topic' || p.name === 'q') for (const t of String(p.example ?? '').match(/[\u4e00-\u9fff]{2,8}/g) ?? []) themes.add(t)
    }
    for (const t of texts) {
      for (const m of t.matchAll(/^- `([A-Za-z][A-Za-z0-9_]*)` — /gm)) factors.add(m[1])
      for (const m of t.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)*)` \(/g)) seriesNames.add(m[1])
      for (const w of t.match(/[\u4e00-\u9fff]{2,8}/g) ?? []) themes.add(w)
    }
  }
  for (const p of presets) factors.delete(p)
  return { presets: [...presets], factors: [...factors], seriesNames: [...seriesNames], themes: [...themes], words }
}

// ---------------------------------------------------------------------------------------------
// Values.

/** Codes the emulator knows, of every kind the API takes (A-shares, indexes, ETF, HK, US, futures, forex, boards). */
const KNOWN_CODES = [
  'sh600519', 'sz000001', 'sz300750', 'sh600000', 'sh601398', 'sh601318', 'sh600036', 'sz000002', 'sz000858', 'sh688981',
  'bj920001', 'bj830799', 'sh000001', 'sz399001', 'sz399006', 'sh000300', 'sh000688', 'bj899050', 'sh510300', 'sz159915',
  'sh110050', 'hk00700', 'hk01398', 'hk00939', 'usAAPL', 'usNIO', 'us.DJI', 'us.SPX', 'us.IXIC', 'fuRB2701', 'fuRB0', 'fuIF0',
  'fuau0', 'fuSR0', 'fuM0', 'fxUSDCNH', 'fxEURUSD', 'pt0477',
]
/** The A-share stocks among them (the stock-only endpoints, and the history store built first). */
export const KNOWN_STOCKS = KNOWN_CODES.filter((c) => /^(sh6|sz00|sz30|bj92|bj83)/.test(c))

/** A plausible A-share stock code of a random board (many exist in the emulator, some do not). */
function boardCode(rng) {
  return rng.weighted([
    [4, () => `sh60${String(rng.int(0, 5999)).padStart(4, '0')}`],
    [1, () => `sh688${String(rng.int(0, 999)).padStart(3, '0')}`],
    [3, () => `sz00${String(rng.int(1, 3999)).padStart(4, '0')}`],
    [2, () => `sz30${String(rng.int(0, 1999)).padStart(4, '0')}`],
    [1, () => `bj${rng.pick(['83', '87', '92', '43'])}${String(rng.int(0, 9999)).padStart(4, '0')}`],
  ])()
}

const SEARCH_WORDS = ['600519', 'sh600519', '茅台', 'gzmt', 'AAPL', 'pt0477', 'hk00700', '平安', '银行', 'payh', '000001', 'NIO', '腾讯', 'tx', '5', '中']
const DOC_IPS = ['203.0.113.7', '203.0.113.8', '198.51.100.23', '192.0.2.1', '2001:db8::1', '2001:db8::abcd', '127.0.0.1']

/** Hostile strings any parameter may get. */
const HOSTILE_STRINGS = [
  // long
  'a'.repeat(300), 'x'.repeat(2100), '9'.repeat(1000), '茅'.repeat(700), 'sh600519'.repeat(600), '%'.repeat(50),
  // unicode
  '茅台', '贵州茅台', '📈🚀', '\u202eabc', 'a\u200bb', 'e\u0301', 'ﾃｽﾄ', '𝟔𝟎𝟎𝟓𝟏𝟗', '\ufeff', '\ufffd', 'İ', 'ß', '６００５１９',
  // injection-like
  "' OR '1'='1", '" OR ""="', '1; DROP TABLE keys;--', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '${7*7}',
  '{{7*7}}', '#{7*7}', '`id`', '$(id)', '| cat /etc/passwd', '../../../../etc/passwd', '..%2f..%2fetc%2fpasswd',
  'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/', 'javascript:alert(1)', '\r\nSet-Cookie: x=1', '{"$gt":""}',
  '[$ne]=1', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf',
  // JSON-ish and empty
  'null', 'undefined', 'true', 'false', 'NaN', 'Infinity', '-Infinity', '[]', '{}', '0', '-0', '', ' ', '%', '%%', '\\', '\\u0000',
  '\u0000', '\t', '\n', '*', '?', '&', '=', ';', '..', '.', '/', '\u0000'.repeat(10), ',', ',,,',
]
const HOSTILE_INTS = ['-1', '0', '1.5', '1e3', '1e309', '0x10', '0b1', '1_000', ' 1', '1 ', '+1', '-0', '', 'NaN', 'Infinity', '9'.repeat(30), '9007199254740993', '-9223372036854775809', '１２', '1,2', '1;2', '01', '00000000000000000001', '30abc']
/** Impossible, edge and malformed dates. */
export const HOSTILE_DATES = [
  '2026-02-30', '2025-02-29', '2024-02-30', '2026-13-01', '2026-00-10', '2026-11-31', '2026-11-00', '0000-01-01', '9999-12-31',
  '1970-01-01', '2016-08-07', '2015-12-31', '2100-01-01', '2026-1-1', '20261120', '2026/11/20', '2026-11-20T10:00:00Z',
  '2026-11-20 ', '２０２６-11-20', '-2026-01-01', '+02026-01-01', '2026-11', '26-11-20', '2026-11-20,2026-11-21', '1900-02-29', '2000-02-29',
]
const HOSTILE_YEARS = ['0000', '9999', '201', '20266', '２０２６', '1969', '2015', '-2026', '2026.0']
/** Hostile codes: malformed, wrong case, unknown prefixes, lookalikes, too many. */
const HOSTILE_CODES = [
  'sh', 'sh6', 'sh6005190', 'SH600519', 'Sh600519', 'sh600519 ', ' sh600519', 'sh 600519', 'sh600519,', ',sh600519', 'sh600519,sh600519',
  'sh600519,'.repeat(6), '600519', 'xx600519', 'shabcdef', 'sh-600519', 'sh600519.SS', '600519.SH', 'hk', 'hk0', 'hk007000', 'hkABCDE',
  'us', 'us.', 'us..DJI', 'usAAPL.', 'us' + 'A'.repeat(40), 'usaapl', 'fu', 'fuRB', 'furb0', 'fuRB9999', 'fuRB2613', 'fuRB0000', 'fuZZ0',
  'fx', 'fxUSD', 'fxUSDCNHX', 'fxusdcnh', 'pt', 'pt0', 'pt99999', 'pt12', 'bj', 'bj000000', 'sh000000', 'sz999999', 'sh999999', 'sh99',
  'ｓｈ６００５１９', 'sh600519\u0000', 'sh٦٠٠٥١٩', 'sh600519;sz000001', 'sh600519|sz000001', 'sz000001 sh600519',
]
const HOSTILE_IPS = [
  '999.1.1.1', '1.1.1', '1.1.1.1.1', '::::', 'fe80::1%eth0', '0.0.0.0/0', '10.0.0.0/8', 'localhost', '::ffff:127.0.0.1', '01.02.03.04',
  '1.1.1.1,'.repeat(60), '', ',', ' 203.0.113.7', '203.0.113.7 ,198.51.100.1', '2001:db8::1::2', '[2001:db8::1]', '1.1.1.1:80', '255.255.255.255', '0.0.0.0', '::',
]
const UNKNOWN_NAMES = ['x', 'foo', '__proto__', 'constructor', 'callback', 'format', 'fields', 'debug', 'admin', 'code[]', 'code[0]', 'a'.repeat(300), '茅台', 'COUNT', 'Code', 'key', 'token', 'api_key', '']

/** A valid-looking screen expression from the grammar: `cmp | intersect([…]) | union([…]) | exclude(a, b) | top(sum, N) | bottom(sum, N)`. */
export function screenExpression(rng, factors, depth = 0) {
  const factor = () => rng.pick(factors)
  const num = () => rng.pick([String(rng.int(0, 100)), String(rng.int(-50, 50) / 10), String(rng.int(1, 5000)), '0.05', '1e3'])
  const atom = (d) =>
    rng.weighted([
      [6, factor],
      [3, num],
      [d < 2 ? 1 : 0, () => `(${sum(d + 1)})`],
      [0.5, () => `-${factor()}`],
    ])()
  const term = (d) => (rng.chance(0.2) ? `${atom(d)} ${rng.pick(['*', '/'])} ${atom(d)}` : atom(d))
  const sum = (d) => (rng.chance(0.2) ? `${term(d)} ${rng.pick(['+', '-'])} ${term(d)}` : term(d))
  const cmp = () => `${sum(0)} ${rng.pick(['<', '<=', '>', '>=', '==', '!='])} ${rng.chance(0.7) ? num() : sum(0)}`
  if (depth >= 3 || rng.chance(0.45)) return cmp()
  const sets = () => Array.from({ length: rng.int(1, 4) }, () => screenExpression(rng, factors, depth + 1)).join(', ')
  return rng.weighted([
    [4, () => `intersect([${sets()}])`],
    [2, () => `union([${sets()}])`],
    [1, () => `exclude(${screenExpression(rng, factors, depth + 1)}, ${screenExpression(rng, factors, depth + 1)})`],
    [1, () => `top(${sum(0)}, ${rng.int(1, 200)})`],
    [1, () => `bottom(${sum(0)}, ${rng.int(1, 200)})`],
  ])()
}

/** Hostile screen expressions: bounds (length 2000, depth 16, 64 comparisons, N 5000), syntax, names, numbers, injection. */
export function hostileExpressions(factors) {
  const f = factors[0] ?? 'PE_TTM'
  const cmp = `${f} > 1`
  const pad = (s, n) => s + ' '.repeat(Math.max(0, n - s.length))
  const nest = (n) => 'intersect(['.repeat(n) + cmp + '])'.repeat(n)
  return [
    '('.repeat(5000), '('.repeat(1999) + '1', ')'.repeat(10), nest(16), nest(17), nest(40),
    `intersect([${Array(64).fill(cmp).join(', ')}])`, `intersect([${Array(65).fill(cmp).join(', ')}])`, `union([${Array(300).fill(cmp).join(', ')}])`,
    '-'.repeat(1990) + '1 > 0', `${f} > ${'1'.repeat(400)}`, pad(cmp, 2000), pad(cmp, 2001), `(${'('.repeat(15)}${f}${')'.repeat(15)}) > 1`,
    `${f} > 1e309`, `${f} > -1e309`, `${f} > 0x10`, `${f} > 1_000`, `${f} > .5`, `${f} > 5.`, `${f} > 1e`, `${f} > NaN`, `${f} > Infinity`,
    `top(${f}, 5000)`, `top(${f}, 5001)`, `top(${f}, 0)`, `top(${f}, -1)`, `top(${f}, 1.5)`, `top(${f}, 99999999999999999999)`, `bottom(${f})`,
    'top()', `top(${f}, 10, 3)`, `top(${cmp}, 10)`, 'intersect([])', 'union([])', 'intersect()', `intersect([${cmp},])`, 'intersect([,])',
    `exclude(${cmp})`, `exclude(${cmp}, ${cmp}, ${cmp})`, `intersect(${cmp})`, `intersect[${cmp}]`,
    f, '1', '', ' ', `${f} >`, '> 1', `${f} >> 1`, `${f} => 1`, `${f} = 1`, `${f} <> 1`, `${f} ! 1`, `${f} > 1 > 2`, `${f} > 1 ${f} < 2`,
    '__proto__ > 1', 'constructor > 1', 'toString > 1', 'hasOwnProperty < 1', 'prototype == 1', 'valueOf != 0',
    `${f.toLowerCase()} > 1`, `${f.replace('_', '-')} > 1`, 'ＰＥ_ＴＴＭ > 1', `${f} ＞ 1`, `${f} > １`, '市盈率 > 1',
    `${f} / 0 > 1`, '0 / 0 > 0', '1/0 == 1/0', `${f} * 1e308 * 1e308 > 0`,
    `${cmp}; DROP TABLE stocks; --`, "eval('1') > 0", 'process.exit(1)', `\${${f}} > 1`, "require('fs')", 'this.constructor > 1',
    `${cmp} || true`, `${cmp} && 1`, '\u0000', `${f}\u0000 > 1`, `${f}\t>\n1`, `top(${`${f} + `.repeat(200)}1, 10)`,
    `intersect([${cmp}, union([${f} < 2, exclude(${f} > 5, top(${f}, 10))])])`,
  ]
}

const ymd = (ms) => new Date(ms).toISOString().slice(0, 10)
const DAY = 86_400_000

/**
 * A valid value for a parameter, from its schema (enum, integer bounds, date pattern, example) and,
 * where the schema says only "string", from the parameter's name and the document's vocabulary.
 */
function validValue(rng, param, op, ctx) {
  const s = param.schema
  const today = Date.parse(`${ctx.today}T00:00:00Z`)
  if (Array.isArray(s.enum) && s.enum.length) return String(rng.pick(s.enum))
  if (s.type === 'integer' || s.type === 'number') {
    const lo = Number.isFinite(s.minimum) ? s.minimum : 0
    const hi = Number.isFinite(s.maximum) ? s.maximum : lo + 1000
    return String(rng.weighted([
      [3, () => (param.example ?? s.default ?? lo)],
      [1, () => lo],
      [1, () => hi],
      [5, () => rng.int(lo, Math.min(hi, lo + 120))],
      [1, () => rng.int(lo, hi)],
    ])())
  }
  if (s.type === 'boolean') return rng.pick(['true', 'false'])
  if (s.pattern === '^\\d{4}-\\d{2}-\\d{2}$' || s.format === 'date') {
    const first = Date.parse('2016-08-08T00:00:00Z')
    return rng.weighted([
      [6, () => ymd(today - rng.int(0, 40) * DAY)],
      [3, () => ymd(first + rng.int(0, Math.max(0, Math.floor((today - first) / DAY))) * DAY)],
      [1, () => String(param.example ?? ctx.today)],
    ])()
  }
  if (s.pattern === '^\\d{4}$') return String(rng.int(2016, Number(ctx.today.slice(0, 4))))
  const stocksOnly = /A-share stock/.test(param.description) && !/index|ETF|HK|US|board/.test(param.description)
  const code = () => (rng.chance(0.35) ? boardCode(rng) : rng.pick(stocksOnly && rng.chance(0.8) ? KNOWN_STOCKS : KNOWN_CODES))
  switch (param.name) {
    case 'code':
    case 'symbol':
      return code()
    case 'codes': {
      const n = rng.weighted([[7, () => rng.int(1, 10)], [2, () => rng.int(11, 100)], [1, () => rng.int(100, 1000)]])()
      return Array.from({ length: n }, code).join(',')
    }
    case 'q':
      return rng.chance(0.8) ? rng.pick(SEARCH_WORDS) : code().slice(rng.int(0, 2))
    case 'expr':
      return screenExpression(rng, ctx.vocab.factors.length ? ctx.vocab.factors : ['PE_TTM'])
    case 'orderby':
      return rng.pick(ctx.vocab.factors.length ? ctx.vocab.factors : ['PE_TTM'])
    case 'preset':
      return rng.pick(ctx.vocab.presets.length ? ctx.vocab.presets : [String(param.example ?? 'LowPE')])
    case 'names': {
      const names = ctx.vocab.seriesNames.length ? ctx.vocab.seriesNames : [String(param.example ?? 'cpi')]
      return Array.from({ length: rng.int(1, 3) }, () => rng.pick(names)).join(',')
    }
    case 'topic': {
      const own = op.description.match(/[\u4e00-\u9fff]{2,8}/g) ?? []
      return rng.pick([...own, ...own, String(param.example ?? ''), rng.pick(ctx.vocab.themes.length ? ctx.vocab.themes : ['x'])].filter(Boolean))
    }
    case 'ips':
      return Array.from({ length: rng.int(1, 5) }, () => rng.pick(DOC_IPS)).join(',')
  }
  const words = (ctx.vocab.words.get(op.route) ?? []).filter((w) => w.length <= 40)
  if (param.example !== undefined && (rng.chance(0.6) || !words.length)) return String(param.example)
  return words.length ? rng.pick(words) : 'x'
}

/** A hostile value for a parameter: out of its schema's bounds, malformed for its kind, or one of the universal hostile strings. */
function hostileValue(rng, param, op, ctx) {
  if (rng.chance(0.35)) return rng.pick(HOSTILE_STRINGS)
  const s = param.schema
  if (Array.isArray(s.enum) && s.enum.length) {
    const e = String(rng.pick(s.enum))
    return rng.pick([e.toUpperCase(), `${e} `, ` ${e}`, `${e},${e}`, e + e, e.slice(0, -1) || 'x', `${e}\u0000`, rng.pick(ctx.allEnumValues)])
  }
  if (s.type === 'integer' || s.type === 'number') {
    const lo = Number.isFinite(s.minimum) ? s.minimum : 0
    const hi = Number.isFinite(s.maximum) ? s.maximum : 1000
    return rng.pick([...HOSTILE_INTS, String(lo - 1), String(hi + 1), String(hi * 10), String(hi * 1e6)])
  }
  if (s.pattern === '^\\d{4}-\\d{2}-\\d{2}$' || s.format === 'date') {
    const today = Date.parse(`${ctx.today}T00:00:00Z`)
    return rng.pick([...HOSTILE_DATES, ymd(today + rng.int(1, 400) * DAY), ymd(today)])
  }
  if (s.pattern === '^\\d{4}$') return rng.pick(HOSTILE_YEARS)
  switch (param.name) {
    case 'code':
    case 'symbol':
      return rng.pick(HOSTILE_CODES)
    case 'codes':
      return rng.pick([
        () => Array.from({ length: rng.pick([501, 1001, 1500, 3000]) }, () => boardCode(rng)).join(','),
        () => Array(rng.pick([2, 50, 1200])).fill('sh600519').join(','),
        () => `sh600519,,${rng.pick(HOSTILE_CODES)},sz000001`,
        () => Array.from({ length: rng.int(2, 8) }, () => rng.pick(HOSTILE_CODES)).join(','),
        () => ','.repeat(rng.int(1, 2000)),
      ])()
    case 'expr':
      return rng.chance(0.6) ? rng.pick(ctx.hostileExpressions) : corrupt(rng, screenExpression(rng, ctx.vocab.factors.length ? ctx.vocab.factors : ['PE_TTM']))
    case 'ips':
      return rng.pick(HOSTILE_IPS)
    case 'q':
      return rng.pick(['', 'a'.repeat(41), '茅'.repeat(41), '%', '_', '*', '\u0000', '?', rng.pick(HOSTILE_CODES)])
  }
  return rng.pick([...HOSTILE_STRINGS, ...HOSTILE_CODES.slice(0, 10), ...HOSTILE_DATES.slice(0, 5)])
}

/**
 * How a parameter relates to the others, as its description says it (prose, so a heuristic):
 * "paired with end", "Not with start/end or year", "required with `mode=detail`", "Give expr or
 * preset" (exactly one of them), and an enum's "`graph` … (needs `topic`)".
 */
export function relationsOf(op) {
  const names = new Set(op.params.map((p) => p.name))
  const rel = new Map()
  for (const p of op.params) {
    const r = { pairedWith: [], notWith: [], requiredWhen: [], needsByValue: {}, oneOf: [] }
    for (const m of p.description.matchAll(/Give `?([A-Za-z_]+)`? or `?([A-Za-z_]+)`?/g)) if (names.has(m[1]) && names.has(m[2])) r.oneOf.push(m[1], m[2])
    for (const m of p.description.matchAll(/paired with `?([A-Za-z_]+)/g)) if (names.has(m[1])) r.pairedWith.push(m[1])
    for (const m of p.description.matchAll(/[Nn]ot with ([A-Za-z_/, ]+?)(?:[.;)]|$)/g)) {
      for (const w of m[1].split(/[\s,/]+/)) if (names.has(w) && w !== p.name) r.notWith.push(w)
    }
    for (const m of p.description.matchAll(/required with `([A-Za-z_]+)=([^`]+)`/g)) if (names.has(m[1])) r.requiredWhen.push([m[1], m[2]])
    if (Array.isArray(p.schema.enum)) {
      for (const value of p.schema.enum) {
        const at = p.description.indexOf(`\`${value}\``)
        if (at < 0) continue
        const clause = p.description.slice(at).split(';')[0]
        for (const m of clause.matchAll(/needs `([A-Za-z_]+)`/g)) if (names.has(m[1])) (r.needsByValue[value] ??= []).push(m[1])
      }
    }
    rel.set(p.name, r)
  }
  return rel
}

/**
 * Valid parameters of an operation, as `[param, value]`: the required ones, each optional one half
 * the time (none, a third of the time), honouring the relations the descriptions state, with a
 * start date not after its end.
 */
export function validParams(rng, op, ctx) {
  const query = op.params.filter((p) => p.in === 'query')
  const byName = new Map(query.map((p) => [p.name, p]))
  const rel = (ctx.relations ??= new Map()).get(op.route) ?? relationsOf(op)
  ctx.relations.set(op.route, rel)
  const minimal = rng.chance(0.3)
  const chosen = new Set(query.filter((p) => p.required || (!minimal && rng.chance(0.5))).map((p) => p.name))
  for (const name of [...chosen]) {
    if (!chosen.has(name)) continue
    for (const other of rel.get(name)?.notWith ?? []) if (!byName.get(other)?.required) chosen.delete(other)
  }
  for (const name of [...chosen]) for (const other of rel.get(name)?.pairedWith ?? []) chosen.add(other)
  for (const r of rel.values()) {
    if (!r.oneOf.length) continue
    const keep = r.oneOf.find((n) => chosen.has(n)) ?? rng.pick(r.oneOf)
    for (const n of r.oneOf) if (n === keep) chosen.add(n)
    else chosen.delete(n)
  }
  const values = new Map([...chosen].map((name) => [name, validValue(rng, byName.get(name), op, ctx)]))
  for (const [name, value] of [...values]) {
    for (const other of rel.get(name)?.needsByValue[value] ?? []) if (!values.has(other)) values.set(other, validValue(rng, byName.get(other), op, ctx))
  }
  for (const p of query) {
    if (values.has(p.name)) continue
    if ((rel.get(p.name)?.requiredWhen ?? []).some(([n, v]) => values.get(n) === v)) values.set(p.name, validValue(rng, p, op, ctx))
  }
  for (const [a, b] of [['start', 'end'], ['from', 'to']]) {
    const [x, y] = [values.get(a), values.get(b)]
    if (x !== undefined && y !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(x) && /^\d{4}-\d{2}-\d{2}$/.test(y) && x > y) {
      values.set(a, y)
      values.set(b, x)
    }
  }
  return query.filter((p) => values.has(p.name)).map((p) => [p, values.get(p.name)])
}

/** One random edit of a string: a deletion, an insertion, a swap, a duplication or a truncation. */
function corrupt(rng, s) {
  if (!s.length) return rng.pick(['(', ')', ','])
  const i = rng.int(0, s.length - 1)
  return rng.pick([
    () => s.slice(0, i) + s.slice(i + 1),
    () => s.slice(0, i) + rng.pick([...'()[],<>=!+-*/ 0123456789abcXYZ_.']) + s.slice(i),
    () => s.slice(0, i) + (s[i + 1] ?? '') + s[i] + s.slice(i + 2),
    () => s + s.slice(i),
    () => s.slice(0, i),
  ])()
}

// ---------------------------------------------------------------------------------------------
// Query strings.

/** `name=value&…`, each part percent-encoded (a flag without `=` when the value is null). */
export function encodeQuery(pairs) {
  return pairs.map(([k, v]) => (v === null ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&')
}

const RAW_BITS = ['%', '%zz', '%C3', '%E4%B8', '%ED%A0%80', '%00', '%FF', '%2', '+', '++', ';', '&&', '==', '?', '%26', '%3D', '%23', '%%', '%u4e2d']

/**
 * A badly encoded query: `pairs` with some bytes left as they are and some broken escapes spliced
 * in, kept to characters an HTTP client can put in a request line (printable ASCII; `#` escaped).
 */
function rawQuery(rng, pairs) {
  const raw = (s) =>
    [...s].map((ch) => (/[\x21-\x7e]/.test(ch) && ch !== '#' ? ch : encodeURIComponent(ch))).join('')
  const parts = pairs.map(([k, v]) => (v === null ? raw(k) : `${raw(k)}=${raw(v)}`))
  const n = rng.int(1, 3)
  for (let i = 0; i < n; i++) parts.splice(rng.int(0, parts.length), 0, rng.pick(RAW_BITS))
  return parts.join(rng.chance(0.8) ? '&' : rng.pick([';', '&&', '&amp;']))
}

/**
 * Longest `path?query` sent, in characters. Cloudflare's edge refuses a URL over 16 KB itself (414),
 * so longer ones never reach a Worker; locally workerd answers a plain-text 431 past its own limit.
 * Room is left for a `key=` parameter.
 */
export const MAX_TARGET = 15_900

/** The query `build(pairs)` gives, with the longest values halved until `path?query` fits {@link MAX_TARGET}. */
export function fitQuery(path, pairs, build) {
  let ps = pairs.map(([k, v]) => [k, v])
  let q = build(ps)
  while (path.length + 1 + q.length > MAX_TARGET) {
    let longest = 0
    for (let i = 1; i < ps.length; i++) if ((ps[i][0].length + (ps[i][1]?.length ?? 0)) > (ps[longest][0].length + (ps[longest][1]?.length ?? 0))) longest = i
    const [k, v] = ps[longest]
    if (v && v.length > 1) ps[longest] = [k, [...v].slice(0, Math.floor([...v].length / 2)).join('')]
    else if (k.length > 1) ps[longest] = [k.slice(0, Math.floor(k.length / 2)), v]
    else ps.splice(longest, 1)
    q = build(ps)
  }
  return q
}

// ---------------------------------------------------------------------------------------------
// Requests.

/** Callers: a key of a tier (by one of the three ways to send it), anonymous, a bad key, two different keys. */
const KEY_WAYS = ['bearer', 'bearer', 'bearer', 'bearer', 'x-api-key', 'query', 'bearer+x-api-key']
const BAD_AUTH = [
  { authorization: 'Bearer mk_notAKeyAtAll0000000000000000000' }, { authorization: 'Bearer ' }, { authorization: 'Bearer' },
  { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'bearer mk_unknown' }, { authorization: `Bearer ${'A'.repeat(5000)}` },
  { authorization: 'Bearer mk_a mk_b' }, { 'x-api-key': '' }, { 'x-api-key': "' OR 1=1 --" }, { 'x-api-key': 'mk_\u00e9\u00e8' },
  { authorization: 'Token abc' }, { authorization: 'Bearer <REVOKED>' }, { authorization: 'Bearer <PACK>' },
]

function authFor(rng, op) {
  const kind = rng.weighted([[72, 'key'], [15, 'anon'], [8, 'bad'], [5, 'conflict']])
  if (kind === 'key') {
    const tier = rng.weighted([[78, 'unlimited'], [8, 'pro'], [7, 'standard'], [7, 'trial']])
    return { kind, tier, via: rng.pick(KEY_WAYS), browser: rng.chance(0.1) }
  }
  if (kind === 'anon') {
    const ip = rng.weighted([[50, 'pool'], [35, 'fresh'], [15, 'fixed']])
    const pow = ip === 'pool' ? (rng.chance(0.9) ? 'solved' : 'garbage') : rng.chance(0.15) ? 'garbage' : 'none'
    return { kind, ip, pow, browser: rng.chance(0.2) }
  }
  if (kind === 'bad') {
    const headers = rng.pick(BAD_AUTH)
    return rng.chance(0.2) ? { kind, headers: {}, queryKey: rng.pick(['', 'mk_nope', '%00', 'a'.repeat(500)]) } : { kind, headers, queryKey: null }
  }
  return { kind, ways: rng.pick([['bearer', 'x-api-key'], ['bearer', 'query'], ['x-api-key', 'query']]) }
}

const UNKNOWN_PATHS = [
  '/v1/nope', '/v1/quote/sh600519', '/v1/QUOTE', '/V1/quote', '/v1//quote', '/v1/quote/', '/v2/quote', '/v1/%2e%2e/openapi.json',
  '/v1/quote%00', '/v1/' + 'a'.repeat(3000), '/v1/../v1/quote', '/v1/quote;x=1', '/v1/%E8%8C%85', '/v1', '/v1/', '/favicon.ico',
  '/robots.txt', '/.env', '/wp-login.php', '/admin', '/v1/usage/..', '/v1/health.json', '/docs/../openapi.json', '/openapi.yaml',
  '/v1/ip-whitelist/1', '/v1/__proto__', '/v1/constructor', '/%ff', '/v1/%zz',
]
const WRONG_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE']

/**
 * The request generator: `next()` gives the next request, deterministic for `seed` (the same seed,
 * document and `today` give the same sequence). About 90% are documented operations, picked
 * uniformly among the document's operations, each in one of three modes (valid parameters; valid
 * with some hostile; hostile throughout); the rest are the document, the docs page, unknown paths,
 * wrong methods, HEAD and CORS preflights.
 *
 * A request is `{ n, label, method, path, query, auth, headers, body, mode }`: `label` names the
 * route it is counted under, `auth` says what caller to be (fuzz.mjs turns it into a key).
 */
export function createGenerator(doc, { seed = DEFAULTS.seed, today } = {}) {
  if (!today) throw new Error('createGenerator needs today (YYYY-MM-DD, the service clock in Beijing)')
  const rng = makeRng(seed)
  const ops = operationsOf(doc)
  if (!ops.length) throw new Error('the document has no operations')
  const vocab = vocabularyOf(ops)
  const ctx = {
    today,
    vocab,
    hostileExpressions: hostileExpressions(vocab.factors),
    allEnumValues: [...new Set(ops.flatMap((o) => o.params.flatMap((p) => (Array.isArray(p.schema.enum) ? p.schema.enum.map(String) : []))))],
  }
  if (!ctx.allEnumValues.length) ctx.allEnumValues.push('x')
  const getPaths = ops.filter((o) => o.method === 'GET').map((o) => o.path)
  const methodsOf = new Map()
  for (const o of ops) methodsOf.set(o.path, [...(methodsOf.get(o.path) ?? []), o.method])
  let n = 0

  function operationRequest(op) {
    const mode = rng.weighted([[50, 'valid'], [30, 'mixed'], [20, 'hostile']])
    const paramValue = (p, hostile) => (hostile ? hostileValue(rng, p, op, ctx) : validValue(rng, p, op, ctx))
    let pairs = []
    let path = op.path
    for (const p of op.params.filter((q) => q.in === 'path')) path = path.replace(`{${p.name}}`, encodeURIComponent(paramValue(p, mode === 'hostile')))
    const query = op.params.filter((p) => p.in === 'query')
    if (mode === 'hostile') {
      const names = [...query.map((p) => p.name), ...UNKNOWN_NAMES]
      const count = rng.weighted([[8, () => rng.int(1, 6)], [1, () => rng.int(20, 200)]])()
      for (let i = 0; i < count; i++) {
        const p = query.find((q) => q.name === (rng.chance(0.6) && query.length ? rng.pick(query).name : '')) ?? { name: rng.pick(names), schema: {}, description: '' }
        pairs.push([p.name, rng.chance(0.15) ? null : paramValue(p, rng.chance(0.8))])
      }
    } else {
      for (const [p, value] of validParams(rng, op, ctx)) {
        if (p.required && mode === 'mixed' && rng.chance(0.1)) continue
        pairs.push([p.name, mode === 'mixed' && rng.chance(0.35) ? paramValue(p, true) : value])
      }
      if (mode === 'mixed') {
        if (rng.chance(0.25)) pairs.push([rng.pick(UNKNOWN_NAMES), rng.pick(['1', 'x', rng.pick(HOSTILE_STRINGS)])])
        if (pairs.length && rng.chance(0.2)) {
          const [name] = rng.pick(pairs)
          const p = query.find((q) => q.name === name) ?? { name, schema: {}, description: '' }
          pairs.push([name, rng.chance(0.5) ? paramValue(p, false) : paramValue(p, true)])
        }
        if (pairs.length && rng.chance(0.1)) pairs.push([rng.pick(pairs)[0], ''])
      }
    }
    if (rng.chance(0.3)) pairs = shuffled(pairs)
    const raw = mode === 'hostile' && rng.chance(0.15)
    const build = (ps) => (raw ? rawQuery(rng, ps) : encodeQuery(ps))
    return {
      label: op.route,
      method: op.method,
      path,
      query: fitQuery(path, pairs, build),
      auth: authFor(rng, op),
      headers: rng.chance(0.03) ? { accept: rng.pick(['text/csv', 'text/html', 'application/xml', '*/*', 'application/json;q=0']) } : {},
      body: null,
      mode,
    }
  }

  function shuffled(xs) {
    const out = [...xs]
    for (let i = out.length - 1; i > 0; i--) {
      const j = rng.int(0, i)
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }

  function extraRequest() {
    const auth = authFor(rng, null)
    const kind = rng.weighted([[2, 'openapi'], [1, 'docs'], [0.5, 'assets'], [0.5, 'root'], [3, 'unknown'], [2.5, 'wrong'], [0.5, 'head'], [0.5, 'options']])
    const base = { auth, headers: {}, body: null, mode: 'extra', query: '' }
    switch (kind) {
      case 'openapi':
        return { ...base, label: 'GET /openapi.json', method: 'GET', path: '/openapi.json', query: rng.chance(0.2) ? encodeQuery([[rng.pick(UNKNOWN_NAMES), rng.pick(HOSTILE_STRINGS)]]) : '' }
      case 'docs':
        return { ...base, label: 'GET /docs', method: 'GET', path: '/docs' }
      case 'assets':
        return { ...base, label: 'GET /docs/assets/*', method: 'GET', path: rng.pick(['/docs/assets/init.js', '/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/nope.js']) }
      case 'root':
        return { ...base, label: 'GET /', method: 'GET', path: '/' }
      case 'unknown':
        return { ...base, label: 'unknown path', method: rng.pick(['GET', 'GET', 'GET', 'POST', 'DELETE']), path: rng.pick(UNKNOWN_PATHS), query: rng.chance(0.3) ? 'code=sh600519' : '' }
      case 'wrong': {
        const path = rng.pick([...new Set(ops.map((o) => o.path)), '/openapi.json', '/docs'])
        const allowed = methodsOf.get(path) ?? ['GET']
        const method = rng.pick(WRONG_METHODS.filter((m) => !allowed.includes(m)))
        const body = rng.pick([null, '{"code":"sh600519"}', '{', 'x'.repeat(10_000), '[]'])
        return { ...base, label: 'wrong method', method, path, query: rng.chance(0.5) ? 'code=sh600519' : '', body, headers: body ? { 'content-type': rng.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) } : {} }
      }
      case 'head':
        return { ...base, label: 'HEAD', method: 'HEAD', path: rng.pick(getPaths), query: rng.chance(0.5) ? 'code=sh600519' : '' }
      default:
        return {
          ...base,
          label: 'OPTIONS (preflight)',
          method: 'OPTIONS',
          path: rng.pick([...getPaths, '/v1/nope']),
          headers: { origin: rng.pick(['https://example.com', 'null', 'http://127.0.0.1:3000']), 'access-control-request-method': rng.pick(['GET', 'POST', 'DELETE', 'PUT']), 'access-control-request-headers': rng.pick(['authorization', 'x-api-key,x-pow', 'content-type, x-evil']) },
          auth: { kind: 'none' },
        }
    }
  }

  return {
    operations: ops,
    vocabulary: vocab,
    next() {
      const req = rng.chance(0.9) ? operationRequest(rng.pick(ops)) : extraRequest()
      return { n: n++, ...req }
    },
  }
}

/** `path?query` of a request (with `extraQuery` appended, e.g. a key), as sent. */
export function targetOf(req, extraQuery = '') {
  const q = [req.query, extraQuery].filter(Boolean).join('&')
  return q ? `${req.path}?${q}` : req.path
}

// ---------------------------------------------------------------------------------------------
// The report.

/** Nearest-rank percentile of an ascending array (`p` in 0..100); null when empty. */
export function percentile(sorted, p) {
  if (!sorted.length) return null
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** True when `body` with `contentType` is a JSON answer: a JSON media type and a body that parses. */
export function parseJsonAnswer(contentType, body) {
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(String(contentType ?? '').trim())) return { json: false, value: undefined }
  try {
    return { json: true, value: JSON.parse(body) }
  } catch {
    return { json: false, value: undefined }
  }
}

/**
 * Whether the request asked for CSV: a `format=csv` parameter, or without `format` an Accept header
 * naming text/csv (src/http/csv-negotiate.ts decides by weight; this only excuses a CSV answer).
 */
export function csvAsked(req) {
  const format = new URLSearchParams(req.query ?? '').getAll('format')
  if (format.length) return format.includes('csv')
  return /text\/csv/i.test(req.headers?.accept ?? '')
}

/** True when `contentType` is CSV's media type. */
export const isCsvAnswer = (contentType) => /^text\/csv\b/i.test(String(contentType ?? '').trim())

/** Whether an answer must be JSON: every `/v1` answer that has a body (not HEAD, not a preflight, not 204/304). */
export function jsonExpected(req, status) {
  return (req.path === '/v1' || req.path.startsWith('/v1/')) && req.method !== 'HEAD' && req.method !== 'OPTIONS' && status !== 204 && status !== 304
}

/** The machine code of an answer for the per-route tally: `ok`, an `ok:false`/error `code`, or `VALIDATION` for FastAPI's 422. */
function codeOf(status, value) {
  if (value === undefined || value === null || typeof value !== 'object') return null
  if (value.ok === true) return 'ok'
  if (typeof value.code === 'string') return value.code
  if (Array.isArray(value.detail)) return 'VALIDATION'
  if (value.ok === false) return 'ok:false'
  return null
}

export function createReport({ slowMs = DEFAULTS.slowMs, listCap = DEFAULTS.listCap } = {}) {
  return {
    slowMs,
    listCap,
    routes: new Map(),
    statuses: {},
    latencies: [],
    total: 0,
    findings: { crashes: [], deadline: [], nonJson: [], slow: [], noAnswer: [] },
    counts: { crashes: 0, deadline: 0, nonJson: 0, slow: 0, noAnswer: 0 },
  }
}

function note(report, kind, entry) {
  report.counts[kind]++
  if (report.findings[kind].length < report.listCap) report.findings[kind].push(entry)
}

/**
 * Records one exchange. `res` is `{ status, contentType, body, ms }`, or `{ error, ms }` when no
 * answer came (a timeout or a broken connection). `shown` is how the request is printed (with keys
 * replaced by placeholders): `{ method, target, headers, curl }`.
 */
export function recordResult(report, req, shown, res) {
  report.total++
  let route = report.routes.get(req.label)
  if (!route) report.routes.set(req.label, (route = { count: 0, statuses: {}, codes: {}, latencies: [] }))
  route.count++
  route.latencies.push(res.ms)
  report.latencies.push(res.ms)
  const where = { n: req.n, route: req.label, mode: req.mode, caller: describeCaller(req.auth), request: `${shown.method} ${shown.target}`, curl: shown.curl, ms: Math.round(res.ms) }
  if (res.ms > report.slowMs) note(report, 'slow', { ...where, status: res.status ?? null })
  if (res.error) {
    const key = 'no answer'
    route.statuses[key] = (route.statuses[key] ?? 0) + 1
    report.statuses[key] = (report.statuses[key] ?? 0) + 1
    note(report, 'noAnswer', { ...where, error: String(res.error) })
    return
  }
  const status = String(res.status)
  route.statuses[status] = (route.statuses[status] ?? 0) + 1
  report.statuses[status] = (report.statuses[status] ?? 0) + 1
  const { json, value } = parseJsonAnswer(res.contentType, res.body)
  const code = json ? codeOf(res.status, value) : null
  if (code) route.codes[code] = (route.codes[code] ?? 0) + 1
  const body = String(res.body ?? '').slice(0, 300)
  // A 200 in CSV is the answer asked for; every other /v1 answer (errors of CSV requests too) is JSON.
  const csv = res.status === 200 && csvAsked(req) && isCsvAnswer(res.contentType)
  if (jsonExpected(req, res.status) && !json && !csv) note(report, 'nonJson', { ...where, status: res.status, contentType: res.contentType ?? null, body })
  if (res.status >= 500) {
    if (res.status === 504 && json && value?.ok === false && value?.code === 'DEADLINE_EXCEEDED') note(report, 'deadline', { ...where, status: res.status, body })
    else note(report, 'crashes', { ...where, status: res.status, body })
  }
}

function describeCaller(auth) {
  if (!auth) return 'none'
  switch (auth.kind) {
    case 'key':
      return `${auth.tier} key (${auth.via})`
    case 'whitelist':
      return 'the ip-whitelist key'
    case 'anon':
      return `anonymous (${auth.ip} IP, ${auth.pow} proof)`
    case 'bad':
      return 'a bad key'
    case 'conflict':
      return `two different keys (${auth.ways.join(' and ')})`
    default:
      return auth.kind
  }
}

const ascending = (xs) => Float64Array.from(xs).sort()
const round = (x) => (x === null ? null : Math.round(x * 10) / 10)

/** The report as plain data (what `--json` writes and the text is printed from). */
export function summarize(report, extra = {}) {
  const all = ascending(report.latencies)
  const routes = [...report.routes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, r]) => {
      const lat = ascending(r.latencies)
      return { route, count: r.count, statuses: sortKeys(r.statuses), codes: sortByCount(r.codes), p50_ms: round(percentile(lat, 50)), p99_ms: round(percentile(lat, 99)), max_ms: round(lat[lat.length - 1] ?? null) }
    })
  const fivexx = Object.entries(report.statuses).filter(([s]) => Number(s) >= 500).reduce((n, [, c]) => n + c, 0)
  return {
    ...extra,
    total: report.total,
    statuses: sortKeys(report.statuses),
    p50_ms: round(percentile(all, 50)),
    p99_ms: round(percentile(all, 99)),
    max_ms: round(all[all.length - 1] ?? null),
    five_xx: fivexx,
    counts: { ...report.counts },
    routes,
    findings: report.findings,
  }
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })))
}
function sortByCount(o) {
  return Object.fromEntries(Object.entries(o).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)))
}

/** 1 when anything the bar forbids happened (a 5xx, a non-JSON /v1 answer, a slow answer, no answer), else 0. */
export function exitCodeOf(summary) {
  const c = summary.counts
  return summary.five_xx + c.crashes + c.deadline + c.nonJson + c.slow + c.noAnswer > 0 ? 1 : 0
}

const fmtMs = (x) => (x === null ? '-' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`)
const fmtStatuses = (s) => Object.entries(s).map(([k, v]) => `${k}:${v}`).join(' ')

/** The printed report: a table of routes, the totals, then each kind of finding. */
export function formatReport(summary) {
  const lines = []
  const rows = [['route', 'count', 'p50', 'p99', 'max', 'statuses', 'codes (most frequent)']]
  for (const r of summary.routes) {
    const codes = Object.entries(r.codes).slice(0, 4).map(([k, v]) => `${k}:${v}`).join(' ')
    rows.push([r.route, String(r.count), fmtMs(r.p50_ms), fmtMs(r.p99_ms), fmtMs(r.max_ms), fmtStatuses(r.statuses), codes])
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  for (const row of rows) lines.push(row.map((c, i) => (i === row.length - 1 ? c : i >= 1 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd())
  lines.push('')
  const rate = summary.elapsed_s ? ` in ${summary.elapsed_s.toFixed(0)} s (${(summary.total / summary.elapsed_s).toFixed(1)} requests/s)` : ''
  lines.push(`total: ${summary.total} requests${rate}; p50 ${fmtMs(summary.p50_ms)}, p99 ${fmtMs(summary.p99_ms)}, max ${fmtMs(summary.max_ms)}`)
  lines.push(`statuses: ${fmtStatuses(summary.statuses)}`)
  const c = summary.counts
  lines.push(`5xx: ${summary.five_xx} (crashes ${c.crashes}, deadline answers 504 DEADLINE_EXCEEDED ${c.deadline}); non-JSON /v1 answers: ${c.nonJson}; slower than ${((summary.slow_ms ?? DEFAULTS.slowMs) / 1000).toFixed(0)} s: ${c.slow}; no answer: ${c.noAnswer}`)
  const sections = [
    ['crashes', '5xx other than the deadline answer'],
    ['deadline', '504 DEADLINE_EXCEEDED (the documented deadline answer, still a 5xx)'],
    ['nonJson', 'non-JSON /v1 answers'],
    ['slow', 'answers slower than the bar'],
    ['noAnswer', 'no answer (timeout or broken connection)'],
  ]
  for (const [kind, title] of sections) {
    const list = summary.findings[kind]
    if (!c[kind]) continue
    lines.push('', `${title}: ${c[kind]}${c[kind] > list.length ? ` (first ${list.length} listed)` : ''}`)
    for (const f of list) {
      lines.push(`  #${f.n} ${f.route} [${f.mode}; ${f.caller}] → ${f.status ?? f.error ?? ''} in ${fmtMs(f.ms)}`)
      lines.push(`    ${f.curl.length > 800 ? `${f.curl.slice(0, 800)}… (${f.curl.length} characters in all; --json keeps it whole)` : f.curl}`)
      if (f.contentType !== undefined) lines.push(`    content-type: ${f.contentType}`)
      if (f.body !== undefined) lines.push(`    body: ${JSON.stringify(f.body)}`)
    }
  }
  return lines.join('\n')
}

/** A shell-quoted word. */
const shq = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`

/** A curl command that replays a request (`headers` already with placeholders for keys). */
export function curlOf(origin, method, target, headers, body) {
  const parts = ['curl', '-i', '-g']
  if (method === 'HEAD') parts.push('-I')
  else if (method !== 'GET') parts.push('-X', method)
  for (const [k, v] of Object.entries(headers)) parts.push('-H', shq(`${k}: ${v}`))
  if (body !== null && body !== undefined) parts.push('--data-binary', shq(body.length > 200 ? `${body.slice(0, 200)}…` : body))
  parts.push(shq(origin + target))
  return parts.join(' ')
}

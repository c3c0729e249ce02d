// Tests for the pure half of `npm run key` (node --test src/cli/). The SHA-256 vectors are the
// same ones src/access/keys-hash.test.ts pins for hashKey in src/access/keys.ts: together they
// prove both sides hash a key identically.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  KEY_TIERS, UsageError, buildRecord, classifyTarget, formatCreated, formatList, generateKey, hashKey,
  hashesFromList, kvKeyOf, matchPrefix, parseBulkGet, parsePackUnits, parseCli, parseRecord,
} from './key-lib.mjs'

const VECTORS = [
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['mk_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', '35978ed3894b5310aea60edae983b565e37475a68093e62765f73daa60f1078e'],
]

test('hashKey matches the SHA-256 vectors shared with src/access/keys.ts', async () => {
  for (const [input, hex] of VECTORS) assert.equal(await hashKey(input), hex)
})

test('generateKey: mk_ and 32 base-62 characters, fresh each time', () => {
  const keys = new Set(Array.from({ length: 200 }, generateKey))
  assert.equal(keys.size, 200)
  for (const k of keys) assert.match(k, /^mk_[A-Za-z0-9]{32}$/)
})

test('tiers are the paid tiers of src/access/tiers.ts', () => {
  assert.deepEqual(KEY_TIERS, ['trial', 'standard', 'pro', 'unlimited'])
})

test('kvKeyOf', () => assert.equal(kvKeyOf('ab'), 'key:ab'))

const usage = (argv, pattern) => assert.throws(() => parseCli(argv), (e) => e instanceof UsageError && pattern.test(e.message))

test('parseCli: help', () => {
  for (const argv of [[], ['--help'], ['-h'], ['help'], ['create', '--help']]) assert.equal(parseCli(argv).command, 'help')
})

test('parseCli: create', () => {
  assert.deepEqual(parseCli(['create', '--tier', 'pro']), { command: 'create', remote: false, tier: 'pro', label: '', packUnits: undefined })
  assert.deepEqual(parseCli(['create', '--tier=trial', '--label', 'Acme Ltd', '--pack-units', '500000', '--remote']), {
    command: 'create', remote: true, tier: 'trial', label: 'Acme Ltd', packUnits: 500000,
  })
})

test('parseCli: create refusals name the valid values', () => {
  usage(['create'], /--tier.*trial, standard, pro, unlimited/)
  usage(['create', '--tier', 'free'], /invalid tier 'free' \(valid: trial, standard, pro, unlimited\)/)
  usage(['create', '--tier', 'PRO'], /invalid tier/)
  usage(['create', '--tier'], /argument missing|--tier/)
  usage(['create', '--tier', 'pro', 'extra'], /no positional/)
  for (const bad of ['0', '-5', '1.5', '1e6', 'abc', '', '007', '9007199254740993']) {
    usage(['create', '--tier', 'pro', `--pack-units=${bad}`], /invalid --pack-units .*valid: a whole number/)
  }
})

test('parsePackUnits', () => {
  assert.equal(parsePackUnits(undefined), undefined)
  assert.equal(parsePackUnits('1'), 1)
  assert.equal(parsePackUnits('9007199254740991'), Number.MAX_SAFE_INTEGER)
})

test('parseCli: list and revoke', () => {
  assert.deepEqual(parseCli(['list']), { command: 'list', remote: false })
  assert.deepEqual(parseCli(['list', '--remote']), { command: 'list', remote: true })
  assert.deepEqual(parseCli(['revoke', 'ABCDEF12']), { command: 'revoke', remote: false, target: { kind: 'prefix', prefix: 'abcdef12' } })
  assert.deepEqual(parseCli(['revoke', 'mk_x', '--remote']).target, { kind: 'key', key: 'mk_x' })
  usage(['revoke'], /exactly one/)
  usage(['revoke', 'abcdef12', 'abcdef13'], /exactly one/)
  usage(['list', '--tier', 'pro'], /only applies to create/)
  usage(['revoke', 'abcdef12', '--pack-units', '5'], /only applies to create/)
  usage(['list', 'x'], /no positional/)
  usage(['delete'], /unknown command 'delete'/)
  usage(['list', '--bogus'], /bogus/)
})

test('classifyTarget: keys, hash prefixes of 8 to 64 hex chars, nothing else', () => {
  assert.equal(classifyTarget('a'.repeat(64)).kind, 'prefix')
  assert.throws(() => classifyTarget('abcdef1'), UsageError) // 7: too short
  assert.throws(() => classifyTarget('a'.repeat(65)), UsageError)
  assert.throws(() => classifyTarget('abcdefgh'), UsageError) // not hex
  assert.throws(() => classifyTarget('Bearer mk_x'), UsageError)
})

test('matchPrefix and hashesFromList', () => {
  const a = 'ab'.repeat(32)
  const b = 'ab'.repeat(31) + 'cd'
  const c = 'cd'.repeat(32)
  assert.deepEqual(matchPrefix('abababab', [a, b, c]), [a, b])
  assert.deepEqual(matchPrefix(a, [a, b, c]), [a])
  assert.deepEqual(matchPrefix('00000000', [a, b, c]), [])
  assert.deepEqual(hashesFromList([{ name: `key:${a}` }, { name: 'key:short' }, { name: `other:${c}` }, { name: `key:${c}`, metadata: {} }]), [a, c])
})

test('buildRecord follows KeyRecord: pack_units only when capped', () => {
  const now = new Date('2026-05-04T01:02:03.000Z')
  assert.equal(
    JSON.stringify(buildRecord({ tier: 'pro', label: 'x' }, now)),
    '{"tier":"pro","label":"x","created":"2026-05-04T01:02:03.000Z","status":"active"}'
  )
  assert.deepEqual(buildRecord({ tier: 'trial', packUnits: 100 }, now), {
    tier: 'trial', label: '', created: '2026-05-04T01:02:03.000Z', status: 'active', pack_units: 100,
  })
})

test('parseRecord accepts what buildRecord writes and refuses other shapes', () => {
  const r = buildRecord({ tier: 'standard', packUnits: 5 })
  assert.deepEqual(parseRecord(JSON.stringify(r)), r)
  assert.deepEqual(parseRecord('{"tier":"pro","created":"x","status":"revoked","note":1}'), { tier: 'pro', created: 'x', status: 'revoked', note: 1 })
  for (const bad of ['', 'nope', 'null', '[]', '{"tier":"free","created":"x","status":"active"}', '{"tier":"pro","created":"x","status":"gone"}', '{"tier":"pro","created":"x","status":"active","pack_units":0}']) {
    assert.equal(parseRecord(bad), null, bad)
  }
})

test('parseBulkGet reads local and remote shapes and ignores the trailing Success!', () => {
  const local = '{\n  "key:a": {\n    "value": "{\\"tier\\":\\"pro\\"}"\n  },\n  "key:b": {\n    "value": null\n  }\n}\n\nSuccess!\n'
  assert.deepEqual([...parseBulkGet(local)], [['key:a', '{"tier":"pro"}'], ['key:b', null]])
  assert.deepEqual([...parseBulkGet('{"key:a":"v","key:b":null}\nSuccess!')], [['key:a', 'v'], ['key:b', null]])
  assert.throws(() => parseBulkGet('Success!'))
})

test('formatCreated names tier, label, pack and hash prefix, never the key', () => {
  const out = formatCreated('0123456789abcdef'.repeat(4), buildRecord({ tier: 'pro', label: 'Acme', packUnits: 1000 }), 'somewhere')
  assert.match(out, /tier: +pro/)
  assert.match(out, /label: +Acme/)
  assert.match(out, /pack: +1000 units/)
  assert.match(out, /hash: +0123456789ab /)
  assert.doesNotMatch(out, /mk_/)
  assert.match(formatCreated('0'.repeat(64), buildRecord({ tier: 'trial' }), 'x'), /label: +\(none\)[\s\S]*no lifetime cap/)
})

test('formatList: aligned, oldest first, unreadable rows flagged', () => {
  assert.equal(formatList([]), 'No keys.')
  const rows = [
    { hash: 'b'.repeat(64), record: { tier: 'unlimited', label: 'Big Co', created: '2026-05-02T00:00:00.000Z', status: 'revoked', pack_units: 7 } },
    { hash: 'a'.repeat(64), record: { tier: 'pro', label: '', created: '2026-05-01T00:00:00.000Z', status: 'active' } },
    { hash: 'c'.repeat(64), record: null },
  ]
  const lines = formatList(rows).split('\n')
  assert.match(lines[0], /^HASH +TIER +STATUS +PACK +CREATED +LABEL$/)
  assert.match(lines[1], /^c{12} +\? .*\(unreadable record\)$/)
  assert.match(lines[2], /^a{12} +pro +active +- +2026-05-01T00:00:00.000Z +-$/)
  assert.match(lines[3], /^b{12} +unlimited +revoked +7 +2026-05-02T00:00:00.000Z +Big Co$/)
  assert.equal(lines[4], '3 keys.')
  assert.equal(lines[1].indexOf('?'), lines[2].indexOf('pro'))
})

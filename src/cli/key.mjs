// npm run key — create, list and revoke API keys in the KEYS namespace. By default it works on
// the local dev state that `npm start` serves (.wrangler/state), so a new key is accepted there at
// once; --remote works on the deployed namespace. All storage goes through wrangler's KV commands,
// so the on-disk format is whatever wrangler dev reads. The pure parts live in key-lib.mjs.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { QUIET_ENV, ROOT } from './harness.mjs'
import {
  HELP, SHOWN_HASH, UsageError, buildRecord, formatCreated, formatList, generateKey, hashKey, hashesFromList,
  kvKeyOf, matchPrefix, parseBulkGet, parseCli, parseRecord,
} from './key-lib.mjs'

const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js')
/** Same directory `npm start` passes to `wrangler dev --persist-to`. */
const PERSIST = join(ROOT, '.wrangler/state')
/** Keys per `kv bulk get` call; the remote bulk-get API takes at most 100. */
const BULK = 100

/** Wrangler exited non-zero; its own output is the message. */
class WranglerError extends Error {}
/** A failure already explained to the user, with the exit code to use. */
class Exit extends Error {
  constructor(code, message) {
    super(message)
    this.code = code
  }
}

/** Runs `wrangler kv …` against KEYS, locally or remotely, and returns its stdout. */
function wrangler(args, remote) {
  const where = remote ? ['--remote'] : ['--local', '--persist-to', PERSIST]
  // stdin ignored: remote mode must fail with wrangler's message rather than wait on a login prompt.
  const r = spawnSync(process.execPath, [WRANGLER, ...args, '--binding', 'KEYS', ...where], {
    cwd: ROOT,
    env: QUIET_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  })
  if (r.error) throw r.error
  if (r.status !== 0) {
    // Wrangler's stdout announces the write before failing; its stderr carries the reason.
    const said = r.stderr.trim() || r.stdout.trim()
    const hint = remote ? '\n(--remote needs `npx wrangler login` or CLOUDFLARE_API_TOKEN, and a real KEYS id in wrangler.toml)' : ''
    throw new WranglerError(`wrangler ${args.slice(0, 3).join(' ')} failed (exit ${r.status}):\n${said}${hint}`)
  }
  return r.stdout
}

/** Writes one value; via a file so the JSON never goes through wrangler's argument parser. */
function put(kvKey, value, remote) {
  withTemp((dir) => {
    const file = join(dir, 'value.json')
    writeFileSync(file, value)
    wrangler(['kv', 'key', 'put', kvKey, '--path', file], remote)
  })
}

/** Hashes of every stored key record. */
function listHashes(remote) {
  return hashesFromList(JSON.parse(wrangler(['kv', 'key', 'list', '--prefix', 'key:'], remote)))
}

/** Map of KV key → stored text (null when absent), fetched in bulk. */
function getValues(kvKeys, remote) {
  const out = new Map()
  withTemp((dir) => {
    const file = join(dir, 'keys.json')
    for (let i = 0; i < kvKeys.length; i += BULK) {
      writeFileSync(file, JSON.stringify(kvKeys.slice(i, i + BULK)))
      for (const [k, v] of parseBulkGet(wrangler(['kv', 'bulk', 'get', file], remote))) out.set(k, v)
    }
  })
  return out
}

function withTemp(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'key-cli-'))
  try {
    return fn(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const whereName = (remote) => (remote ? 'the remote KEYS namespace' : 'the local dev state (.wrangler/state)')

async function create({ tier, label, packUnits, remote }) {
  const key = generateKey()
  const hash = await hashKey(key)
  const record = buildRecord({ tier, label, packUnits })
  put(kvKeyOf(hash), JSON.stringify(record), remote)
  console.log(formatCreated(hash, record, whereName(remote)))
  console.log(key) // must stay the last line: scripts take it with `tail -n 1`
}

function list({ remote }) {
  const hashes = listHashes(remote)
  const values = getValues(hashes.map(kvKeyOf), remote)
  const rows = hashes.map((hash) => ({ hash, record: parseRecord(values.get(kvKeyOf(hash)) ?? '') }))
  console.log(`Keys in ${whereName(remote)}:`)
  console.log(formatList(rows))
}

async function revoke({ target, remote }) {
  let hash
  if (target.kind === 'key') {
    hash = await hashKey(target.key)
  } else {
    const matches = matchPrefix(target.prefix, listHashes(remote))
    if (matches.length === 0) throw new Exit(1, `no key whose hash starts with ${target.prefix} in ${whereName(remote)}`)
    if (matches.length > 1) {
      throw new Exit(2, `hash prefix ${target.prefix} is ambiguous; it matches:\n${matches.map((h) => `  ${h}`).join('\n')}\nGive more characters.`)
    }
    hash = matches[0]
  }
  const text = getValues([kvKeyOf(hash)], remote).get(kvKeyOf(hash))
  if (text == null) throw new Exit(1, `no such key in ${whereName(remote)} (hash ${hash.slice(0, SHOWN_HASH)})`)
  const record = parseRecord(text)
  if (!record) throw new Exit(1, `the record under key:${hash} is not a valid key record; left unchanged:\n${text}`)
  const id = `${record.tier} key ${hash.slice(0, SHOWN_HASH)}${record.label ? ` (${record.label})` : ''}`
  if (record.status === 'revoked') {
    console.log(`Already revoked: ${id}.`)
    return
  }
  put(kvKeyOf(hash), JSON.stringify({ ...record, status: 'revoked' }), remote)
  console.log(`Revoked ${id} in ${whereName(remote)}.`)
}

try {
  const args = parseCli(process.argv.slice(2))
  if (args.command === 'help') console.log(HELP)
  else if (args.command === 'create') await create(args)
  else if (args.command === 'list') list(args)
  else await revoke(args)
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`key: ${e.message}\nRun \`npm run key -- --help\` for usage.`)
    process.exitCode = 2
  } else if (e instanceof Exit) {
    console.error(`key: ${e.message}`)
    process.exitCode = e.code
  } else if (e instanceof WranglerError) {
    console.error(`key: ${e.message}`)
    process.exitCode = 1
  } else {
    throw e
  }
}

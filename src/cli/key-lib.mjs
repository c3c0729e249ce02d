// The pure half of `npm run key`: argument parsing, key and record building, prefix matching and
// output formatting. No I/O here, so `node --test src/cli/` covers it; key.mjs talks to wrangler.
import { webcrypto } from 'node:crypto'
import { parseArgs } from 'node:util'

/** Tiers a key may carry (src/access/tiers.ts TIERS without `free`, which is for anonymous callers). */
export const KEY_TIERS = ['trial', 'standard', 'pro', 'unlimited']

/** Hex characters of the hash that `list` shows and that identify a key in output. */
export const SHOWN_HASH = 12
/** Shortest hash prefix `revoke` accepts: 8 hex chars is 2^32 ways, enough for a hand-typed id. */
const MIN_PREFIX = 8

/** A usage mistake: key.mjs prints the message and exits 2. */
export class UsageError extends Error {}

/** KV key under which a key's record lives (same as kvKeyOf in src/access/keys.ts). */
export const kvKeyOf = (hash) => `key:${hash}`

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A new API key: `mk_` and 32 random base-62 characters. Same algorithm as generateKey in
 * src/access/keys.ts, bias included, so keys from either side look alike.
 */
export function generateKey() {
  const bytes = webcrypto.getRandomValues(new Uint8Array(32))
  return 'mk_' + Array.from(bytes, (b) => ALPHABET[b % 62]).join('')
}

/** SHA-256 of the key as lower-case hex; must equal hashKey in src/access/keys.ts (tests pin a vector). */
export async function hashKey(key) {
  const digest = await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(key))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

export const HELP = `npm run key -- <command> [options]

Manage API keys in the KEYS namespace. Without --remote the local dev state
(.wrangler/state, what \`npm start\` serves) is used; with --remote the deployed
namespace (needs \`npx wrangler login\` or CLOUDFLARE_API_TOKEN).

Commands:
  create --tier <${KEY_TIERS.join('|')}> [--label L] [--pack-units N]
      Make a key. The key is printed once, as the last line; only its SHA-256 is stored.
      --pack-units N: lifetime cap in usage units (a buyout pack); omitted = no cap.
  list
      Every key record: hash prefix, tier, status, pack, created, label. Keys are not stored,
      so they cannot be shown.
  revoke <key | hash prefix>
      Mark a key revoked. Give the key itself or at least ${MIN_PREFIX} hex characters of its hash
      (as \`list\` shows).

Options:
  --remote    use the deployed namespace instead of the local dev state
  -h, --help  this text

Exit codes: 0 done, 1 not found or wrangler failed, 2 usage error.`

const OPTIONS = {
  tier: { type: 'string' },
  label: { type: 'string' },
  'pack-units': { type: 'string' },
  remote: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
}

/**
 * Parses `npm run key` arguments into
 * `{ command: 'help' | 'create' | 'list' | 'revoke', remote, tier?, label?, packUnits?, target? }`.
 * Throws UsageError for anything malformed, naming the valid values.
 */
export function parseCli(argv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError(e.message)
  }
  const { values: v, positionals } = parsed
  const [command, ...rest] = positionals
  if (v.help || command === undefined || command === 'help') return { command: 'help', remote: v.remote }
  if (!['create', 'list', 'revoke'].includes(command)) {
    throw new UsageError(`unknown command '${command}' (expected create, list or revoke)`)
  }
  // Creation options elsewhere are a likely mix-up; refusing beats silently ignoring them.
  if (command !== 'create') {
    for (const name of ['tier', 'label', 'pack-units']) {
      if (v[name] !== undefined) throw new UsageError(`--${name} only applies to create`)
    }
  }
  if (command === 'create') {
    if (rest.length) throw new UsageError(`create takes no positional arguments (got '${rest[0]}')`)
    if (v.tier === undefined) throw new UsageError(`create needs --tier (one of ${KEY_TIERS.join(', ')})`)
    if (!KEY_TIERS.includes(v.tier)) {
      throw new UsageError(`invalid tier '${v.tier}' (valid: ${KEY_TIERS.join(', ')})`)
    }
    return { command, remote: v.remote, tier: v.tier, label: v.label ?? '', packUnits: parsePackUnits(v['pack-units']) }
  }
  if (command === 'list') {
    if (rest.length) throw new UsageError(`list takes no positional arguments (got '${rest[0]}')`)
    return { command, remote: v.remote }
  }
  if (rest.length !== 1) throw new UsageError('revoke takes exactly one argument: the key or a hash prefix')
  return { command, remote: v.remote, target: classifyTarget(rest[0]) }
}

/** `--pack-units`: absent, or a positive safe integer written in plain decimal. */
export function parsePackUnits(raw) {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!/^[1-9][0-9]*$/.test(raw) || !Number.isSafeInteger(n)) {
    throw new UsageError(`invalid --pack-units '${raw}' (valid: a whole number from 1 to ${Number.MAX_SAFE_INTEGER}; omit for no cap)`)
  }
  return n
}

/**
 * What `revoke` was given: `{ kind: 'key', key }` for a key (`mk_…`) or `{ kind: 'prefix', prefix }`
 * for 8 to 64 hex characters of a hash (lower-cased).
 */
export function classifyTarget(arg) {
  if (arg.startsWith('mk_')) return { kind: 'key', key: arg }
  if (new RegExp(`^[0-9a-fA-F]{${MIN_PREFIX},64}$`).test(arg)) return { kind: 'prefix', prefix: arg.toLowerCase() }
  throw new UsageError(`'${arg}' is neither a key (mk_…) nor a hash prefix of at least ${MIN_PREFIX} hex characters`)
}

/** The hashes among `hashes` that start with `prefix`. */
export const matchPrefix = (prefix, hashes) => hashes.filter((h) => h.startsWith(prefix))

/** Hashes from `wrangler kv key list` output (`[{ name }]`), keeping only `key:<64 hex>` entries. */
export function hashesFromList(entries) {
  return entries.map((e) => /^key:([0-9a-f]{64})$/.exec(e.name)?.[1]).filter(Boolean)
}

/**
 * A new record in the KeyRecord format of src/access/keys.ts; `pack_units` only when capped.
 * Field order matches the schema so stored JSON reads the same from either side.
 */
export function buildRecord({ tier, label = '', packUnits }, now = new Date()) {
  const record = { tier, label, created: now.toISOString(), status: 'active' }
  if (packUnits !== undefined) record.pack_units = packUnits
  return record
}

/**
 * Parses a stored value into a record, or null when it does not look like one (the same shape
 * KeyRecordSchema accepts; unknown extra fields are kept).
 */
export function parseRecord(text) {
  let r
  try {
    r = JSON.parse(text)
  } catch {
    return null
  }
  if (!r || typeof r !== 'object' || Array.isArray(r)) return null
  if (!KEY_TIERS.includes(r.tier) || typeof r.created !== 'string') return null
  if (!['active', 'revoked'].includes(r.status)) return null
  if (r.label !== undefined && typeof r.label !== 'string') return null
  if (r.pack_units !== undefined && !(Number.isInteger(r.pack_units) && r.pack_units > 0)) return null
  return r
}

/**
 * Values from `wrangler kv bulk get` output as a Map of KV key → text (null when absent). Local
 * mode prints `{ key: { value } }`; the remote API answers `{ key: value }`; both are accepted.
 * Wrangler appends "Success!" after the JSON, so only the outermost braces are parsed.
 */
export function parseBulkGet(stdout) {
  const start = stdout.indexOf('{')
  const end = stdout.lastIndexOf('}')
  if (start < 0 || end < start) throw new Error(`unexpected output from wrangler kv bulk get: ${stdout.slice(0, 200)}`)
  const obj = JSON.parse(stdout.slice(start, end + 1))
  const out = new Map()
  for (const [k, v] of Object.entries(obj)) {
    const value = v !== null && typeof v === 'object' ? v.value : v
    out.set(k, value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value))
  }
  return out
}

/** Human summary printed by `create`, without the key (key.mjs prints that last). */
export function formatCreated(hash, record, where) {
  return [
    `Created a ${record.tier} key in ${where}.`,
    `  tier:    ${record.tier}`,
    `  label:   ${record.label || '(none)'}`,
    `  pack:    ${record.pack_units === undefined ? 'none (no lifetime cap)' : `${record.pack_units} units`}`,
    `  hash:    ${hash.slice(0, SHOWN_HASH)}  (for list / revoke)`,
    `  created: ${record.created}`,
    'The key follows on the last line. It is shown only now; send it as "Authorization: Bearer <key>".',
  ].join('\n')
}

/**
 * The `list` table: rows of `{ hash, record }` (record null when unreadable), oldest first.
 * Keys never appear: only their hashes are stored.
 */
export function formatList(rows) {
  if (!rows.length) return 'No keys.'
  const sorted = [...rows].sort((a, b) => (a.record?.created ?? '').localeCompare(b.record?.created ?? '') || a.hash.localeCompare(b.hash))
  const table = [['HASH', 'TIER', 'STATUS', 'PACK', 'CREATED', 'LABEL']]
  for (const { hash, record: r } of sorted) {
    const id = hash.slice(0, SHOWN_HASH)
    if (!r) table.push([id, '?', '?', '?', '?', '(unreadable record)'])
    else table.push([id, r.tier, r.status, r.pack_units === undefined ? '-' : String(r.pack_units), r.created, r.label || '-'])
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)))
  const lines = table.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join('  '))
  return [...lines, `${rows.length} key${rows.length === 1 ? '' : 's'}.`].join('\n')
}

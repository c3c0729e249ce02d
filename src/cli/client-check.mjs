// The typed client's check (clients/typescript), on a running emulator worker:
//   1. clients/typescript/src/schema.d.ts equals a fresh generation from its /openapi.json;
//   2. tsc type-checks the client, its example and its type tests (and emits them to .bench/client-js);
//   3. the example, compiled, runs as a program against the worker over HTTP with a trial key and
//      prints a quote, a technical row and a screen of a day's factor table.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { firstDifference, generateClientSchema, SCHEMA_FILE } from './client-schema.mjs'
import { ROOT, storeKeys } from './harness.mjs'
import { OUT } from './openapi-doc.mjs'

const EMITTED = join(OUT, 'client-js')
const KEY = 'mk_check_client_trial'
// Inside a session, the day after the session whose tables are built: the screen reads them.
const CLOCK = '2026-11-20T10:30:00+08:00'
const TABLE_DATE = '2026-11-19'
const TABLE_CODES = 'sh600519,sh601398,sh601318,sh600036,sz000858,sz000001'
/** A line of the example's output for each of its three calls. */
const EXPECTED_LINES = [
  /^quote sh600519 \(emulator:\w+\): last \d+\.\d+ on 2026-11-20$/m,
  /^technical sh600519 2026-11-20: close \d/m,
  /^screen 2026-11-19: sh\d{6} \S+ TotalMV \d/m,
]

/** Why the check failed, said as the user should act on it. */
export class ClientCheckFailure extends Error {}

/**
 * Runs the three steps against `mf` (a worker from withEmulatorWorker) given its `/openapi.json`;
 * throws a {@link ClientCheckFailure} at the first that fails, returns the example's output.
 */
export async function checkClient(mf, openapiText) {
  const diff = firstDifference(readFileSync(join(ROOT, SCHEMA_FILE), 'utf8'), await generateClientSchema(openapiText))
  if (diff) {
    throw new ClientCheckFailure(`${SCHEMA_FILE} is stale: run npm run gen:client\n  line ${diff.line}, committed: ${diff.committed.trim()}\n  line ${diff.line}, generated: ${diff.fresh.trim()}`)
  }

  rmSync(EMITTED, { recursive: true, force: true })
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'clients/typescript', '--noEmit', 'false', '--outDir', EMITTED], { cwd: ROOT, stdio: 'inherit' })
  } catch {
    throw new ClientCheckFailure('tsc -p clients/typescript failed: see the errors above')
  }

  const origin = String(await mf.ready).replace(/\/$/, '')
  await control(mf, 'PUT', '/__emulator/clock', { now: new Date(CLOCK).toISOString() })
  await control(mf, 'POST', `/__bench/day-tables?date=${TABLE_DATE}&codes=${TABLE_CODES}`)
  await storeKeys(mf, [KEY], 'trial', 'check:client')
  let stdout
  try {
    ;({ stdout } = await promisify(execFile)(process.execPath, [join(EMITTED, 'examples/basic.js')], { env: { ...process.env, API_BASE_URL: origin, API_KEY: KEY } }))
  } catch (e) {
    throw new ClientCheckFailure(`clients/typescript/examples/basic.ts failed against the worker (exit ${e.code}):\n${e.stdout}${e.stderr}`)
  }
  const missing = EXPECTED_LINES.filter((line) => !line.test(stdout))
  if (missing.length) throw new ClientCheckFailure(`the example's output lacks ${missing.join(', ')}:\n${stdout}`)
  return stdout
}

/** One of the emulator's control calls (its clock, the bench's table seeding). */
async function control(mf, method, path, body) {
  const res = await mf.dispatchFetch(`http://127.0.0.1:8787${path}`, {
    method,
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  })
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${await res.text()}`)
  await res.arrayBuffer()
}

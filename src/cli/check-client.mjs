// npm run check:client (part of npm test) — keeps the typed client (clients/typescript) in step
// with the API, on one build of the worker:
//   1. clients/typescript/src/schema.d.ts equals a fresh generation from /openapi.json;
//   2. tsc type-checks the client and its example (and emits them to .bench/client-js);
//   3. the example, compiled, runs as a program against the worker over HTTP with a trial key and
//      prints a quote, a technical row and a screen of the day's factor table.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { firstDifference, generateClientSchema, SCHEMA_FILE } from './client-schema.mjs'
import { ROOT, storeKeys } from './harness.mjs'
import { OUT, openApiText, withEmulatorWorker } from './openapi-doc.mjs'

const EMITTED = join(OUT, 'client-js')
const KEY = 'mk_check_client_trial'
// Inside a session, the day after the session whose tables are built: the screen reads them.
const CLOCK = '2026-11-20T10:30:00+08:00'
const TABLE_DATE = '2026-11-19'
const TABLE_CODES = 'sh600519,sh601398,sh601318,sh600036,sz000858,sz000001'

function fail(message) {
  console.error(`check:client: ${message}`)
  process.exit(1)
}

await withEmulatorWorker('client-build', async (mf) => {
  const fresh = await generateClientSchema(await openApiText(mf))
  const diff = firstDifference(readFileSync(join(ROOT, SCHEMA_FILE), 'utf8'), fresh)
  if (diff) {
    fail(`${SCHEMA_FILE} is stale: run npm run gen:client\n  line ${diff.line}, committed: ${diff.committed.trim()}\n  line ${diff.line}, generated: ${diff.fresh.trim()}`)
  }

  rmSync(EMITTED, { recursive: true, force: true })
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'clients/typescript', '--noEmit', 'false', '--outDir', EMITTED], { cwd: ROOT, stdio: 'inherit' })
  } catch {
    fail('tsc -p clients/typescript failed: see the errors above')
  }

  const control = (path, body) => mf.dispatchFetch(`http://127.0.0.1:8787${path}`, { method: body ? 'PUT' : 'POST', ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) })
  for (const res of [await control('/__emulator/clock', { now: new Date(CLOCK).toISOString() }), await control(`/__bench/day-tables?date=${TABLE_DATE}&codes=${TABLE_CODES}`)]) {
    if (!res.ok) fail(`seeding the worker: ${res.url} answered ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  await storeKeys(mf, [KEY], 'trial', 'check:client')
  const origin = String(await mf.ready).replace(/\/$/, '')
  let stdout
  try {
    ;({ stdout } = await promisify(execFile)(process.execPath, [join(EMITTED, 'examples/basic.js')], { env: { ...process.env, API_BASE_URL: origin, API_KEY: KEY } }))
  } catch (e) {
    fail(`clients/typescript/examples/basic.ts failed against the worker (exit ${e.code}):\n${e.stdout}${e.stderr}`)
  }
  const expected = [/^quote sh600519 \(emulator:\w+\): last \d+\.\d+ on 2026-11-20$/m, /^technical sh600519 2026-11-20: close \d/m, /^screen 2026-11-19: sh\d{6} \S+ TotalMV \d/m]
  const missing = expected.filter((line) => !line.test(stdout))
  if (missing.length) fail(`the example's output lacks ${missing.join(', ')}:\n${stdout}`)
  console.log(`check:client: ${SCHEMA_FILE} is current; the client and its example type-check; the example ran against the worker:\n${stdout.trimEnd()}`)
})

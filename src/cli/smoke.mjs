#!/usr/bin/env node
// `npm run smoke -- --emulator | --live`: asks each catalogued upstream endpoint once, with the
// request of its newest held capture (src/emulator/wire/held-captures.ts), and checks with the one
// comparator (src/cli/wire-shape.mjs) that the answer still has the captured form. Prints a table:
// endpoint, status, what changed.
//   --emulator  the local emulator, at the capture's hour (in `npm test`).
//   --live      the real hosts, before a deploy: one request at a time, the channels' headers,
//               `--gap-ms` apart (default 3000); a host that does not answer within `--timeout-ms`
//               (default 10000) is "unreachable" and its other endpoints are not asked.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { importBundled } from './build-openapi.mjs'
import { smokeTable, runSmoke } from './smoke-lib.mjs'

const ROOT = resolve(import.meta.dirname, '../..')

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg ? Number(arg.split('=')[1]) : fallback
}

const live = process.argv.includes('--live')
if (!live && !process.argv.includes('--emulator')) {
  console.error('usage: npm run smoke -- --emulator | --live [--gap-ms=3000] [--timeout-ms=10000]')
  process.exit(2)
}
process.chdir(ROOT)
const held = await importBundled('src/emulator/wire/held-captures.ts')
const rows = await runSmoke({
  held: held.heldCaptures(),
  readFile: (file) => new Uint8Array(readFileSync(file)),
  departures: held.departures,
  ask: live ? undefined : held.askEmulator,
  gapMs: live ? option('gap-ms', 3000) : 0,
  timeoutMs: option('timeout-ms', 10_000),
})
process.stdout.write(smokeTable(rows, live ? 'live hosts' : 'emulator'))
if (rows.some((r) => r.status === 'changed' || (!live && r.status !== 'same form'))) process.exitCode = 1

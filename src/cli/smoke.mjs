#!/usr/bin/env node
// `npm run smoke -- --emulator | --live`: asks each catalogued upstream endpoint once, with the
// request of its newest held capture (src/emulator/wire/held-captures.ts), and checks with the one
// comparator (src/cli/wire-shape.mjs) that the answer still has the captured form. Prints a table:
// endpoint, status, what changed.
//   --emulator  the local emulator, at the capture's hour (in `npm test`).
//   --live      the real hosts, before a deploy: one request at a time, the channels' headers,
//               `--gap-ms` apart (default 3000); a host that does not answer within `--timeout-ms`
//               (default 10000) is "unreachable" and its other endpoints are not asked.
//   --record DIR  also asks the endpoints without a held capture, with their catalogue `probe`, and
//               writes every answer byte for byte to DIR/<endpoint id>.<ext>, with DIR/record.json
//               (request, status, content type, Beijing instant, hour class): docs/upstreams.md,
//               "Recording the missing answers".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { importBundled } from './build-openapi.mjs'
import { smokeTable, runSmoke } from './smoke-lib.mjs'

const ROOT = resolve(import.meta.dirname, '../..')

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg ? Number(arg.split('=')[1]) : fallback
}

/** `--record DIR` or `--record=DIR`, resolved from where the command was run; undefined without it. */
function recordDir() {
  const i = process.argv.indexOf('--record')
  const raw = i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith('--record='))?.slice('--record='.length)
  if (i >= 0 && (!raw || raw.startsWith('--'))) return null
  return raw === undefined ? undefined : resolve(raw)
}

const live = process.argv.includes('--live')
const dir = recordDir()
if ((!live && !process.argv.includes('--emulator')) || dir === null) {
  console.error('usage: npm run smoke -- --emulator | --live [--record DIR] [--gap-ms=3000] [--timeout-ms=10000]')
  process.exit(2)
}
process.chdir(ROOT)
if (dir) mkdirSync(dir, { recursive: true })
const held = await importBundled('src/emulator/wire/held-captures.ts')
const rows = await runSmoke({
  held: held.heldCaptures(),
  probes: held.probes(undefined, !live),
  record: dir && {
    writeFile: (name, bytes) => writeFileSync(join(dir, name), bytes),
    hourOf: held.hourOf,
    takenAt: live ? undefined : held.emulatorInstant,
    upstream: live ? 'live' : 'emulator',
  },
  readFile: (file) => new Uint8Array(readFileSync(file)),
  departures: held.departures,
  ask: live ? undefined : held.askEmulator,
  gapMs: live ? option('gap-ms', 3000) : 0,
  timeoutMs: option('timeout-ms', 10_000),
})
process.stdout.write(smokeTable(rows, live ? 'live hosts' : 'emulator', { recording: Boolean(dir) }))
if (dir) process.stdout.write(`Answers and record.json written to ${dir}\n`)
const fine = new Set(['same form', 'recorded', 'not asked'])
if (rows.some((r) => r.status === 'changed' || (!live && !fine.has(r.status)))) process.exitCode = 1

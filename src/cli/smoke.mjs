#!/usr/bin/env node
// `npm run smoke -- --emulator | --live`: asks each catalogued upstream endpoint once, with the
// request of its newest held capture (src/emulator/wire/held-captures.ts), and checks with the one
// comparator (src/cli/wire-shape.mjs) that the answer still has the captured form. Prints a table:
// endpoint, status, what changed.
//   --emulator  the local emulator, at the capture's hour (in `npm test`).
//   --live      the real hosts, before a deploy: one request at a time, the channels' headers,
//               `--gap-ms` apart (default 3000); a host that does not answer within `--timeout-ms`
//               (default 10000) is "unreachable" and its other endpoints are not asked.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { smokeTable, runSmoke } from './smoke-lib.mjs'

const ROOT = resolve(import.meta.dirname, '../..')

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg ? Number(arg.split('=')[1]) : fallback
}

/** The held-captures module, bundled for Node (it is TypeScript, and the emulator with it). */
async function heldModule() {
  const dir = mkdtempSync(join(tmpdir(), 'smoke-'))
  try {
    const outfile = join(dir, 'held.mjs')
    await build({
      entryPoints: [join(ROOT, 'src/emulator/wire/held-captures.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'error',
      alias: { zod: join(ROOT, 'src/zod-lean.ts') },
    })
    return await import(pathToFileURL(outfile).href)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const live = process.argv.includes('--live')
if (!live && !process.argv.includes('--emulator')) {
  console.error('usage: npm run smoke -- --emulator | --live [--gap-ms=3000] [--timeout-ms=10000]')
  process.exit(2)
}
process.chdir(ROOT)
const held = await heldModule()
const rows = await runSmoke({
  held: held.heldCaptures(),
  endpoints: held.UPSTREAM_ENDPOINTS ?? [],
  readFile: (file) => new Uint8Array(readFileSync(file)),
  departures: held.departures,
  ask: live ? undefined : held.askEmulator,
  gapMs: live ? option('gap-ms', 3000) : 0,
  timeoutMs: option('timeout-ms', 10_000),
})
process.stdout.write(smokeTable(rows, live ? 'live hosts' : 'emulator'))
if (rows.some((r) => r.status === 'changed' || (!live && r.status !== 'same form'))) process.exitCode = 1

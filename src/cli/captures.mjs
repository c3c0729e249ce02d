#!/usr/bin/env node
// `npm run captures`: which upstream endpoints have a real captured answer, at which hours, and
// which have none (with what was searched). Reads src/data/upstreams/*.json and checks that
// every fixture it names is on disk, so the figures cannot drift from the files. With --docs, it
// rewrites the coverage part of docs/upstreams.md (a test holds the page to the catalogue).
// With --adopt DIR, it first adopts the live answers `npm run smoke -- --live --record DIR` wrote
// (src/cli/adopt-lib.mjs; docs/upstreams.md, "Recording the missing answers").
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { adoptRecording } from './adopt-lib.mjs'
import { readCatalogue, coverage, formatCoverage, writeCoverage } from './captures-lib.mjs'

const ROOT = new URL('../..', import.meta.url).pathname
const at = process.argv.indexOf('--adopt')
if (at >= 0) {
  const raw = process.argv[at + 1]
  if (!raw || raw.startsWith('--')) {
    console.error('usage: npm run captures -- [--docs] [--adopt DIR]   (DIR: what npm run smoke -- --live --record DIR wrote)')
    process.exit(2)
  }
  // The recording's folder as given from where the command was run (npm runs scripts from the root).
  const dir = isAbsolute(raw) ? raw : resolve(process.env.INIT_CWD ?? process.cwd(), raw)
  const path = (f) => (isAbsolute(f) ? f : join(ROOT, f))
  const io = {
    read: (f) => new Uint8Array(readFileSync(path(f))),
    write: (f, bytes) => {
      mkdirSync(dirname(path(f)), { recursive: true })
      writeFileSync(path(f), bytes)
    },
    exists: (f) => existsSync(path(f)),
  }
  const { adopt, skip } = adoptRecording(dir, readCatalogue(), io)
  for (const a of adopt) console.log(`adopted  ${a.endpoint.id}: ${a.capture.file} (${a.capture.hour}, ${a.capture.taken})`)
  for (const s of skip) console.log(`left     ${s.id}: ${s.why}`)
  console.log(
    adopt.length
      ? `\n${adopt.length} answers adopted. Next, for each: a parser test that reads the file (what it reads, and that its numbers add up), the emulator held to it (npx vitest run --project unit src/emulator/wire/captures.test.ts), then npm run captures -- --docs.\n`
      : '\nNothing adopted.\n'
  )
}

const catalogue = readCatalogue()
const report = coverage(catalogue)
process.stdout.write(formatCoverage(report))
if (process.argv.includes('--docs') && writeCoverage(report)) process.stdout.write('docs/upstreams.md: coverage rewritten\n')
if (report.problems.length) process.exitCode = 1

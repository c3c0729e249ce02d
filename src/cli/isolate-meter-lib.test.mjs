import assert from 'node:assert/strict'
import { test } from 'node:test'
import { costBook, cpuOfProfile, moduleMap, runtimePid, statCpuMs } from './isolate-meter-lib.mjs'

const BUNDLE = [
  'var __defProp = Object.defineProperty;', // 0: before any module
  '// node_modules/hono/dist/router.js', // 1
  'var x = 1;',
  '// src/jobs/backfill.ts', // 3
  'async function backfillChunk() {',
  '}',
  '// src/emulator/wire/eastmoney.ts', // 6
  'function row5() {',
  '  // not a module comment: indented',
  '}',
].join('\n')

test('moduleMap names the source module of each bundle line from esbuild\'s comments', () => {
  const moduleOf = moduleMap(BUNDLE)
  assert.equal(moduleOf(0), undefined)
  assert.equal(moduleOf(2), 'node_modules/hono/dist/router.js')
  assert.equal(moduleOf(4), 'src/jobs/backfill.ts')
  assert.equal(moduleOf(8), 'src/emulator/wire/eastmoney.ts')
})

/** A profile: root → (idle); root → backfillChunk (line 4) → row5 (line 7, the emulator). */
const PROFILE = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', lineNumber: -1 }, children: [2, 3] },
    { id: 2, callFrame: { functionName: '(idle)', lineNumber: -1 } },
    { id: 3, callFrame: { functionName: 'backfillChunk', lineNumber: 4 }, children: [4] },
    { id: 4, callFrame: { functionName: 'row5', lineNumber: 7 } },
    { id: 5, callFrame: { functionName: '(garbage collector)', lineNumber: -1 } },
  ],
  // each sample lasts until the next one (µs)
  samples: [3, 4, 4, 2, 3, 5, 3, 2],
  timeDeltas: [0, 1000, 1000, 1000, 2000, 1000, 1000, 1000],
}

test('cpuOfProfile: busy time, the emulator\'s part, and the longest run without an idle sample', () => {
  const c = cpuOfProfile(PROFILE, moduleMap(BUNDLE))
  // busy: 3 (1 ms), 4 (1), 4 (1), 3 (1), 5 (1), 3 (1); idle: the 2 ms after the 4th sample, and the last
  assert.deepEqual(c, { cpuMs: 6, emulatorMs: 2, longestMs: 3 })
})

test('costBook keeps the worst of each figure per kind of step and prints a table', () => {
  const book = costBook()
  book.add('chunk', { cpuMs: 4000, emulatorMs: 1500, longestMs: 80, heapMB: 40.2 })
  book.add('chunk', { cpuMs: 5000, emulatorMs: 1000, longestMs: 60, heapMB: 38 })
  book.add('start', { cpuMs: 900, emulatorMs: 700, longestMs: 120, heapMB: 20 })
  assert.deepEqual(book.get('chunk'), { runs: 2, cpuMs: 5000, emulatorMs: 1000, ownMs: 4000, longestMs: 80, heapMB: 40.2 })
  const lines = book.lines()
  assert.equal(lines.length, 3)
  assert.match(lines[1], /^chunk\s+2\s+5,000 ms \(1,000 ms\)\s+4,000 ms\s+80 ms\s+40 MB$/)
  assert.match(lines[2], /^start\s+1\s+900 ms \(700 ms\)\s+200 ms\s+120 ms\s+20 MB$/)
})

test('runtimePid finds the workerd with an inspector among the server\'s descendants', () => {
  const procs = [
    { pid: 10, ppid: 1, args: 'node wrangler.js dev' },
    { pid: 11, ppid: 10, args: 'node cli.js dev' },
    { pid: 12, ppid: 11, args: 'workerd serve --socket-addr=entry=127.0.0.1:8790' },
    { pid: 13, ppid: 11, args: 'workerd serve --socket-addr=entry=127.0.0.1:0 --inspector-addr=localhost:0' },
    { pid: 20, ppid: 1, args: 'workerd serve --inspector-addr=localhost:0' }, // someone else's
  ]
  assert.equal(runtimePid(procs, 10), 13)
  assert.equal(runtimePid(procs, 99), undefined)
})

test('statCpuMs adds user and system ticks, whatever the command name holds', () => {
  const stat = '14598 (work erd) S 14570 14500 14500 0 -1 4194560 90000 0 0 0 21903 783 0 0 20 0 6 0 1 1 1'
  assert.equal(statCpuMs(stat), 226_860)
})

// What a job step costs inside workerd, measured from outside:
//   CPU     the CPU time of workerd's JavaScript thread over the step (/proc/<pid>/task/<pid>/stat,
//           when the runtime's pid is known: `npm start` knows it); otherwise the busy time of
//           V8's sampling profiler, which on a busy machine also counts the time the thread
//           waited for a core, and so errs high;
//   emulator the share of that spent in the in-process upstream emulator: profiler samples with
//           an emulator frame on the stack (no production step spends it);
//   longest the longest run of busy profiler samples: wall time the isolate ran without a
//           break, which a request arriving meanwhile waits at worst;
//   heap    the isolate's memory in use, polled every POLL_MS for its peak: the JS heap (garbage
//           not yet collected included, so it errs high), workerd's own objects, ArrayBuffers.
// The profiler and the heap come through the inspector `wrangler dev` exposes (--inspector-port;
// one client at a time). Steps measured through one meter run one at a time, so each has the
// isolate to itself (requests aside).
import { readdirSync, readFileSync } from 'node:fs'
import WebSocket from 'ws'
import { costBook, cpuOfProfile, moduleMap, runtimePid, statCpuMs } from './isolate-meter-lib.mjs'

const POLL_MS = 20
/** Sampling interval of the profiler, µs: fine enough for the longest-run figure. */
const SAMPLE_US = 1000

/**
 * The isolate's memory in a heap report: the JS heap, the embedder's (workerd's own objects) and
 * ArrayBuffer backing stores (bodies read into memory), as the platform's memory limit counts them.
 */
const heapBytes = (h) => h.usedSize + (h.embedderHeapUsedSize ?? 0) + (h.backingStorageSize ?? 0)

/** The running processes as [{ pid, ppid, args }] (Linux /proc); empty elsewhere. */
function processes() {
  const out = []
  let dirs = []
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  } catch {
    return out
  }
  for (const d of dirs) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      out.push({ pid: Number(d), ppid, args: readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ') })
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/** A reader of the CPU ms of `pid`'s main thread (where workerd runs JavaScript), or undefined. */
function threadCpu(pid) {
  if (!pid) return undefined
  const path = `/proc/${pid}/task/${pid}/stat`
  try {
    statCpuMs(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
  return () => statCpuMs(readFileSync(path, 'utf8'))
}

/**
 * Connects to the inspector on `port`; `serverPid` (wrangler dev's) lets it read the runtime's
 * thread CPU. Resolves to a meter, or to undefined when nothing answers there (the steps then run
 * unmeasured).
 */
export async function openMeter(port, serverPid) {
  let list
  try {
    list = await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5000) })).json()
  } catch {
    return undefined
  }
  const ws = new WebSocket(list[0].webSocketDebuggerUrl)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let id = 0
  const waiting = new Map()
  const scripts = []
  ws.on('message', (m) => {
    const msg = JSON.parse(m)
    if (msg.method === 'Debugger.scriptParsed') scripts.push(msg.params)
    if (msg.id === undefined) return
    const w = waiting.get(msg.id)
    waiting.delete(msg.id)
    if (msg.error) w?.reject(new Error(`${msg.error.message} (${msg.error.code})`))
    else w?.resolve(msg.result ?? {}) // workerd answers Profiler.enable and .start with an echo
  })
  const send = (method, params = {}) => new Promise((resolve, reject) => (waiting.set(++id, { resolve, reject }), ws.send(JSON.stringify({ id, method, params }))))

  // The bundle's module comments say which source file each line belongs to.
  await send('Debugger.enable')
  await new Promise((r) => setTimeout(r, 200))
  const bundle = scripts.filter((s) => s.url.endsWith('.js')).sort((a, b) => b.endLine - a.endLine)[0]
  const modules = bundle ? moduleMap((await send('Debugger.getScriptSource', { scriptId: bundle.scriptId })).scriptSource) : undefined
  await send('Debugger.disable')
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: SAMPLE_US })

  const cpuNow = threadCpu(serverPid && runtimePid(processes(), serverPid))
  const book = costBook()
  let busy = Promise.resolve()
  const meter = {
    book,
    /** The cost of the step measured last. */
    last: undefined,
    /**
     * Runs `fn` (one job step), records its cost under `kind` (a name, or a function of the
     * step's result), and returns its result.
     */
    measure(kind, fn) {
      const run = busy.then(async () => {
        await send('Profiler.start')
        const t0 = performance.now()
        const cpu0 = cpuNow?.()
        let peak = 0
        let polling = true
        const poll = (async () => {
          while (polling) {
            peak = Math.max(peak, heapBytes(await send('Runtime.getHeapUsage')))
            await new Promise((r) => setTimeout(r, POLL_MS))
          }
        })()
        let value
        let error
        try {
          value = await fn()
        } catch (e) {
          error = e
        }
        polling = false
        await poll
        const wallMs = performance.now() - t0
        const cpu1 = cpuNow?.()
        const { profile } = await send('Profiler.stop')
        if (error) throw error
        const sampled = cpuOfProfile(profile, modules)
        const cpuMs = cpu0 === undefined ? sampled.cpuMs : cpu1 - cpu0
        const emulatorMs = sampled.cpuMs ? (cpuMs * sampled.emulatorMs) / sampled.cpuMs : 0
        meter.last = { cpuMs, emulatorMs, longestMs: sampled.longestMs, heapMB: peak / 2 ** 20, wallMs, cpuFrom: cpu0 === undefined ? 'profiler' : 'thread' }
        book.add(typeof kind === 'function' ? kind(value) : kind, meter.last)
        return value
      })
      busy = run.catch(() => {})
      return run
    },
    close: () => ws.close(),
  }
  return meter
}

/** Runs a step through `meter` when there is one, else just runs it. */
export const measured = (meter, kind, fn) => (meter ? meter.measure(kind, fn) : fn())

/** `cpu 812 ms (emulator 530) · longest 41 ms · heap 38 MB`: a step's cost for a progress line. */
export function formatCost(c) {
  return c ? `cpu ${Math.round(c.cpuMs)} ms (emulator ${Math.round(c.emulatorMs)}) · longest ${Math.round(c.longestMs)} ms · heap ${Math.round(c.heapMB)} MB` : ''
}

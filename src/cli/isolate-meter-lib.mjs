// The pure part of the isolate meter (isolate-meter.mjs): which source module a bundle line
// belongs to, and a V8 CPU profile's busy time, emulator share and longest busy stretch.

/**
 * The source module of each line of an esbuild bundle, from the `// <path>` comment esbuild
 * writes before each module's code: a function `(line0) => path | undefined` (lines from 0).
 */
export function moduleMap(source) {
  const starts = []
  const paths = []
  let line = 0
  let at = 0
  while (at < source.length) {
    let nl = source.indexOf('\n', at)
    if (nl < 0) nl = source.length
    if (source.startsWith('// ', at)) {
      const path = source.slice(at + 3, nl).trim()
      if (/^(src|node_modules)\/\S+\.(ts|js|mjs|cjs)$/.test(path)) {
        starts.push(line)
        paths.push(path)
      }
    }
    line++
    at = nl + 1
  }
  return (line0) => {
    let lo = 0
    let hi = starts.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (starts[mid] <= line0) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found < 0 ? undefined : paths[found]
  }
}

/** Samples V8 files under these names are not the script running: the isolate waited. */
const IDLE = new Set(['(idle)', '(root)'])

/**
 * A profile's CPU time (ms of samples that are not idle), the part with an emulator frame
 * (`src/emulator/`) on the stack, and the longest run of consecutive busy samples: how long
 * the isolate ran at most before anything else (another request) could.
 */
export function cpuOfProfile(profile, moduleOf) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const emulated = new Map()
  const isEmulator = (id) => {
    if (emulated.has(id)) return emulated.get(id)
    const f = nodes.get(id).callFrame
    const mine = moduleOf !== undefined && f.lineNumber >= 0 && /^src\/emulator\//.test(moduleOf(f.lineNumber) ?? '')
    const up = parent.get(id)
    const v = mine || (up !== undefined && isEmulator(up))
    emulated.set(id, v)
    return v
  }
  let cpu = 0
  let emulator = 0
  let stretch = 0
  let longest = 0
  profile.samples.forEach((id, k) => {
    const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000 // the time until the next sample
    if (IDLE.has(nodes.get(id).callFrame.functionName)) {
      stretch = 0
      return
    }
    cpu += dt
    if (isEmulator(id)) emulator += dt
    stretch += dt
    longest = Math.max(longest, stretch)
  })
  return { cpuMs: cpu, emulatorMs: emulator, longestMs: longest }
}

/**
 * The worst figures per kind of step: `add(kind, cost)` after each step; `lines()` is a table
 * for the end of a build, one line per kind in the order first seen.
 */
export function costBook() {
  const kinds = new Map()
  return {
    add(kind, c) {
      const k = kinds.get(kind) ?? { runs: 0, cpuMs: 0, emulatorMs: 0, ownMs: 0, longestMs: 0, heapMB: 0 }
      k.runs++
      if (c.cpuMs > k.cpuMs) [k.cpuMs, k.emulatorMs] = [c.cpuMs, c.emulatorMs]
      k.ownMs = Math.max(k.ownMs, c.cpuMs - c.emulatorMs)
      k.longestMs = Math.max(k.longestMs, c.longestMs)
      k.heapMB = Math.max(k.heapMB, c.heapMB)
      kinds.set(kind, k)
    },
    get: (kind) => kinds.get(kind),
    lines() {
      const rows = [...kinds].map(([kind, k]) => [kind, String(k.runs), `${ms(k.cpuMs)} (${ms(k.emulatorMs)})`, ms(k.ownMs), ms(k.longestMs), `${Math.round(k.heapMB)} MB`])
      const head = ['step', 'runs', 'cpu max (emulator)', 'cpu w/o emulator', 'longest run', 'heap peak']
      const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
      return [head, ...rows].map((r) => r.map((v, i) => (i === 0 ? v.padEnd(width[i]) : v.padStart(width[i]))).join('  '))
    },
  }
}

const ms = (v) => `${Math.round(v).toLocaleString('en-US')} ms`

/**
 * The pid of the workerd process that runs the Worker among the descendants of `rootPid`
 * (wrangler dev runs two: a proxy, and the runtime started with an inspector address), from
 * `procs`: [{ pid, ppid, args }].
 */
export function runtimePid(procs, rootPid) {
  const below = new Set([rootPid])
  let grew = true
  while (grew) {
    grew = false
    for (const p of procs) if (!below.has(p.pid) && below.has(p.ppid)) below.add(p.pid), (grew = true)
  }
  return procs.find((p) => below.has(p.pid) && /workerd/.test(p.args) && /--inspector-addr/.test(p.args))?.pid
}

/** CPU time (ms) in a /proc/<pid>/task/<tid>/stat line: user + system, at `hz` ticks a second. */
export function statCpuMs(stat, hz = 100) {
  // The command name (2nd field) may hold spaces; the fields after its closing parenthesis are fixed.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(f[11]) + Number(f[12])) * 1000) / hz
}

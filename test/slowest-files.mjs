// A vitest reporter that closes the run with its slowest test files, so that the next slow file is
// seen the day it lands. Each row splits the file's time the way vitest measures it: setting up the
// runtime and harness (for a workerd file, starting its runner and loading the Worker and the
// emulator), importing the file, and running its tests and hooks. Vitest runs files on several
// workers at once, so the rows add up to more than the wall time.

const SHOWN = 20

/** Seconds with one decimal, right-aligned. */
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6)

/** One row per file: where its time went. */
export function fileTimes(testModules) {
  return testModules.map((m) => {
    const d = m.diagnostic()
    const setup = d.environmentSetupDuration + d.prepareDuration + d.setupDuration
    return { file: m.moduleId.replace(`${m.project.config.root}/`, ''), project: m.project.name, setup, collect: d.collectDuration, run: d.duration }
  })
}

/** The closing table: totals per project, then the slowest files by setup + import + run. */
export function slowestTable(rows, shown = SHOWN) {
  const total = (r) => r.setup + r.collect + r.run
  const lines = ['', `Slowest test files (seconds; setup = runtime and harness, import = the file's modules, run = tests and hooks)`]
  const projects = [...new Set(rows.map((r) => r.project))].sort()
  for (const p of projects) {
    const of = rows.filter((r) => r.project === p)
    const sum = (k) => of.reduce((a, r) => a + r[k], 0)
    lines.push(`  ${p}: ${of.length} files, setup ${seconds(sum('setup')).trim()}, import ${seconds(sum('collect')).trim()}, run ${seconds(sum('run')).trim()}`)
  }
  lines.push(`  ${'total'.padStart(6)} ${'setup'.padStart(6)} ${'import'.padStart(6)} ${'run'.padStart(6)}  file`)
  for (const r of [...rows].sort((a, b) => total(b) - total(a)).slice(0, shown)) {
    lines.push(`  ${seconds(total(r))} ${seconds(r.setup)} ${seconds(r.collect)} ${seconds(r.run)}  ${r.file} (${r.project})`)
  }
  return lines.join('\n')
}

export default class SlowestFilesReporter {
  onTestRunEnd(testModules) {
    if (testModules.length > 1) process.stdout.write(`${slowestTable(fileTimes(testModules))}\n`)
  }
}

// The order vitest runs the test files in: its own (by the durations of the last run it remembers,
// else larger files first), with the heaviest known files of each project moved to the front. On a
// fresh clone vitest remembers nothing, and the heaviest suites are small files importing a large
// shared module (the clock sweep, the fault matrix, the fuzz): sorted by size they ran last, and
// one worker finished them alone for a minute and a half while the other had nothing left to do.
// Keep HEAVY in step with the slowest files `npm test` prints at its end.
import { BaseSequencer } from 'vitest/node'

/** The files that take longest, by name; the first match comes first. */
export const HEAVY = [/clock-sweep-\d/, /fault-matrix-\d/, /slow-upstream/, /playbook-backtest/, /fuzz-\d/, /sector-valuation/, /shared-answers/, /changedist/, /deadline/]

/** Where a file goes among the heavy ones (HEAVY's index), or HEAVY.length for the rest. */
export const weight = (path) => {
  const i = HEAVY.findIndex((re) => re.test(path))
  return i < 0 ? HEAVY.length : i
}

/** `files` (in vitest's order) with each project's heavy files first, the projects' order kept. */
export function heavyFirst(files, projectOf, pathOf) {
  const position = new Map(files.map((f, i) => [f, i]))
  const firstOfProject = new Map()
  for (const [i, f] of files.entries()) if (!firstOfProject.has(projectOf(f))) firstOfProject.set(projectOf(f), i)
  return [...files].sort((a, b) => firstOfProject.get(projectOf(a)) - firstOfProject.get(projectOf(b)) || weight(pathOf(a)) - weight(pathOf(b)) || position.get(a) - position.get(b))
}

export default class HeavyFirstSequencer extends BaseSequencer {
  async sort(files) {
    return heavyFirst(await super.sort(files), (f) => f.project.name, (f) => f.moduleId)
  }
}

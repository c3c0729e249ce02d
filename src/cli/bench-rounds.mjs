// How `npm run bench` turns measurements into ratios: each route runs against its baseline in
// alternating rounds (baseline, route, baseline, route, …), so drift in the machine's load hits
// both alike, and the ratio shown is the median of the rounds' ratios with their range beside it.

export const ROUNDS = Number(process.env.BENCH_ROUNDS || 5)

/**
 * Measures `baseline` and every target in alternating rounds. `measure(target)` resolves to
 * `{ rps, n, failed }`. Returns the rows for {@link printTable}: the baseline first.
 */
export async function compareInRounds(baseline, targets, measure) {
  const base = { name: baseline.name, runs: [] }
  const rows = []
  for (const target of targets) {
    await measure(target) // warm-up, discarded: first calls pay for compiling and creating objects
    const row = { name: target.name, runs: [], ratios: [] }
    for (let round = 0; round < ROUNDS; round++) {
      const b = await measure(baseline)
      const t = await measure(target)
      base.runs.push(b)
      row.runs.push(t)
      row.ratios.push(t.rps / b.rps)
    }
    rows.push(row)
  }
  return [base, ...rows]
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** Prints rows from {@link compareInRounds}: median req/s, median ratio and its range, totals. */
export function printTable(title, rows) {
  console.log(`\n${title}`)
  console.log('route'.padEnd(44) + 'req/s'.padStart(8) + 'ratio'.padStart(8) + 'range'.padStart(13) + 'requests'.padStart(10) + 'failed'.padStart(8))
  for (const row of rows) {
    const rps = median(row.runs.map((r) => r.rps))
    const ratio = row.ratios ? median(row.ratios).toFixed(2) : '1.00'
    const range = row.ratios ? `${Math.min(...row.ratios).toFixed(2)}–${Math.max(...row.ratios).toFixed(2)}` : ''
    const n = row.runs.reduce((s, r) => s + r.n, 0)
    const failed = row.runs.reduce((s, r) => s + r.failed, 0)
    console.log(row.name.padEnd(44) + rps.toFixed(0).padStart(8) + ratio.padStart(8) + range.padStart(13) + String(n).padStart(10) + String(failed).padStart(8))
  }
}

/**
 * The per-route goals as a table: each route's median ratio to the baseline (or to its anchor, for a
 * bar stated against one), the goal, and its ceilings: the median ratio of a bare route that does
 * only the part of the route's work no route can avoid (its upstream requests, or carrying its very
 * answer and headers), and of the same behind keyed admission (`admitted`), which every counted
 * call passes. A goal above the first measured in the same run cannot be met in this view by
 * making the route's own work cheaper; above the second, not without cheaper admission too. `bars` are `{ target, goal, ceiling?, admitted?, per? }`
 * (rows' names); returns the lines to print, nothing for a bar whose rows did not run.
 */
export function barLines(rows, bars) {
  const ratio = (name) => {
    if (name === undefined) return undefined
    const row = rows.find((r) => r.name === name)
    return row?.ratios ? median(row.ratios) : undefined
  }
  const lines = []
  for (const { target, goal, ceiling, admitted, per } of bars) {
    const own = ratio(target)
    const anchor = per ? ratio(per) : 1
    if (own === undefined || anchor === undefined) continue
    const measured = own / anchor
    const roof = ratio(ceiling)
    const admittedRoof = ratio(admitted)
    const verdict =
      measured >= goal ? 'met'
      : roof !== undefined && roof < goal ? 'not met: the goal is above the ceiling'
      : admittedRoof !== undefined && admittedRoof < goal ? 'not met: the goal is above the ceiling with admission'
      : 'not met'
    const against = per ? `× ${per.trim()}` : '× bare'
    const roofs = [
      roof === undefined ? '' : `ceiling ${roof.toFixed(2)} (${ceiling.trim()})`,
      admittedRoof === undefined ? '' : `with admission ${admittedRoof.toFixed(2)}`,
    ].filter(Boolean)
    lines.push(`${target.trim().padEnd(44)} ${measured.toFixed(2)} ${against.padEnd(8)}  goal ${goal}  ${verdict}${roofs.length ? `; ${roofs.join(', ')}` : ''}`)
  }
  return lines
}

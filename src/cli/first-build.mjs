// npm start's first-start build: on the emulator with no history in the store (or an unfinished
// build from an earlier start), build the recent history in the background through the same
// steps as `npm run backfill` (default range: every stock's whole daily history and the day blobs
// of about the last month), printing progress. Meanwhile /v1/kline-full and /v1/market-kline
// answer ok:false with code BUILDING and how far the build is. BUILD_HISTORY=0 turns it off.
// With a meter (src/cli/isolate-meter.mjs, on wrangler dev's inspector) every step is measured
// inside workerd: the progress lines say what the last step cost, and a table at the end the
// worst CPU, longest run and memory of each kind of step.
import { formatDuration } from './backfill-lib.mjs'
import { runBackfill, runPlaybookBacktest } from './backfill-run.mjs'
import { buildForeignTables } from './foreign-tables.mjs'
import { formatCost, measured } from './isolate-meter.mjs'

const say = (msg) => process.stdout.write(`[history] ${msg}\n`)

/** The backfill's state on the server, or null when none was ever started. */
async function backfillState(base) {
  const res = await fetch(`${base}/__jobs/backfill`)
  if (!res.ok) throw new Error(`GET /__jobs/backfill → HTTP ${res.status}`)
  return (await res.json()).state ?? null
}

/** Runs the build when the store needs one; never throws (the server keeps serving either way). */
export async function firstStartBuild(base, meter) {
  const t0 = performance.now()
  try {
    // HK and US tables need no history: one list walk each, before the A-share build.
    for (const line of await buildForeignTables(base, undefined, meter)) say(line)
    const state = await backfillState(base)
    if (state?.phase === 'done') {
      say(`history built ${state.finishedAt?.slice(0, 10) ?? ''} (day blobs ${state.from} .. ${state.to}); \`npm run backfill\` brings it up to date`)
      // A store built before the playbook backtest existed gets its evidence now (a no-op otherwise).
      await runPlaybookBacktest((path) => measured(meter, 'playbooks (one run)', async () => (await fetch(base + path, { method: 'POST' })).json()), say, meter)
      return
    }
    say(
      state
        ? `resuming the history build of ${state.from} .. ${state.to} in the background`
        : 'no history in the store yet: building it in the background (every stock\'s daily history and about the last month of whole-market days; a few minutes)'
    )
    say('until it is done, /v1/kline-full and /v1/market-kline answer ok:false with code BUILDING and their progress')
    // An unfinished build carries on with its own range (another range would start it over).
    const range = state ? { from: state.from, to: state.to } : {}
    const summary = await runBackfill({ url: base, parallel: 1, meter, ...range }, { note: say, redraw: false })
    say(summary)
    say(`history ready after ${formatDuration((performance.now() - t0) / 1000)}: /v1/kline-full and /v1/market-kline now serve it`)
  } catch (e) {
    say(`the history build stopped: ${e.message}. Restart \`npm start\` or run \`npm run backfill\` to resume it.`)
  }
}

/** Upstream requests per industry-chain run of the first start (the cron's runs spend 400). */
const CHAIN_BUDGET = 2000

/**
 * npm start's industry-chain build on the emulator: runs the industry-chain job (POST
 * /__jobs/industry-chain) until it holds every board and composition, so /v1/industry-chain has
 * members at once instead of after a night of cron runs. Never throws.
 */
export async function firstChainBuild(base, meter) {
  const t0 = performance.now()
  const say = (msg) => process.stdout.write(`[chains] ${msg}\n`)
  try {
    for (let run = 0; run < 50; run++) {
      const r = await measured(meter, 'industry-chain (one run)', async () => {
        const res = await fetch(`${base}/__jobs/industry-chain`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ budget: CHAIN_BUDGET }) })
        if (!res.ok) throw new Error(`POST /__jobs/industry-chain → HTTP ${res.status}`)
        return res.json()
      })
      if (meter) say(`run ${run + 1}: ${r.requests} requests, ${r.coverage.compositions} of ${r.coverage.candidates} compositions · ${formatCost(meter.last)}`)
      if (r.complete || (r.boards_fetched === 0 && r.compositions_fetched === 0)) {
        say(`industry-chain members built (${r.coverage.compositions} compositions, ${r.coverage.boards} boards) in ${formatDuration((performance.now() - t0) / 1000)}`)
        return
      }
    }
    say('industry-chain members partly built; the cron carries on')
  } catch (e) {
    say(`the industry-chain build stopped: ${e.message}; /v1/industry-chain answers NOT_BUILT until the job runs`)
  }
}

/** The closing table of a measured first start: each kind of step's worst figures. */
export function printCosts(meter) {
  const lines = meter.book.lines()
  if (lines.length < 2) return
  say('each kind of job step, measured inside workerd (the worst run of each; CPU the runtime thread\'s, memory the isolate\'s peak in use, garbage not yet collected included):')
  for (const line of lines) say('  ' + line)
}

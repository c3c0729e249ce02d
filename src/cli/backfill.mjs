// npm run backfill -- [--from DATE] [--to DATE] [--url URL] [--token T] — drives the worker's
// backfill steps (/__jobs/backfill/start, chunk, finish; src/jobs/backfill.ts) on a running server:
// builds every stock's history and the day blobs of [from, to] from the upstreams (the emulator
// under `npm start` offline), with a progress bar and ETA on stderr. Rerun it to resume: the plan
// and the chunks done are kept by the server in R2 (meta/backfill.json). `npm start` on the
// emulator runs the same build by itself when the store has none (src/cli/first-build.mjs).
import { HELP, parseCli, UsageError } from './backfill-lib.mjs'
import { Exit, runBackfill } from './backfill-run.mjs'

const tty = process.stderr.isTTY
const note = (msg) => process.stderr.write(msg + '\n')

async function main() {
  const opts = parseCli(process.argv.slice(2), process.env)
  if (opts.help) {
    console.log(HELP)
    return
  }
  await checkServer(opts.url)
  console.log(await runBackfill(opts, { note: (msg) => note((tty ? '\n' : '') + msg), redraw: tty }))
}

/** Exits with a clear message when nothing answers at `url`. */
async function checkServer(url) {
  try {
    const res = await fetch(url + '/v1/health', { signal: AbortSignal.timeout(5000) })
    await res.body?.cancel()
  } catch (e) {
    throw new Exit(
      2,
      `backfill: no server answers at ${url} (${e.cause?.code ?? e.cause?.message ?? e.message}).\n` +
        `Start it first with \`npm start\` (in another terminal), or point --url at a running one.`
    )
  }
}

main().catch((e) => {
  if (e instanceof UsageError) {
    console.error(`backfill: ${e.message}\n\n${HELP}`)
    process.exit(2)
  }
  if (e instanceof Exit) {
    console.error((tty ? '\n' : '') + e.message)
    process.exit(e.code)
  }
  console.error(e)
  process.exit(1)
})

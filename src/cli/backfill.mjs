// npm run backfill -- [--from DATE] [--to DATE] [--url URL] [--token T] — drives the worker's
// backfill steps (/__jobs/backfill/start, chunk, finish; src/jobs/backfill.ts) on a running server:
// builds every stock's history and the day blobs of [from, to] from the upstreams (the emulator
// under `npm start` offline), with a progress bar and ETA on stderr. Rerun it to resume: the plan
// and the chunks done are kept by the server in R2 (meta/backfill.json).
import { formatDuration, HELP, parseCli, progressLine, UsageError } from './backfill-lib.mjs'

/** A failure already explained; exit with `code`. */
class Exit extends Error {
  constructor(code, message) {
    super(message)
    this.code = code
  }
}

const RETRIES = 4
const tty = process.stderr.isTTY

async function main() {
  const opts = parseCli(process.argv.slice(2), process.env)
  if (opts.help) {
    console.log(HELP)
    return
  }
  const headers = { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }

  /** One step; retried with backoff on network errors and 5xx, never on 4xx (those need a person). */
  async function step(path, body) {
    for (let attempt = 1; ; attempt++) {
      let res
      try {
        res = await fetch(opts.url + path, { method: 'POST', headers, body: JSON.stringify(body ?? {}) })
      } catch (e) {
        if (attempt >= RETRIES) throw new Exit(1, `backfill: ${path} failed: ${e.cause?.message ?? e.message}`)
        await sleep(500 * 2 ** attempt)
        continue
      }
      const text = await res.text()
      let json
      try {
        json = JSON.parse(text)
      } catch {
        json = { error: text.slice(0, 300) }
      }
      if (res.ok) return json
      if (res.status === 404) throw new Exit(1, `backfill: ${opts.url} has no ${path} (a deployed worker needs --token / ADMIN_TOKEN; locally run the emulator entry with npm start)`)
      if (res.status < 500 || attempt >= RETRIES) {
        const detail = json.detail ? json.detail.map((d) => `${d.loc.slice(1).join('.')}: ${d.msg}`).join('; ') : json.error
        throw new Exit(1, `backfill: ${path} → HTTP ${res.status}: ${detail}`)
      }
      note(`\n${path} → HTTP ${res.status}: ${json.error}; retrying (${attempt}/${RETRIES - 1})`)
      await sleep(500 * 2 ** attempt)
    }
  }

  await checkServer(opts.url)
  const t0 = performance.now()
  const start = await step('/__jobs/backfill/start', { from: opts.from, to: opts.to, restart: opts.restart, chunkSize: opts.chunkSize })
  const s = start.state
  const resumed = s.chunks - start.pending.length
  note(
    `backfill ${s.from} .. ${s.to}: ${s.days} trading days, ${s.codes.length} stocks in ${s.chunks} chunks of ${s.chunkSize}; histories through ${s.through}` +
      (s.phase === 'done' ? ' (already done; --restart to build it again)' : s.phase !== 'chunks' ? ` (resuming the ${s.phase} phase)` : resumed ? ` (resuming: ${resumed} chunks already done)` : '')
  )

  // Phase 1: chunks, `parallel` at a time.
  if (s.phase === 'chunks' && start.pending.length) {
    const queue = [...start.pending]
    let done = resumed
    let doneHere = 0
    let histories = 0
    const tc = performance.now()
    const show = progress('chunks ', () => ({ done, total: s.chunks, elapsed: (performance.now() - tc) / 1000, doneHere, extra: `${histories} histories` }))
    await Promise.all(
      Array.from({ length: Math.min(opts.parallel, queue.length) }, async () => {
        while (queue.length) {
          const index = queue.shift()
          const r = await step('/__jobs/backfill/chunk', { index })
          done++
          doneHere++
          histories += r.histories ?? 0
          show()
        }
      })
    )
    show(true)
  }

  // Phase 2: one month of day blobs per call.
  let fin = { phase: s.phase, remainingMonths: s.months.length - s.finishedMonths.length, written: s.written }
  const months = s.months.length
  let doneHere = 0
  const tf = performance.now()
  const show = progress('days   ', () => ({ done: months - fin.remainingMonths, total: months, elapsed: (performance.now() - tf) / 1000, doneHere, extra: fin.month ? `${fin.month}: ${fin.dates} days` : '' }))
  if (fin.phase !== 'done') {
    while (fin.phase !== 'done') {
      fin = await step('/__jobs/backfill/finish')
      if (fin.month) doneHere++
      show()
    }
    show(true)
  }

  const w = fin.written
  const secs = (performance.now() - t0) / 1000
  console.log(
    `backfill done in ${formatDuration(secs)}: ${s.codes.length} histories through ${s.through}; ${w.dates} day blobs ${s.from} .. ${s.to}, ` +
      `${w.rows} rows, ${(w.bytes / 1e6).toFixed(1)} MB (${w.dates ? Math.round(w.bytes / w.dates / 1024) : 0} KB per day)` +
      (w.emptyDates.length ? `; no bars at all on ${w.emptyDates.join(', ')}` : '')
  )
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

/** A progress printer: redraws one line on a terminal, prints a line every 5 s otherwise. */
function progress(label, state) {
  let last = 0
  return (final = false) => {
    const line = progressLine({ label, ...state() })
    if (tty) process.stderr.write(`\r${line}\x1b[K${final ? '\n' : ''}`)
    else if (final || performance.now() - last > 5000) {
      last = performance.now()
      process.stderr.write(line + '\n')
    }
  }
}

const note = (msg) => process.stderr.write(msg + '\n')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

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

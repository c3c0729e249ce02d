// Drives the worker's backfill steps (/__jobs/backfill/start, chunk, finish; src/jobs/backfill.ts)
// on a running server until the history is built: used by `npm run backfill` and by `npm start`'s
// first-start build. Progress goes to `note` (one line at a time) or is redrawn on a terminal.
import { formatDuration, progressLine } from './backfill-lib.mjs'
import { buildForeignTables } from './foreign-tables.mjs'
import { formatCost, measured } from './isolate-meter.mjs'

/** A failure already explained; the CLI exits with `code`. */
export class Exit extends Error {
  constructor(code, message) {
    super(message)
    this.code = code
  }
}

const RETRIES = 4
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs (or resumes) the backfill of `opts` ({url, token?, from?, to?, restart?, chunkSize?,
 * parallel, meter?}) to the end. `out.note(msg)` prints a line; `out.redraw` true redraws the
 * progress on one terminal line instead of a line every 5 s. With a `meter`
 * (src/cli/isolate-meter.mjs) each step is measured inside workerd and the progress says what the
 * last one cost. Returns the summary line.
 */
export async function runBackfill(opts, out) {
  const { note } = out
  const headers = { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) }

  /** One step, measured as `kind` (a name, or a function of the step's answer) when there is a meter. */
  const step = (path, body, kind = path.replace('/__jobs/', '')) => measured(opts.meter, kind, () => post(path, body))

  /** One call; retried with backoff on network errors and 5xx, never on 4xx (those need a person). */
  async function post(path, body) {
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
      note(`${path} → HTTP ${res.status}: ${json.error}; retrying (${attempt}/${RETRIES - 1})`)
      await sleep(500 * 2 ** attempt)
    }
  }

  /** A progress printer: redraws one line on a terminal, prints a line every 5 s otherwise. */
  function progress(label, state) {
    let last = 0
    return (final = false) => {
      const cost = opts.meter?.last
      const line = progressLine({ label, ...state() }) + (cost ? `  · last step: ${formatCost(cost)}` : '')
      if (out.redraw) process.stderr.write(`\r${line}\x1b[K${final ? '\n' : ''}`)
      else if (final || performance.now() - last > 5000) {
        last = performance.now()
        note(line)
      }
    }
  }

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
      Array.from({ length: Math.min(opts.parallel ?? 1, queue.length) }, async () => {
        while (queue.length) {
          const index = queue.shift()
          const r = await step('/__jobs/backfill/chunk', { index }, 'backfill/chunk (100 stocks)'.replace('100', String(s.chunkSize)))
          done++
          doneHere++
          histories += r.histories ?? 0
          show()
        }
      })
    )
    show(true)
  }

  // Phase 2: one month of day blobs per call, then one day of technicals and factor tables per call.
  const tableDays = s.tableDays?.length ?? 0
  let fin = { phase: s.phase, remainingMonths: s.months.length - s.finishedMonths.length, written: s.written }
  let remainingTableDays = tableDays - (s.finishedTableDays?.length ?? 0)
  const total = s.months.length + tableDays
  let doneHere = 0
  const tf = performance.now()
  const extra = () => (fin.month ? `${fin.month}: ${fin.dates} days` : fin.tableDay ? `tables of ${fin.tableDay}` : '')
  const show = progress('days   ', () => ({ done: total - fin.remainingMonths - remainingTableDays, total, elapsed: (performance.now() - tf) / 1000, doneHere, extra: extra() }))
  if (fin.phase !== 'done') {
    while (fin.phase !== 'done') {
      fin = await step('/__jobs/backfill/finish', undefined, (r) => (r.month ? 'backfill/finish: a month of day blobs' : r.tableDay ? 'backfill/finish: a day of tables' : 'backfill/finish: done'))
      if (fin.remainingTableDays !== undefined) remainingTableDays = fin.remainingTableDays
      if (fin.phase === 'done') remainingTableDays = 0
      if (fin.month || fin.tableDay) doneHere++
      show()
    }
    show(true)
  }

  for (const line of await buildForeignTables(opts.url, opts.token, opts.meter)) note(line)
  // Phase 3: the playbook backtest over the histories just built, so /v1/playbooks has evidence.
  await runPlaybookBacktest((path) => step(path, undefined, 'playbooks (one run)'), note, opts.meter)

  const w = fin.written
  const secs = (performance.now() - t0) / 1000
  return (
    `backfill done in ${formatDuration(secs)}: ${s.codes.length} histories through ${s.through}; ${w.dates} day blobs ${s.from} .. ${s.to}, ` +
    `${w.rows} rows, ${(w.bytes / 1e6).toFixed(1)} MB (${w.dates ? Math.round(w.bytes / w.dates / 1024) : 0} KB per day)` +
    (w.emptyDates.length ? `; no bars at all on ${w.emptyDates.join(', ')}` : '')
  )
}

/**
 * Runs the playbook backtest (src/jobs/playbook-backtest.ts) to the end through
 * `POST /__jobs/playbooks`, about 20 s of chunks a call; `post(path)` makes the call and returns
 * its JSON (measured by `meter`, when given, whose last cost each progress line shows). Never
 * throws for a failed run: the evening cron retries it.
 */
export async function runPlaybookBacktest(post, note, meter) {
  const t0 = performance.now()
  let r
  do {
    r = await post('/__jobs/playbooks')
    if (r.status === 'partial') note(`playbook backtest: ${r.chunks.done} of ${r.chunks.total} chunks${meter?.last ? ` · last run: ${formatCost(meter.last)}` : ''}`)
  } while (r.status === 'partial')
  if (r.status !== 'done') return note(`playbook backtest ${r.status}: ${r.error ?? r.reason ?? ''} (the evening cron retries)`)
  if (r.noop) return note(`playbook backtest: the evidence of ${r.through} is computed`)
  note(`playbook backtest of ${r.with_history} stocks through ${r.through}: ${formatDuration(r.compute_ms / 1000)} of compute (${formatDuration((performance.now() - t0) / 1000)} in all)`)
}

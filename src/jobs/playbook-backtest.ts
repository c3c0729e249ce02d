/**
 * The playbook backtest (docs/api-guide.md, /v1/playbooks): runs every playbook of src/data/playbooks.ts over the
 * stored daily history of the whole A-share market and stores each one's evidence in
 * `playbooks/evidence.json`, which /v1/playbooks serves.
 *
 * Span: the last {@link BACKTEST_RULES}.sessions (250) trading days through the store's
 * `historyThrough`. The factor tables exist for only the last 20 sessions, so the factors are
 * computed here from each stored history, point in time (src/domain/stock-days.ts: factors of D
 * from the bars up to D), as the after-close job computes them. Execution rules and costs:
 * src/domain/backtest/simulate.ts and BACKTEST_RULES.
 *
 * Like the after-close job it is idempotent and resumable: a run
 *   (a) does nothing when the evidence of the current `historyThrough` exists;
 *   (b) otherwise starts (or resumes) a cursor in `meta/cursors/playbook-backtest.json`: the
 *       universe, fixed chunks of {@link BACKTEST_CHUNK} stocks, and the benchmark's bars kept in
 *       staging so every chunk compares with the same index;
 *   (c) computes chunks in order until its time budget is spent, each chunk's figures staged
 *       before the cursor moves past it (a run cut off redoes at most one chunk);
 *   (d) once every chunk is staged, merges them in chunk order into the evidence, records the
 *       run (with the compute time for the whole market) and drops the staging.
 * The evidence holds no clock time: the same history gives byte-identical evidence.
 */
import { BACKTEST_RULES, PLAYBOOKS } from '../data/playbooks'
import { compilePlaybook, emptyPartial, evidenceOf, mergePartial, runStock, type IndexPrices, type PlaybookPartial } from '../domain/backtest/engine'
import { stockSeries } from '../domain/backtest/series'
import { mapLimit } from '../domain/concurrency'
import { addDays, beijing } from '../domain/dates'
import { boardOfCode } from '../domain/price-limit'
import { parseSymbol } from '../domain/symbols'
import { tradingDaysBetween } from '../domain/trading-calendar'
import type { Services } from '../services/types'
import { indexOnOrAfter, readHistory } from '../store/history'
import type { History, StoredEvidence } from '../store/shapes'
import { PLAYBOOK_EVIDENCE_KEY, PLAYBOOK_STAGING_PREFIX } from '../store/keys'
import { readCursor, readManifest, readUniverse, recordRun, writeCursor, type RunEntry } from '../store/meta'
import { EVIDENCE_VERSION, readEvidence } from '../store/playbook-evidence'
import { deletePrefix, getJson, putJson } from '../store/r2-json'
import { channelSource } from './eastmoney-source'
import { nextTurn } from './pace'
import type { HistorySource } from './source'

export const PLAYBOOK_JOB = 'playbook-backtest'

/** Stocks per chunk. Fixed, so the evidence does not depend on how the runs were cut. */
const BACKTEST_CHUNK = 100

/**
 * Wall time one run spends on chunks before it leaves the rest to the next run. Measured on the
 * emulator's whole market under `wrangler dev` (2 busy cores): 36 s of compute for 5,572 stocks,
 * under 1 s a chunk; under vitest's instrumented modules about 3 s a chunk. Either way a run
 * stays well inside the Workers' 30 s CPU limit.
 */
const BACKTEST_RUN_MS = 20_000

/** Chunks one run does at most: each reads 100 histories, and an invocation has 1,000 subrequests. */
const BACKTEST_MAX_CHUNKS = 6

/** Histories read at once. */
const CONCURRENCY = 6

interface BacktestCursor {
  through: string
  from: string
  sessions: number
  universeDate: string
  codes: string[]
  names: Record<string, string>
  profiles: Record<string, [number | null, number | null, string | null]>
  chunkSize: number
  chunks: number
  next: number
  /** Compute time of the chunks so far, ms (the whole market's once done). */
  computeMs: number
  startedAt: string
  done: boolean
}

/** One chunk's figures as staged: the stocks with a history in the span, and each playbook's partial. */
interface StagedChunk {
  histories: number
  partials: PlaybookPartial[]
}

export interface BacktestOptions {
  /** Defaults to the Eastmoney channels (for the benchmark index's bars). */
  source?: HistorySource
  /** Wall-time budget of this run, ms; a run does at least one chunk. */
  maxMs?: number
  /** Stocks per chunk of a run that starts now (tests make it small); {@link BACKTEST_CHUNK} by default. */
  chunk?: number
}

export type BacktestRun = RunEntry & { through?: string; chunks?: { done: number; total: number }; compute_ms?: number; noop?: boolean }

const COSTS = { commission: BACKTEST_RULES.commission_pct / 100, stampDuty: BACKTEST_RULES.stamp_duty_pct / 100 }

const INDEX_NAME: Record<string, string> = { sh000300: 'CSI 300 (沪深300)', sh000001: 'SSE Composite (上证指数)' }

const indexKey = (through: string) => `${PLAYBOOK_STAGING_PREFIX}${through}/index.json`
const chunkKey = (through: string, i: number) => `${PLAYBOOK_STAGING_PREFIX}${through}/chunk-${String(i).padStart(5, '0')}.json`

const EXECUTION =
  'Signals are evaluated on each close with factors computed from the bars up to that day (forward-adjusted to it, nothing after it); ' +
  'the buy is at the next session\'s open, refused when that open is at limit-up (the signal is lost). One position per stock at a time. ' +
  'Fixed periods sell at the open N sessions after the entry; the exit rule sells at the open after the first close where the exit expression holds, ' +
  'the hold expression fails, the stop-loss or take-profit is crossed on the close, or max_days have been held. A sale due on an open at limit-down ' +
  'waits for the next open that is not. Returns are forward-adjusted (dividends and bonus shares count) and net of costs. Index figures are the ' +
  'benchmark\'s open-to-open change over the same windows, without costs. Max drawdown: the equal-weight daily portfolio of the exit rule\'s positions.'

/** One run of the job (the cron, the admin route and the backfill driver call it). */
export async function playbookBacktestJob(env: Env, services: Services, options: BacktestOptions = {}): Promise<BacktestRun> {
  const t0 = Date.now()
  const bucket = env.STORE
  const now = services.now()
  const at = new Date(now).toISOString()
  const today = beijing(now).date
  let entry: BacktestRun
  try {
    entry = await step(bucket, services, options, at, t0)
  } catch (e) {
    entry = { at, status: 'error', ms: Date.now() - t0, error: e instanceof Error ? e.message : String(e) }
    console.error(`${PLAYBOOK_JOB}: ${entry.error}`)
  }
  if (!entry.noop) await recordRun(bucket, PLAYBOOK_JOB, today, entry)
  return entry
}

/** The job as a cron entry of src/jobs/index.ts JOBS. */
export async function playbookBacktestCron(_event: ScheduledController, env: Env, _ctx: ExecutionContext, services: Services): Promise<void> {
  await playbookBacktestJob(env, services)
}

async function step(bucket: R2Bucket, services: Services, options: BacktestOptions, at: string, t0: number): Promise<BacktestRun> {
  const through = (await readManifest(bucket))?.historyThrough
  if (!through) return { at, status: 'skipped', ms: 0, reason: 'no history in the store yet (run the backfill)' }
  const have = await readEvidence(bucket)
  if (have?.v === EVIDENCE_VERSION && have.through === through) return { at, status: 'done', ms: Date.now() - t0, through, noop: true }

  let cursor = await readCursor<BacktestCursor>(bucket, PLAYBOOK_JOB)
  let index = cursor && !cursor.done && cursor.through === through ? await readIndex(bucket, through) : undefined
  // A new day (or staging lost): start over from the universe.
  if (!cursor || !index) {
    cursor = await start(bucket, options.source ?? channelSource(services), through, at, options.chunk ?? BACKTEST_CHUNK)
    index = (await readIndex(bucket, through))!
  }
  const compiled = PLAYBOOKS.map(compilePlaybook)
  const budget = options.maxMs ?? BACKTEST_RUN_MS
  for (let done = 0; cursor.next < cursor.chunks && done < BACKTEST_MAX_CHUNKS && (done === 0 || Date.now() - t0 < budget); done++) {
    const c0 = Date.now()
    const codes = cursor.codes.slice(cursor.next * cursor.chunkSize, (cursor.next + 1) * cursor.chunkSize)
    const { partials, histories } = await runChunk(bucket, cursor, codes, compiled, index)
    await putJson(bucket, chunkKey(through, cursor.next), { histories, partials } satisfies StagedChunk)
    cursor.next++
    cursor.computeMs += Date.now() - c0
    await writeCursor(bucket, PLAYBOOK_JOB, cursor)
  }
  const chunks = { done: cursor.next, total: cursor.chunks }
  if (cursor.next < cursor.chunks) return { at, status: 'partial', ms: Date.now() - t0, through, chunks, compute_ms: cursor.computeMs }

  const evidence = await assemble(bucket, cursor, index, services.simulated)
  if (typeof evidence === 'number') {
    // A chunk's staged figures are gone: the next run computes it (and those after it) again.
    cursor.next = evidence
    await writeCursor(bucket, PLAYBOOK_JOB, cursor)
    return { at, status: 'partial', ms: Date.now() - t0, through, chunks: { done: evidence, total: cursor.chunks }, error: `the staged figures of chunk ${evidence} were missing` }
  }
  await putJson(bucket, PLAYBOOK_EVIDENCE_KEY, evidence)
  cursor.done = true
  await writeCursor(bucket, PLAYBOOK_JOB, cursor)
  await deletePrefix(bucket, PLAYBOOK_STAGING_PREFIX)
  return {
    at, status: 'done', ms: Date.now() - t0, through, chunks, compute_ms: cursor.computeMs,
    stocks: cursor.codes.length, with_history: evidence.universe.with_history, started_at: cursor.startedAt, finished_at: new Date().toISOString(),
  }
}

/** Step (b): a new cursor over the universe, and the benchmark's bars staged once. */
async function start(bucket: R2Bucket, source: HistorySource, through: string, at: string, chunkSize: number): Promise<BacktestCursor> {
  await deletePrefix(bucket, PLAYBOOK_STAGING_PREFIX)
  const universe = await readUniverse(bucket)
  if (!universe?.codes.length) throw new Error('no universe in the store (meta/universe.json): run the backfill first')
  const days = tradingDaysBetween(addDays(through, -550), through).slice(-BACKTEST_RULES.sessions)
  const from = days[0]
  // From a little before the span: the drawdown's first day needs the close before it.
  const bars = await source.rawDaily(parseSymbol(BACKTEST_RULES.index), addDays(from, -20), through)
  if (bars.length === 0) throw new Error(`no bars of the benchmark ${BACKTEST_RULES.index} for ${from} .. ${through}`)
  await putJson(bucket, indexKey(through), bars.filter((b) => b.date <= through).map((b) => [b.date, b.open, b.close]))
  const codes = [...universe.codes].sort()
  const cursor: BacktestCursor = {
    through, from, sessions: days.length, universeDate: universe.date, codes, names: universe.names ?? {}, profiles: universe.profiles ?? {},
    chunkSize, chunks: Math.ceil(codes.length / chunkSize), next: 0, computeMs: 0, startedAt: at, done: false,
  }
  await writeCursor(bucket, PLAYBOOK_JOB, cursor)
  return cursor
}

/** The benchmark's staged bars; undefined when the staging is gone. */
async function readIndex(bucket: R2Bucket, through: string): Promise<IndexPrices | undefined> {
  const rows = await getJson<Array<[string, number, number]>>(bucket, indexKey(through))
  return rows && new Map(rows.map(([d, open, close]) => [d, { open, close }]))
}

/** Step (c) for one chunk: every playbook over every stock of the chunk, in code order. */
async function runChunk(bucket: R2Bucket, cursor: BacktestCursor, codes: string[], compiled: ReturnType<typeof compilePlaybook>[], index: IndexPrices) {
  const partials = compiled.map((c) => emptyPartial(c.playbook.periods.length))
  const histories = await mapLimit(codes, CONCURRENCY, async (code) => {
    const h = await readHistory(bucket, code)
    await nextTurn() // a turn between parsing one history and the next
    return h
  })
  let n = 0
  for (const [k, code] of codes.entries()) {
    const h = histories[k]
    const board = boardOfCode(code)
    if (!h || !board) continue
    const first = indexOnOrAfter(h, cursor.from)
    if (first >= h.t.length) continue
    n++
    const series = stockSeries(code, warmedUp(h, first), Math.min(first, WARMUP), board, cursor.names[code] ?? '', cursor.profiles[code])
    compiled.forEach((c, j) => runStock(c, series, index, COSTS, partials[j]))
    histories[k] = undefined // done with it: the chunk does not hold 100 histories to its end
    await nextTurn() // some 10 ms a stock: requests get a turn between stocks
  }
  return { partials, histories: n }
}

/**
 * Bars before the span that the factors are computed from: the rows cost a third of the time
 * they cost from the whole history since 2016, and the factors agree with it to their printed
 * precision (tested). The slowest-forgetting indicator is RSI(24), a Tongdaxin SMA that keeps
 * (23/24)^600 < 1e-11 of its start after 600 bars; MA250 and the 250-day high need 250. OBV's
 * level is the exception: a running sum from the first bar, which no playbook uses.
 */
export const WARMUP = 600

/** `h` from {@link WARMUP} bars before index `first` on (the whole of it when shorter). */
export function warmedUp(h: History, first: number): History {
  const s = Math.max(0, first - WARMUP)
  if (s === 0) return h
  return { ...h, t: h.t.slice(s), o: h.o.slice(s), h: h.h.slice(s), l: h.l.slice(s), c: h.c.slice(s), vol: h.vol.slice(s), amt: h.amt.slice(s) }
}

/** Step (d): the chunks' figures merged in chunk order, then each playbook's evidence; or the first chunk whose figures are missing. */
async function assemble(bucket: R2Bucket, cursor: BacktestCursor, index: IndexPrices, simulated: boolean): Promise<StoredEvidence | number> {
  const totals = PLAYBOOKS.map((p) => emptyPartial(p.periods.length))
  let withHistory = 0
  for (let i = 0; i < cursor.chunks; i++) {
    const staged = await getJson<StagedChunk>(bucket, chunkKey(cursor.through, i))
    if (!staged) return i
    withHistory += staged.histories
    staged.partials.forEach((p, j) => mergePartial(totals[j], p))
  }
  return {
    v: EVIDENCE_VERSION,
    through: cursor.through,
    period: { from: cursor.from, to: cursor.through, sessions: cursor.sessions },
    simulated,
    note: simulated
      ? 'Computed on simulated data: the emulator\'s made-up market, not real prices. These figures say nothing about real trading.'
      : 'Computed on the stored daily history of the A-share market.',
    universe: {
      stocks: cursor.codes.length,
      with_history: withHistory,
      description: `A-share stocks (SH, SZ, BJ) of the market list of ${cursor.universeDate} with a stored history; stocks delisted before that day are not in it (survivorship bias). ST limits from today's names.`,
    },
    index: { code: BACKTEST_RULES.index, name: INDEX_NAME[BACKTEST_RULES.index] ?? BACKTEST_RULES.index },
    costs: { commission_pct: BACKTEST_RULES.commission_pct, stamp_duty_pct: BACKTEST_RULES.stamp_duty_pct },
    execution: EXECUTION,
    playbooks: Object.fromEntries(PLAYBOOKS.map((p, j) => [p.id, evidenceOf(totals[j], p.periods, index)])),
  }
}

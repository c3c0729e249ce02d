/**
 * The after-close job (docs/operations.md, "Scheduled jobs"): on a trading day once the day has settled (15:30
 * Beijing),
 *   (a) takes the whole-market snapshot and writes `market-kline/<today>.json`, only when it is
 *       absent and only from a complete snapshot (never a partial day);
 *       with each stock's turnover rate beside it in `meta/turnover/<today>.json`;
 *   (b) appends today's bar (read back from that blob, its turnover rate from the file beside it)
 *       to each stock's history, at most `chunk`
 *       stocks per run, with a cursor in `meta/cursors/market-day.json`; today's corporate actions
 *       are fetched once and kept in `meta/actions/<today>.json`;
 *       While it holds each history, it stages the stock's point-in-time technical row of today;
 *   (c) once every history is current, assembles the staged rows into `technicals/<today>.json`
 *       and `factors/hs/<today>.json` (src/jobs/day-tables.ts), once;
 *   (d) records the run in `meta/runs/market-day-<today>.json`.
 * Idempotent: a blob that exists is never rewritten and a history that already ends today is
 * left alone, so a second run changes no data. Resumable: a run cut off part-way (limits, an
 * upstream failure) leaves the cursor where it stopped and the next run carries on; the cron
 * repeats every 10 minutes after the close until the cursor says done.
 */
import { beijing } from '../domain/dates'
import { isSettled, SETTLED_MINUTE } from '../domain/settled-day'
import { isTradingDay, previousTradingDay } from '../domain/trading-calendar'
import type { Services } from '../services/types'
import { appendBars, mergeActions, readHistory, writeHistory } from '../store/history'
import type { History } from '../store/shapes'
import { actionsKey, dayRowsPrefix, technicalsKey, turnoverKey } from '../store/keys'
import { hasMarketDay, marketRow, readMarketDay, rowBar, writeMarketDay, type MarketKlineRow } from '../store/market-kline'
import { profilesOf, readCursor, readUniverse, recordRun, updateManifest, writeCursor, writeUniverse, type RunEntry } from '../store/meta'
import { deletePrefix, getJson, putJson } from '../store/r2-json'
import { addStates, collectRows, stagedDayRows, writeDayTables } from './day-tables'
import { StateShards, StatesWriter } from '../store/state-shards'
import { nextTurn } from './pace'
import { buildHistory, catchUp } from './build-history'
import { channelSource } from './eastmoney-source'
import { isStockCode, type HistorySource, type SourceAction } from './source'

const MARKET_DAY_JOB = 'market-day'

export interface MarketDayOptions {
  /** Defaults to the Eastmoney channels through `services.channelContext`. */
  source?: HistorySource
  /** Histories updated per run at most (each is an R2 read and a write). */
  chunk?: number
  /**
   * Subrequests one run may spend. Workers allow 1000 per invocation (paid plan); R2 calls and
   * upstream fetches both count, so a run stops early when building or catching up costs more.
   */
  budget?: number
  /** Histories updated at once. */
  concurrency?: number
}

/** Per-run limits of step (b). */
interface MarketDayTuning {
  chunk: number
  budget: number
  concurrency: number
}

const MARKET_DAY_DEFAULTS: MarketDayTuning = { chunk: 400, budget: 900, concurrency: 6 }

/**
 * Subrequests step (c) may spend: the fundamentals' statement and 业绩报表 pages (288 for the whole
 * market, src/jobs/fundamental-factors.ts) and about 65 R2 calls (the staged row files, one per
 * 100 stocks, and the writes).
 */
const DAY_TABLES_COST = 360

/** A stock that failed this many runs in a row is given up for the day (and named in the record). */
const MAX_FAILURES = 3

/** Where step (b) stands for one trading day. */
export interface MarketDayCursor {
  date: string
  /** Index into the day's blob rows of the next stock to update. */
  next: number
  total: number
  done: boolean
  /** Consecutive failed runs per code. */
  failures: Record<string, number>
  /** Codes given up for the day. */
  gaveUp: string[]
}

/** Snapshot shortfall against the last known universe beyond which the snapshot counts as incomplete. */
const MIN_UNIVERSE_SHARE = 0.95

/** What one run did; also returned to the caller (the admin route prints it). */
export type MarketDayRun = RunEntry & { date: string }

/** The job, in the shape the scheduled dispatcher calls (plus the services it needs). */
export async function marketDayJob(
  _event: ScheduledController | undefined,
  env: Env,
  _ctx: ExecutionContext | undefined,
  services: Services,
  options: MarketDayOptions = {}
): Promise<MarketDayRun> {
  const t0 = Date.now()
  const now = services.now()
  const { date: today, minute } = beijing(now)
  const bucket = env.STORE
  const source = options.source ?? channelSource(services)
  const o: MarketDayTuning = {
    chunk: options.chunk ?? MARKET_DAY_DEFAULTS.chunk,
    budget: options.budget ?? MARKET_DAY_DEFAULTS.budget,
    concurrency: options.concurrency ?? MARKET_DAY_DEFAULTS.concurrency,
  }
  const at = new Date(now).toISOString()

  let entry: MarketDayRun
  if (!isSettled(now)) {
    const reason = !isTradingDay(today) ? `${today} is not a trading day` : `before ${hhmm(SETTLED_MINUTE)} Beijing (now ${hhmm(minute)}): today's bars are not final`
    entry = { date: today, at, status: 'skipped', ms: 0, reason }
  } else {
    try {
      const blob = await ensureDayBlob(bucket, source, today, now)
      const histories = await appendDay(bucket, source, today, now, o, blob.subrequests)
      // Step (c) needs its own share of the invocation's subrequests; short of it, the next run does it.
      const room = histories.done && blob.subrequests + histories.spent + DAY_TABLES_COST <= o.budget
      const tables = room ? await ensureDayTables(bucket, source, today, now) : undefined
      if (tables) services.store.forgetLatestTechnicals()
      const done = histories.done && tables !== undefined
      entry = { date: today, at, status: done ? 'done' : 'partial', ms: Date.now() - t0, blob, histories, ...(tables ? { tables } : {}) }
    } catch (e) {
      entry = { date: today, at, status: 'error', ms: Date.now() - t0, error: e instanceof Error ? e.message : String(e) }
    }
  }
  await recordRun(bucket, MARKET_DAY_JOB, today, entry)
  if (entry.status === 'error') console.error(`market-day ${today}: ${entry.error}`)
  return entry
}

/** The job as a cron entry of src/jobs/index.ts JOBS (same arguments, nothing returned). */
export async function marketDayCron(event: ScheduledController, env: Env, ctx: ExecutionContext, services: Services): Promise<void> {
  await marketDayJob(event, env, ctx, services)
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`

/** Step (a): the day's blob, written once from a complete snapshot. */
async function ensureDayBlob(bucket: R2Bucket, source: HistorySource, today: string, now: number) {
  if (await hasMarketDay(bucket, today)) return { status: 'exists' as const, subrequests: 1 }
  const snapshot = (await source.snapshot()).filter((r) => isStockCode(r.code))
  const known = await readUniverse(bucket)
  if (known && snapshot.length < MIN_UNIVERSE_SHARE * known.codes.length) {
    throw new Error(`snapshot incomplete: ${snapshot.length} stocks, the last one had ${known.codes.length}; blob not written`)
  }
  const rows: MarketKlineRow[] = []
  for (const r of snapshot) if (r.traded && r.date === today) rows.push(marketRow(r.code, r))
  if (rows.length === 0) throw new Error(`snapshot has no bars dated ${today} (${snapshot.length} stocks listed); blob not written`)
  // The rates first: a blob that exists is never rewritten, so it must not exist without them.
  const rates: Record<string, number> = {}
  for (const r of snapshot) if (r.traded && r.date === today && r.turnover != null) rates[r.code] = r.turnover
  await putJson(bucket, turnoverKey(today), rates)
  const bytes = await writeMarketDay(bucket, today, rows)
  const names = Object.fromEntries(snapshot.filter((r) => r.name).map((r) => [r.code, r.name!]))
  await writeUniverse(bucket, { date: today, codes: snapshot.map((r) => r.code).sort(), names, profiles: profilesOf(snapshot) })
  await updateManifest(bucket, { latestMarketKline: today, universe: snapshot.length }, now)
  // The list came in pages of about 100 stocks, each a subrequest, plus the R2 calls here.
  const subrequests = Math.ceil(snapshot.length / 100) + 6
  return { status: 'written' as const, rows: rows.length, halted: snapshot.length - rows.length, bytes, subrequests }
}

type Outcome = 'appended' | 'current' | 'built' | 'caught-up' | 'no-bars'

/** Subrequests each outcome costs (R2 read + write, plus two upstream calls to build or catch up). */
const COST: Record<Outcome, number> = { appended: 2, current: 1, built: 4, 'caught-up': 4, 'no-bars': 3 }
const WORST_COST = 4

/** Step (b): today's bar into each stock's history, one chunk per run. */
async function appendDay(bucket: R2Bucket, source: HistorySource, today: string, now: number, o: MarketDayTuning, spentBefore: number) {
  let cursor = await readCursor<MarketDayCursor>(bucket, MARKET_DAY_JOB)
  if (cursor?.date === today && cursor.done) return { done: true, next: cursor.total, total: cursor.total, noop: true, spent: 1 }

  const rows = await readMarketDay(bucket, today)
  if (!rows) throw new Error(`market-kline/${today}.json vanished`)
  if (!cursor || cursor.date !== today) cursor = { date: today, next: 0, total: rows.length, done: false, failures: {}, gaveUp: [] }
  const todays = await todaysActions(bucket, source, today)
  // A day blob written before the rates were kept has none: those days store a turnover of null.
  const rates = (await getJson<Record<string, number>>(bucket, turnoverKey(today))) ?? {}
  const todaysBar = (row: MarketKlineRow) => ({ ...rowBar(row), turnover: rates[row.code] ?? null })
  const prev = previousTradingDay(today)

  const counts: Record<Outcome, number> = { appended: 0, current: 0, built: 0, 'caught-up': 0, 'no-bars': 0 }
  // Today's stock-day rows of the histories handled since the last flush (see flushRows).
  let dayLines: string[] = []
  // Yesterday's indicator states of this run's stocks: today's are stepped from them (constant
  // time) where they fit.
  const runCodes = rows.slice(cursor.next, cursor.next + o.chunk).map((r) => r.code)
  // Its own reader: the job reads the prior session's states once, and keeps nothing after it.
  const prior = await new StateShards().read(bucket, prev, runCodes).catch(() => undefined)
  const stage = (h: History) => {
    for (const line of stagedDayRows(h, today, today, prior?.state(h.code))) dayLines.push(line)
  }
  const flushRows = async (at: number) => {
    if (dayLines.length === 0) return
    await bucket.put(`${dayRowsPrefix(today)}${String(at).padStart(6, '0')}.txt`, dayLines.join('\n'))
    dayLines = []
  }
  let spent = spentBefore + 4
  let handled = 0
  let error: string | undefined
  const gaveUp = new Set(cursor.gaveUp)

  const updateOne = async (row: MarketKlineRow): Promise<Outcome> => {
    const code = row.code
    const acts = todays.get(code) ?? []
    const h = await readHistory(bucket, code)
    if (!h) {
      // Not in the store yet (a new listing, or no backfill): build it whole, today included.
      const built = await buildHistory(source, code, today)
      if (!built) return 'no-bars'
      appendBars(built, [todaysBar(row)])
      mergeActions(built, acts)
      await writeHistory(bucket, built)
      stage(built)
      return 'built'
    }
    if (h.last >= today) {
      if (mergeActions(h, acts)) await writeHistory(bucket, h)
      stage(h)
      return 'current'
    }
    let outcome: Outcome = 'appended'
    if (h.last < prev) {
      // Behind by more than today (a missed run or a suspension): fetch the gap first.
      await catchUp(source, h, prev)
      outcome = 'caught-up'
    }
    appendBars(h, [todaysBar(row)])
    mergeActions(h, acts)
    await writeHistory(bucket, h)
    stage(h)
    return outcome
  }

  let savedAt = 0
  while (cursor.next < rows.length && handled < o.chunk && spent + o.concurrency * WORST_COST <= o.budget) {
    const end = Math.min(rows.length, cursor.next + Math.min(o.concurrency, o.chunk - handled))
    const todo = rows.slice(cursor.next, end).filter((r) => !gaveUp.has(r.code))
    const results = await Promise.allSettled(todo.map(updateOne))
    await nextTurn()
    let failed: MarketKlineRow | undefined
    results.forEach((r, i) => {
      if (r.status === 'fulfilled') {
        counts[r.value]++
        spent += COST[r.value]
        delete cursor.failures[todo[i].code]
      } else {
        spent += WORST_COST
        if (!failed) {
          failed = todo[i]
          error = `${failed.code}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`
        }
      }
    })
    if (failed) {
      const code = failed.code
      cursor.failures[code] = (cursor.failures[code] ?? 0) + 1
      if (cursor.failures[code] >= MAX_FAILURES) {
        // Stop retrying a stock that keeps failing; a later catch-up or backfill repairs it.
        gaveUp.add(code)
        cursor.gaveUp = [...gaveUp]
        delete cursor.failures[code]
      }
      // Resume at the failed stock: the ones after it in this batch are redone and found current.
      cursor.next = rows.indexOf(failed, cursor.next)
      break
    }
    handled += end - cursor.next
    cursor.next = end
    if (handled - savedAt >= 100) {
      // A run killed mid-way (CPU or wall limit) loses at most this much work. The rows go first,
      // so the cursor never passes a stock whose row is not staged.
      await flushRows(cursor.next)
      await writeCursor(bucket, MARKET_DAY_JOB, cursor)
      savedAt = handled
      spent++
    }
  }
  cursor.done = cursor.next >= rows.length
  await flushRows(cursor.next)
  await writeCursor(bucket, MARKET_DAY_JOB, cursor)
  if (cursor.done) await updateManifest(bucket, { historyThrough: today }, now)
  return {
    done: cursor.done,
    next: cursor.next,
    total: rows.length,
    ...counts,
    spent: spent - spentBefore,
    ...(cursor.gaveUp.length ? { gaveUp: cursor.gaveUp } : {}),
    ...(error ? { error } : {}),
  }
}

/** Today's corporate actions by code, fetched once per day and kept in meta/. */
async function todaysActions(bucket: R2Bucket, source: HistorySource, today: string): Promise<Map<string, SourceAction[]>> {
  let list = await getJson<SourceAction[]>(bucket, actionsKey(today))
  if (!list) {
    list = (await source.actions({ exDate: today })).filter((a) => a.exDate === today)
    await putJson(bucket, actionsKey(today), list)
  }
  const by = new Map<string, SourceAction[]>()
  for (const a of list) by.set(a.code, [...(by.get(a.code) ?? []), a])
  return by
}

/**
 * Step (c): the day's technicals and factor tables from the rows staged by step (b), written
 * once; the staging is deleted after. A run that finds them written does nothing.
 */
async function ensureDayTables(bucket: R2Bucket, source: HistorySource, today: string, now: number) {
  if (await bucket.head(technicalsKey(today))) return { status: 'exists' as const }
  const rows = new Map<string, Array<string | number | null>>()
  const universe = await readUniverse(bucket)
  // The staged files come in code order: the states are written shard by shard as they are read.
  const states = new StatesWriter(bucket, today, universe?.codes ?? [])
  let cursor: string | undefined
  do {
    const page = await bucket.list({ prefix: dayRowsPrefix(today), cursor })
    for (const o of page.objects) {
      const text = (await (await bucket.get(o.key))?.text()) ?? ''
      const lines = text.split('\n').filter(Boolean).map((l) => l.slice(l.indexOf('\t') + 1))
      collectRows(lines, rows)
      await addStates(lines, states)
      await nextTurn()
    }
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  if (rows.size === 0) throw new Error(`no stock-day rows staged for ${today}; the day's technicals were not written`)
  const written = await writeDayTables(bucket, today, rows.values(), universe?.names ?? {}, now, { source, profiles: universe?.profiles }, states)
  await deletePrefix(bucket, dayRowsPrefix(today))
  return { status: 'written' as const, ...written }
}

/**
 * The backfill, worker side, as short resumable steps a driver calls in turn (src/cli/backfill.mjs
 * over the admin routes):
 *
 *   start   list the universe (whole-market snapshot), fix the range and the chunks, keep the
 *           plan in `meta/backfill.json`. Calling it again resumes the same plan.
 *   chunk i for each stock of chunk i: raw bars since 2016-08-08 and its corporate actions →
 *           `history/<code>.json`; the rows of dates in [from, to] are staged per month under
 *           `staging/backfill/<run>/`. A chunk is done when its marker is written (last), so a
 *           chunk cut off part-way is simply run again (it rewrites the same histories).
 *   finish  once every chunk is done, one month per call: read that month's staged rows of all
 *           chunks, write each trading day's `market-kline/<date>.json` (only from the complete
 *           set), delete the month's staging. Then one call per day of the range's last
 *           {@link TABLE_DAYS} trading days: that day's technicals and hs factor tables from the
 *           point-in-time rows the chunks staged. The last call updates the manifest and cleans up.
 *
 * Memory stays bounded by the chunk size (≤ 50,000 staged rows) and by one month of the market
 * (about 120,000 rows, ~20 MB of text) in finish, whatever the range.
 */
import { mapLimit } from '../domain/concurrency'
import { beijing } from '../domain/dates'
import { previousTradingDay, tradingDaysBetween } from '../domain/trading-calendar'
import { ValidationError } from '../http/validation'
import type { Services } from '../services/types'
import { barAt, indexOnOrAfter, numDate, writeHistory } from '../store/history'
import { BACKFILL_KEY, stagingDayRowsKey, stagingDoneKey, stagingPrefix, stagingRowsKey } from '../store/keys'
import { joinRows, marketRow, writeMarketDayText } from '../store/market-kline'
import { profilesOf, readUniverse, recordRun, updateManifest, writeUniverse } from '../store/meta'
import { StatesWriter } from '../store/state-shards'
import { deletePrefix, putJson } from '../store/r2-json'
import { readBackfillState, readBackfillStatus, withProgress, type BackfillState, type BackfillStatus } from '../store/backfill-record'
import { buildHistory } from './build-history'
import { chunkCodes, chunkSizeFor, daysOfMonth, planRange, readStaged, stagedLine } from './backfill-plan'
import { addStates, collectRows, stagedDayRows, writeDayTables } from './day-tables'
import { channelSource } from './eastmoney-source'
import { keptStatements } from './fundamental-factors'
import { nextTurn, workLane } from './pace'
import { isStockCode, type HistorySource } from './source'

const BACKFILL_JOB = 'backfill'

/**
 * Trading days at the end of the range that get technicals and factor tables. Older days would
 * stage a row of 60 values per stock and day; the tables serve the recent sessions, and the
 * after-close job adds each new day.
 */
const TABLE_DAYS = 20

/** Stocks fetched at once inside a chunk (Workers allow six simultaneous connections). */
const CONCURRENCY = 6

/** A step that cannot run now (wrong phase, nothing started); the admin route answers 409. */
export class BackfillConflict extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BackfillConflict'
  }
}

export interface BackfillDeps {
  env: Env
  services: Services
  source?: HistorySource
}

const sourceOf = (d: BackfillDeps) => d.source ?? channelSource(d.services)

/** The current backfill and its chunk progress; undefined when none was ever started. */
export async function backfillStatus(d: BackfillDeps): Promise<BackfillStatus | undefined> {
  return readBackfillStatus(d.env.STORE)
}

/**
 * Starts a backfill of [from, to], or resumes the unfinished one with the same range (a finished
 * one with the same range and nothing settled since is returned as is). A different range (or
 * `restart`) discards the unfinished one's staging and plans anew. `chunkSize` can
 * only lower the stocks per chunk below the range's bound.
 */
export async function startBackfill(d: BackfillDeps, req: { from?: string; to?: string; restart?: boolean; chunkSize?: number }): Promise<BackfillStatus> {
  const bucket = d.env.STORE
  const now = d.services.now()
  const planned = planRange(req, now)
  if ('issues' in planned) throw new ValidationError(planned.issues)
  const { range } = planned
  const old = await readBackfillState(bucket)
  const same = old && !req.restart && old.from === range.from && old.to === range.to
  // Same range: carry on with the unfinished run, or, when it finished and no day has settled
  // since, there is nothing new to build.
  if (same && (old.phase !== 'done' || old.through === range.through)) return withProgress(bucket, old)
  if (old) await deletePrefix(bucket, stagingPrefix(old.run))

  const snapshot = await sourceOf(d).snapshot()
  const codes = snapshot.map((r) => r.code).filter(isStockCode).sort()
  if (codes.length === 0) throw new Error('the market snapshot lists no stocks')
  // An explicit size may only be smaller than the bound for the range.
  const chunkSize = Math.max(1, Math.min(chunkSizeFor(range.days), Math.floor(req.chunkSize ?? Infinity)))
  const state: BackfillState = {
    run: `${range.from}_${range.to}_${now.toString(36)}`,
    ...range,
    codes,
    chunkSize,
    chunks: Math.ceil(codes.length / chunkSize),
    phase: 'chunks',
    finishedMonths: [],
    tableDays: tradingDaysBetween(range.from, range.to).slice(-TABLE_DAYS),
    finishedTableDays: [],
    startedAt: new Date(now).toISOString(),
    written: { dates: 0, rows: 0, bytes: 0, emptyDates: [] },
  }
  await putJson(bucket, BACKFILL_KEY, state)
  const names = Object.fromEntries(snapshot.filter((r) => r.name && isStockCode(r.code)).map((r) => [r.code, r.name!]))
  await writeUniverse(bucket, { date: beijing(now).date, codes, names, profiles: profilesOf(snapshot.filter((r) => isStockCode(r.code))) })
  await updateManifest(bucket, { universe: codes.length }, now)
  return withProgress(bucket, state)
}

/** What one chunk did. */
export interface ChunkResult {
  index: number
  stocks: number
  histories: number
  rows: number
  ms: number
  /** The chunk had been done already; nothing was redone. */
  already?: boolean
}

/** Builds the histories of chunk `index` and stages its rows. Safe to repeat. */
export async function backfillChunk(d: BackfillDeps, index: number): Promise<ChunkResult> {
  const t0 = Date.now()
  const bucket = d.env.STORE
  const state = await readBackfillState(bucket)
  if (!state) throw new BackfillConflict('no backfill started: call start first')
  if (state.phase !== 'chunks') throw new BackfillConflict(`the backfill is in its ${state.phase} phase; chunks are over`)
  if (!Number.isInteger(index) || index < 0 || index >= state.chunks) {
    throw new ValidationError([{ type: 'value_error', loc: ['body', 'index'], msg: `index must be an integer 0..${state.chunks - 1}`, input: index }])
  }
  const marker = await bucket.head(stagingDoneKey(state.run, index))
  if (marker) {
    const m = marker.customMetadata ?? {}
    return { index, stocks: Number(m.stocks), histories: Number(m.histories), rows: Number(m.rows), ms: Number(m.ms), already: true }
  }

  const source = sourceOf(d)
  const codes = chunkCodes(state.codes, state.chunkSize, index)
  const tableDays = state.tableDays ?? []
  const dayLines = new Map<string, string[]>()
  const inLane = workLane() // this chunk's pieces, one at a time with a turn between them
  const staged = await mapLimit(codes, CONCURRENCY, async (code) => {
    const h = await buildHistory(source, code, state.through)
    if (!h) return undefined
    // Each stock's parts take tens of ms: one at a time, requests get a turn between them.
    await inLane(() => writeHistory(bucket, h))
    if (tableDays.length) {
      const lines = await inLane(() => stagedDayRows(h, tableDays[0], tableDays.at(-1)!))
      for (const line of lines) {
        const date = line.slice(0, 10)
        let list = dayLines.get(date)
        if (!list) dayLines.set(date, (list = []))
        list.push(line.slice(11))
      }
    }
    // The rows of [from, to], grouped by month, in this stock's date order.
    const byMonth = new Map<string, string[]>()
    for (let i = indexOnOrAfter(h, state.from); i < h.t.length; i++) {
      const date = numDate(h.t[i])
      if (date > state.to) break
      const month = date.slice(0, 7)
      let lines = byMonth.get(month)
      if (!lines) byMonth.set(month, (lines = []))
      lines.push(stagedLine(date, JSON.stringify(marketRow(code, barAt(h, i)))))
    }
    return byMonth
  })

  let rows = 0
  for (const month of state.months) {
    const lines: string[] = []
    for (const s of staged) for (const l of s?.get(month) ?? []) lines.push(l)
    rows += lines.length
    await bucket.put(stagingRowsKey(state.run, month, index), lines.join('\n'))
  }
  for (const date of tableDays) await bucket.put(stagingDayRowsKey(state.run, date, index), (dayLines.get(date) ?? []).join('\n'))
  const result = { index, stocks: codes.length, histories: staged.filter(Boolean).length, rows, ms: Date.now() - t0 }
  await bucket.put(stagingDoneKey(state.run, index), JSON.stringify(result), {
    customMetadata: Object.fromEntries(Object.entries(result).map(([k, v]) => [k, String(v)])),
  })
  return result
}

/** What one finish call did. */
export interface FinishResult {
  phase: BackfillState['phase']
  month?: string
  /** A day whose technicals and factor tables this call wrote. */
  tableDay?: string
  tables?: { rows: number; bytes: number; factors: number }
  remainingTableDays?: number
  dates?: number
  rows?: number
  bytes?: number
  remainingMonths: number
  written: BackfillState['written']
}

/**
 * Assembles the next month's day blobs from every chunk's staged rows; the call after the last
 * month completes the backfill. Refuses (409) while chunks are pending.
 */
export async function finishBackfill(d: BackfillDeps): Promise<FinishResult> {
  const t0 = Date.now()
  const bucket = d.env.STORE
  const now = d.services.now()
  const state = await readBackfillState(bucket)
  if (!state) throw new BackfillConflict('no backfill started: call start first')
  if (state.phase === 'done') return { phase: 'done', remainingMonths: 0, written: state.written }
  if (state.phase === 'chunks') {
    const { pending } = await withProgress(bucket, state)
    if (pending.length) throw new BackfillConflict(`${pending.length} of ${state.chunks} chunks are not done (first: ${pending[0]}); run them before finish`)
    state.phase = 'finish'
    await putJson(bucket, BACKFILL_KEY, state)
  }

  const month = state.months.find((m) => !state.finishedMonths.includes(m))
  const tableDay = (state.tableDays ?? []).find((d) => !(state.finishedTableDays ?? []).includes(d))
  if (!month && tableDay) {
    const rows = new Map<string, Array<string | number | null>>()
    // Staged for the newest table day only; written shard by shard as the chunks are read.
    const states = new StatesWriter(bucket, tableDay, state.codes)
    for (let i = 0; i < state.chunks; i++) {
      const obj = await bucket.get(stagingDayRowsKey(state.run, tableDay, i))
      if (!obj) throw new Error(`staged technical rows of chunk ${i} for ${tableDay} are missing; restart the backfill`)
      const lines = (await obj.text()).split('\n').filter(Boolean)
      collectRows(lines, rows)
      await addStates(lines, states)
      await nextTurn()
    }
    // Subrequests of this call: one R2 read per chunk (at most 5,572 / 20 = 279), the statements
    // (288 upstream requests for the whole market, src/jobs/fundamental-factors.ts, on the first
    // table day; the days after it read them from staging, a dozen reads), a few writes.
    const universe = await readUniverse(bucket)
    const fundamentals = { source: keptStatements(bucket, `${stagingPrefix(state.run)}statements/`, sourceOf(d)), profiles: universe?.profiles }
    const tables = rows.size ? await writeDayTables(bucket, tableDay, rows.values(), universe?.names ?? {}, now, fundamentals, states) : { rows: 0, bytes: 0, factors: 0 }
    if (rows.size) d.services.store.forgetLatestTechnicals()
    await deletePrefix(bucket, `${stagingPrefix(state.run)}days/${tableDay}/`)
    state.finishedTableDays = [...(state.finishedTableDays ?? []), tableDay]
    await putJson(bucket, BACKFILL_KEY, state)
    const remainingTableDays = (state.tableDays ?? []).length - state.finishedTableDays.length
    return { phase: state.phase, tableDay, tables, remainingMonths: 0, remainingTableDays, written: state.written }
  }
  if (!month) {
    state.phase = 'done'
    state.finishedAt = new Date(now).toISOString()
    await deletePrefix(bucket, stagingPrefix(state.run))
    await putJson(bucket, BACKFILL_KEY, state)
    const written = state.written.dates > 0
    await updateManifest(bucket, { historyThrough: state.through, ...(written ? { latestMarketKline: lastWritten(state), firstMarketKline: state.from } : {}) }, now)
    await recordRun(bucket, BACKFILL_JOB, beijing(now).date, {
      at: state.finishedAt,
      status: 'done',
      ms: Date.now() - t0,
      from: state.from,
      to: state.to,
      stocks: state.codes.length,
      ...state.written,
    })
    return { phase: 'done', remainingMonths: 0, written: state.written }
  }

  // Every chunk's rows of this month, in chunk order (so the codes stay ascending).
  const byDate = new Map<string, string[]>()
  for (let i = 0; i < state.chunks; i++) {
    const obj = await bucket.get(stagingRowsKey(state.run, month, i))
    if (!obj) throw new Error(`staged rows of chunk ${i} for ${month} are missing; restart the backfill`)
    readStaged(await obj.text(), byDate)
    await nextTurn()
  }
  let rows = 0
  let bytes = 0
  let dates = 0
  for (const date of daysOfMonth(month, state.from, state.to)) {
    const list = byDate.get(date)
    if (!list?.length) {
      state.written.emptyDates.push(date)
      continue
    }
    bytes += await writeMarketDayText(bucket, date, joinRows(list), list.length)
    rows += list.length
    dates++
    byDate.delete(date)
    await nextTurn()
  }
  await deletePrefix(bucket, `${stagingPrefix(state.run)}months/${month}/`)
  state.finishedMonths.push(month)
  state.written.dates += dates
  state.written.rows += rows
  state.written.bytes += bytes
  await putJson(bucket, BACKFILL_KEY, state)
  return { phase: state.phase, month, dates, rows, bytes, remainingMonths: state.months.length - state.finishedMonths.length, written: state.written }
}

/** The last trading day with a blob: `to` unless it came out empty. */
function lastWritten(state: BackfillState): string {
  let last = state.to
  const empty = new Set(state.written.emptyDates)
  while (empty.has(last) && last > state.from) last = previousTradingDay(last)
  return last
}

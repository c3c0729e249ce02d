/**
 * `meta/`: what the store holds and what the jobs did. Small JSON documents, read-modify-write
 * (each has one writer at a time: a cron run or the backfill driver).
 */
import { cursorKey, MANIFEST_KEY, runKey, UNIVERSE_KEY } from './keys'
import { getJson, putJson } from './r2-json'
import type { Universe } from './shapes'

/** What the store holds, for operators and the jobs. */
export interface Manifest {
  /** Newest trading day whose market-kline blob is complete. */
  latestMarketKline?: string
  /** Oldest trading day whose market-kline blob the backfill wrote. */
  firstMarketKline?: string
  /** Every stored history has its bars through this day (set when a job finished all stocks). */
  historyThrough?: string
  /** Stocks in the latest whole-market snapshot. */
  universe?: number
  updated: string
}

export const readManifest = (bucket: R2Bucket) => getJson<Manifest>(bucket, MANIFEST_KEY)

/**
 * Updates the manifest. Dates only move outwards (a backfill of an older range never makes
 * `latestMarketKline` go back).
 */
export async function updateManifest(bucket: R2Bucket, patch: Partial<Omit<Manifest, 'updated'>>, now: number): Promise<Manifest> {
  const m: Manifest = (await readManifest(bucket)) ?? { updated: '' }
  const later = (a?: string, b?: string) => (!a ? b : !b ? a : a > b ? a : b)
  const earlier = (a?: string, b?: string) => (!a ? b : !b ? a : a < b ? a : b)
  m.latestMarketKline = later(m.latestMarketKline, patch.latestMarketKline)
  m.firstMarketKline = earlier(m.firstMarketKline, patch.firstMarketKline)
  m.historyThrough = later(m.historyThrough, patch.historyThrough)
  if (patch.universe !== undefined) m.universe = patch.universe
  m.updated = new Date(now).toISOString()
  await putJson(bucket, MANIFEST_KEY, m)
  return m
}

/** The stock codes of the latest whole-market snapshot, ascending. */
/** The universe's profiles of the stocks the list had share counts for (src/jobs/fundamental-factors.ts reads them). */
export function profilesOf(rows: ReadonlyArray<{ code: string; totalShares?: number | null; floatShares?: number | null; listDate?: string | null }>): NonNullable<Universe['profiles']> {
  const out: NonNullable<Universe['profiles']> = {}
  for (const r of rows) if (r.totalShares != null || r.floatShares != null || r.listDate != null) out[r.code] = [r.totalShares ?? null, r.floatShares ?? null, r.listDate ?? null]
  return out
}

export const readUniverse = (bucket: R2Bucket) => getJson<Universe>(bucket, UNIVERSE_KEY)
export const writeUniverse = (bucket: R2Bucket, u: Universe) => putJson(bucket, UNIVERSE_KEY, u)

/** One run of a job: when, how it ended, and its own counters. */
export interface RunEntry {
  at: string
  status: 'done' | 'partial' | 'skipped' | 'error'
  ms: number
  [detail: string]: unknown
}

/** All runs of a job on one date. */
export interface RunRecord {
  job: string
  date: string
  runs: RunEntry[]
}

/** Runs kept per record: a cron repeating every 10 minutes fits comfortably. */
const MAX_RUNS = 200

export const readRunRecord = (bucket: R2Bucket, job: string, date: string) => getJson<RunRecord>(bucket, runKey(job, date))

/** Appends a run to `meta/runs/<job>-<date>.json`. */
export async function recordRun(bucket: R2Bucket, job: string, date: string, entry: RunEntry): Promise<void> {
  const rec: RunRecord = (await readRunRecord(bucket, job, date)) ?? { job, date, runs: [] }
  rec.runs.push(entry)
  if (rec.runs.length > MAX_RUNS) rec.runs.splice(0, rec.runs.length - MAX_RUNS)
  await putJson(bucket, runKey(job, date), rec)
}

export const readCursor = <T>(bucket: R2Bucket, job: string) => getJson<T>(bucket, cursorKey(job))
export const writeCursor = (bucket: R2Bucket, job: string, cursor: unknown) => putJson(bucket, cursorKey(job), cursor)

/**
 * The backfill's record in R2 (`meta/backfill.json`, the plan and how far it is) and its chunk
 * markers: written by src/jobs/backfill.ts, read by it and by the data routes (through
 * `services.store.buildUnderWay`) to say how far a build is.
 */
import { BACKFILL_KEY, stagingPrefix } from './keys'
import { getJson } from './r2-json'

/** The plan and progress of the backfill, in `meta/backfill.json`. */
export interface BackfillState {
  /** Names this run's staging prefix. */
  run: string
  from: string
  to: string
  /** Histories are built through this day. */
  through: string
  days: number
  months: string[]
  /** Universe at the start, ascending; chunk i is codes[i*chunkSize …]. */
  codes: string[]
  chunkSize: number
  chunks: number
  phase: 'chunks' | 'finish' | 'done'
  finishedMonths: string[]
  /** Days that get technicals and factor tables, ascending (absent in a state from before tables). */
  tableDays?: string[]
  finishedTableDays?: string[]
  startedAt: string
  finishedAt?: string
  written: { dates: number; rows: number; bytes: number; emptyDates: string[] }
}

/** The state plus which chunks are done (from their markers). */
export interface BackfillStatus {
  state: BackfillState
  done: number
  pending: number[]
}

/** The record as stored; undefined when no backfill was ever started. */
export const readBackfillState = (bucket: R2Bucket) => getJson<BackfillState>(bucket, BACKFILL_KEY)

/** The current backfill and its chunk progress; undefined when none was ever started. */
export async function readBackfillStatus(bucket: R2Bucket): Promise<BackfillStatus | undefined> {
  const state = await readBackfillState(bucket)
  return state && withProgress(bucket, state)
}

/** `state` with which of its chunks are done (their markers under the run's staging). */
export async function withProgress(bucket: R2Bucket, state: BackfillState): Promise<BackfillStatus> {
  const done = new Set<number>()
  if (state.phase === 'chunks') {
    let cursor: string | undefined
    do {
      const page = await bucket.list({ prefix: `${stagingPrefix(state.run)}chunks/`, cursor })
      for (const o of page.objects) done.add(Number(o.key.slice(o.key.lastIndexOf('/') + 1, -'.json'.length)))
      cursor = page.truncated ? page.cursor : undefined
    } while (cursor)
  } else for (let i = 0; i < state.chunks; i++) done.add(i)
  const pending: number[] = []
  for (let i = 0; i < state.chunks; i++) if (!done.has(i)) pending.push(i)
  return { state, done: done.size, pending }
}
